"""A prediction's score against its gold, kept up to date after edits.

`IncrementalScore` holds the predicted sentences paired with gold
(`scorer.conllu.pairing.SentencePairer`), grouped into *units* exactly as
`scorer.conllu.evaluate` groups them — the two count through the same rules,
`scorer.conllu.chunks.ChunkCounter` — each unit's counts, and the file's
totals as their sum.  Three ways to bring it up to date after an edit:

- the edited sentences keep their sent_ids and characters (a tag, a head, a
  relation changed): the pairing cannot have changed, so only the units
  holding them are counted again and the totals adjusted (`update`);
- some sentence's text or sent_id changed, but not the number of sentences:
  the pairing is made again from the unit holding the first edited
  sentence until it is back in step with the old one (`pair_again_locally`,
  see `server.engine.conllu.pair_again`);
- otherwise a whole pass (`rescore`), which reuses the counts of every unit
  whose sentences are the same objects as before.

A whole pass streams: each predicted sentence is analysed once, paired,
counted, and dropped; gold sentences are analysed as the pairing reaches
them (`GoldSource`), so memory does not grow with the file.  Most pairs are
plain (one sentence each side, the same tokens, both plain): those are
counted in bulk from the columns their analysis read (`count_plain_pairs`)
and have no counts of their own until an edit touches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from annoscore.scorer.conllu.bulk import PlainSentence, count_plain_pairs, read_plain
from annoscore.scorer.conllu.chunks import ChunkCounter, IdenticalBatch
from annoscore.scorer.conllu.counts import Counts
from annoscore.scorer.conllu.pairing import MISSING, PAIRED, UNMATCHED, Chunk, SentencePairer
from annoscore.scorer.conllu.identical import identity_ready
from annoscore.scorer.conllu.score import ChunkScore, one_side_counts, score_chunk
from annoscore.scorer.conllu.sentence import Sentence
from annoscore.scorer.problems import Problem

from ...textstore import Segment
from .analysis import NONE, SentenceInfo, system_stream
from .goldsource import GoldSource
from .messages import boundary_problems, gold_diff, roots_against_gold, segmentation_mismatch, text_mismatch
from .pair_again import LocalPairing
from .units import Unit, unit_key

# Plain pairs gathered before they are counted in bulk: few enough that
# their columns stay within a core's cache.
PLAIN_BATCH = 64
PROGRESS_STEP = 512  # sentences between two reports of a whole pass's progress


@dataclass
class ScoreSettings:
    sentences: str = "all"    # all | predicted | annotated
    gold_diff: bool = False


class IncrementalScore:
    """The score of a prediction against its gold, kept up to date."""

    def __init__(self, settings: ScoreSettings) -> None:
        self.settings = settings
        self.units: list[Unit] = []
        self.unit_of: list[int] = []   # predicted position -> unit index (-1: none)
        self.totals = Counts()
        self.bulk_totals = Counts()    # of the units whose counts are None
        self.system: list[SentenceInfo] = []
        self.gold: list[SentenceInfo] = []
        self.missing: list[int] = []   # gold positions
        self.unmatched: list[int] = []
        self.excluded: list[int] = []
        self.gold_state: tuple = ()    # which gold text the score was made with (set by the handler)
        self.ended_unclean = False
        # Chunks found unclean and joined with the next, by key, with their
        # infos (kept, so that the identities in the key stay theirs):
        # pairing again, they are held without being scored.
        self.unclean: dict[tuple, list[SentenceInfo]] = {}
        # The gold sentences as the last whole pass read them (for pairing
        # again around an edit); None after a pass in two processes.
        self.source: GoldSource | None = None

    # --- a whole pass, or one from a unit on -----------------------------------------

    def rescore(self, segments: Sequence[Segment], gold: GoldSource, local=None,
                progress: Callable[[float], None] | None = None) -> None:
        """Pair and count everything: the predicted document's ``segments``
        against ``gold``.  Units whose sentences are the same objects as
        before keep their counts — those counted in bulk too, so that after
        an edit that moved the pairing (a token's text changed, a sentence
        split) only the sentences that changed are read and counted again.

        With ``local`` (a `pair_again.LocalPairing`), pair again only from one
        unit on, until the pairing is back in step with the old one."""
        _Pass(self, segments, gold, local, progress).run()

    def add_unit(self, unit: Unit) -> None:
        self.units.append(unit)

    def reindex(self) -> None:
        """Which unit holds each predicted sentence, the totals, and each
        sentence's problems against gold, from the units."""
        self.unit_of = [-1] * len(self.system)
        totals = list(self.bulk_totals.values)
        for info in self.system:
            info.pair_problems = NONE
        for u, unit in enumerate(self.units):
            for k in unit.system:
                self.unit_of[k] = u
            if unit.counts is not None:
                totals = [a + b for a, b in zip(totals, unit.counts.values)]
            for k, problems in zip(unit.system, unit.problems):
                self.system[k].pair_problems = problems
        self.totals = Counts(totals)

    # --- after an edit ------------------------------------------------------------

    def pair_again_locally(self, positions: Sequence[int], infos: Sequence[SentenceInfo],
                       gold: Callable[[], GoldSource]) -> bool:
        """Replace the predicted sentences at ``positions`` (as many as before,
        some with another text or sent_id, so that they may pair otherwise)
        and pair again around them: from the unit holding the first, until
        the pairing is back in step with the old one (see
        `pair_again.LocalPairing`), after which every decision is the old one.
        False when this cannot be done (then call rescore, which pairs
        everything; not with ``annotated``, whose left-out chunks leave no
        unit to rebuild the pairer's state from).
        ``gold`` makes a gold source when the score has none kept (after a
        first pass in two processes)."""
        if self.excluded or not positions or not self.units or self.pairs_alike(positions, infos):
            return False  # (sentences that pair alike are for `update`)
        first = min(positions)
        if not 0 <= first < len(self.unit_of) or self.unit_of[first] < 0:
            return False
        unit = self.unit_of[first]
        # Sentences made unmatched just before it may be the rest of a chunk
        # that the edited sentence failed (their mismatch is read from that
        # chunk's gold text): start before them.
        while unit > 0 and self.units[unit - 1].kind == UNMATCHED:
            unit -= 1
        start = min(self.units[unit].system)
        if self.source is None:
            self.source = gold()
            self.source.count()  # every gold sentence looked up, as a whole pass leaves it
            if len(self.source.infos) != len(self.gold):
                self.source = None
                return False
        old_system = list(self.system)
        for k, info in zip(positions, infos):
            self.system[k] = info
            info.pair_problems = NONE
        local = LocalPairing(unit, start, max(positions), old_system, self.units, self.unit_of, self.system,
                            self.gold, self.source.by_id)
        self.rescore((), self.source, local)
        return True

    def pairs_alike(self, positions: Sequence[int], infos: Sequence[SentenceInfo]) -> bool:
        """Whether these new sentences at ``positions`` pair as the old ones did
        (the same sent_ids and characters): then `update` can count them in place."""
        for k, info in zip(positions, infos):
            old = self.system[k] if k < len(self.system) else None
            if old is None or old.sent_id != info.sent_id or old.chars != info.chars \
                    or old.missing_heads != info.missing_heads:
                return False
        return True

    def update(self, positions: Sequence[int], infos: Sequence[SentenceInfo],
               parsed: Sequence[Sentence | None]) -> bool:
        """Replace the predicted sentences at ``positions`` (same count, same
        sent_ids and characters as before) and count their units again.
        Returns False when that cannot be done in place (then call rescore)."""
        if not self.pairs_alike(positions, infos):
            return False
        fresh = dict(zip(positions, parsed))
        touched = sorted({self.unit_of[k] for k in positions if self.unit_of[k] >= 0})
        for u in touched:
            unit = self.units[u]
            if unit.counts is None:
                # Counted in bulk: count it alone, as it was, to take it out.
                before = bulk_counts([(self.gold[unit.gold[0]], self.system[unit.system[0]])])
                self.bulk_totals = self.bulk_totals - before
                unit.counts = before
        for k, info in zip(positions, infos):
            self.system[k] = info
            info.pair_problems = NONE
        for u in touched:
            unit = self.units[u]
            systems = [fresh.get(k) or self.system[k].parse() for k in unit.system]
            if unit.kind == UNMATCHED:
                # Its text did not change, so neither did where it differs from gold.
                counts = one_side_counts(systems[0], gold=False)
                problems = [[text_mismatch(systems[0], unit.mismatch)]]
                clean = True
            else:
                golds = [self.gold[k].parse() for k in unit.gold]
                scored = score_chunk(golds, systems, details=True)
                if scored.clean != unit.clean:
                    return False  # the units around it would be grouped differently
                counts, clean = scored.counts, scored.clean
                problems = self.pair_problems(golds, systems, scored)
            self.totals = self.totals - unit.counts + counts
            unit.counts, unit.clean, unit.problems = counts, clean, problems
            unit.key = unit_key([self.gold[k] for k in unit.gold], [self.system[k] for k in unit.system])
            for k, sentence_problems in zip(unit.system, problems):
                self.system[k].pair_problems = sentence_problems
        return True

    # --- problems against gold ---------------------------------------------------

    def pair_problems(self, golds: list[Sentence], systems: list[Sentence],
                      scored: ChunkScore) -> Sequence[Sequence[Problem]]:
        """What a unit's predicted sentences show against gold (relative lines)."""
        many_roots = [k for k, sentence in enumerate(systems) if sentence.heads.count(0) > 1]
        split_otherwise = len(golds) > 1 or len(systems) > 1
        if not scored.unaligned_system and not self.settings.gold_diff and not many_roots \
                and not split_otherwise:
            return NONE
        per_system: list[list[Problem]] = [[] for _ in systems]
        if split_otherwise:
            for k, problem in boundary_problems(golds, systems):
                per_system[k].append(problem)
        for (k, i) in scored.unaligned_system or ():
            per_system[k].append(segmentation_mismatch(systems, golds, k, i))
        if many_roots and scored.outcomes is not None:
            system_words = scored.system_words()
            gold_words = {where: gold for gold, where in system_words.items()}
            for k in many_roots:
                per_system[k] += roots_against_gold(systems[k], k, golds, gold_words, scored, system_words)
        if self.settings.gold_diff and scored.outcomes:
            system_words = scored.system_words()
            for outcome in scored.outcomes:
                if outcome.system_sentence < 0:
                    continue
                head = scored.head_in_system(golds[outcome.gold_sentence], outcome.gold_sentence,
                                             outcome.gold_word, outcome.system_sentence, system_words)
                per_system[outcome.system_sentence] += gold_diff(
                    golds[outcome.gold_sentence], outcome.gold_word,
                    systems[outcome.system_sentence], outcome.system_word, outcome.mask, head)
        return per_system


def bulk_counts(pairs: Sequence[tuple[SentenceInfo, SentenceInfo]]) -> Counts:
    """What (gold, system) pairs counted in bulk add to ``bulk_totals``,
    read again from their text (to count them, or to take them out)."""
    read_system = read_plain([s.segment.block for _, s in pairs])
    read_gold = read_plain([g.segment.block for g, _ in pairs])
    both = [(g, s) for g, s in zip(read_gold, read_system) if g is not None and s is not None]
    total = count_plain_pairs(both)  # type: ignore[arg-type]
    if len(both) < len(pairs):  # (cannot happen: their analysis read both as plain)
        for (g, s), gold_read, system_read in zip(pairs, read_gold, read_system):
            if gold_read is None or system_read is None:
                total += score_chunk([g.parse()], [s.parse()]).counts
    return total


class _Pass:
    """One pass of `IncrementalScore.rescore`: the sink of the shared chunk
    counter (`scorer.conllu.chunks`), which makes the score's units,
    reusing the counts of units whose sentences did not change."""

    def __init__(self, score: IncrementalScore, segments: Sequence[Segment], gold: GoldSource, local,
                 progress: Callable[[float], None] | None) -> None:
        self.score, self.segments, self.source, self.local, self.progress = score, segments, gold, local, progress
        self.keep: dict[int, PlainSentence] = gold.keep
        old_units = score.units[local.unit:] if local else score.units
        self.old = {unit.key: unit for unit in old_units if unit.key and unit.counts is not None}
        # Units counted in bulk (one gold and one predicted sentence each)
        # have no key: they are found by the identities of the two infos
        # they were counted from.  Their counts are in bulk_totals, carried
        # over; those not paired again are taken out at the end.
        self.old_system, self.old_gold = (local.old_system if local else score.system), score.gold
        self.old_bulk = {(id(self.old_gold[unit.gold[0]]), id(self.old_system[unit.system[0]])): unit
                         for unit in old_units if unit.counts is None}
        self.carried = score.bulk_totals
        score.bulk_totals = Counts()
        self.old_unclean, score.unclean = score.unclean, {} if local is None else dict(score.unclean)
        self.identical: IdenticalBatch[Unit] = IdenticalBatch(each=self._identical_counted)
        self.plain: list[tuple[Unit, SentenceInfo, SentenceInfo]] = []  # (unit, gold, system)
        self.position: dict[int, int] = {}  # id(info) -> predicted position
        self.counter: ChunkCounter[SentenceInfo] = ChunkCounter(
            self, score.settings.sentences == "annotated", score.settings.sentences != "all",
            lambda info: info.missing_heads)

    def run(self) -> None:
        score, local, source = self.score, self.local, self.source
        if local is None:
            system: Iterable[SentenceInfo] = system_stream(self.segments, source.threshold, source.keep)
            score.system, score.units = [], []
            score.missing, score.unmatched, score.excluded = [], [], []
        else:
            system = iter(score.system[local.start:])
            score.units = score.units[:local.unit]
        score.gold = source.infos
        pairer = SentencePairer(source)
        if local is not None:
            for unit in score.units:
                if unit.kind == PAIRED:
                    for j in unit.gold:
                        pairer.claim(j)
        resumed = False
        k = local.start - 1 if local else -1
        for info in system:
            k += 1
            if local is None:
                score.system.append(info)
                if self.progress is not None and not k % PROGRESS_STEP:
                    self.progress(k / max(len(self.segments), 1))
            self.position[id(info)] = k
            for chunk in pairer.feed(info):  # type: ignore[arg-type]
                self.counter.handle(chunk)
            if local is not None and k >= local.last and self.counter.idle and pairer.is_idle() \
                    and local.in_step(score.units, k + 1, pairer.next_gold):
                resumed = True
                break
        if resumed:
            self._resume()
        else:
            for chunk in pairer.finish():
                self.counter.handle(chunk)
        # Whether the last chunk would have been joined with what came next
        # (see server.engine.conllu.parts: the first part of a file must end clean).
        ended_unclean = self.counter.finish()
        if not resumed:
            score.ended_unclean = ended_unclean
        self.identical.flush()
        self._flush_plain()
        self.keep.clear()
        if self.old_bulk:  # counted before but not paired the same way again
            self.carried = self.carried - bulk_counts([(self.old_gold[unit.gold[0]], self.old_system[unit.system[0]])
                                                       for unit in self.old_bulk.values()])
        score.bulk_totals += self.carried
        if local is not None:
            score.missing = [u.gold[0] for u in score.units if u.kind == MISSING]
            score.unmatched = [u.system[0] for u in score.units if u.kind == UNMATCHED]
        else:
            score.source = source
        score.reindex()

    def _resume(self) -> None:
        """Back in step with the old pairing: the old units that follow stand."""
        score, local = self.score, self.local
        score.units += local.rest
        # Which gold sentences are missing (in gold's order, as `finish` gives them).
        was_missing = {u.gold[0]: u for u in local.old_units_missing()}
        for j in sorted((set(was_missing) - local.taken) | local.freed):
            unit = was_missing.get(j)
            if unit is None:
                counts = one_side_counts(self.source.get(j), gold=True) if score.settings.sentences == "all" \
                    else Counts()
                unit = Unit(MISSING, [j], [], counts)
            score.add_unit(unit)
        for unit in local.rest:  # kept as they were: not taken out below
            if unit.counts is None:
                self.old_bulk.pop((id(self.old_gold[unit.gold[0]]), id(self.old_system[unit.system[0]])), None)

    # --- the sink of the chunk counter ------------------------------------------------

    def count(self, gold: list[int], system: list[SentenceInfo], final: bool) -> bool:
        score = self.score
        system_positions = [self.position[id(s)] for s in system]
        if len(gold) == 1 and len(system) == 1 and not score.settings.gold_diff:
            g, s = score.gold[gold[0]], system[0]
            if g.tokens is not None and g.tokens == s.tokens:
                # Counted in bulk: no key (only units with counts of their
                # own are looked up by it; `update` gives it one).
                unit = Unit(PAIRED, gold, system_positions, None, True)
                score.add_unit(unit)
                if not (self.old_bulk and self.old_bulk.pop((id(g), id(s)), None) is not None):
                    self.plain.append((unit, g, s))  # (else counted before: in `carried`)
                    if len(self.plain) >= PLAIN_BATCH:
                        self._flush_plain()
                return True
        self._forget(gold, system_positions)
        key = unit_key([score.gold[k] for k in gold], system)
        previous = self.old.get(key)
        if previous is not None and previous.kind == PAIRED and (previous.clean or final):
            score.add_unit(Unit(PAIRED, gold, system_positions, previous.counts, previous.clean, key,
                                previous.problems))
            return True
        if not final and key in self.old_unclean:  # the same sentences, unclean before: unclean now
            score.unclean[key] = self.old_unclean[key]
            return False
        golds = [self.source.get(k) for k in gold]
        systems = [s.parse() for s in system]
        unit = Unit(PAIRED, gold, system_positions, Counts(), True, key)
        # (Refused sentences are counted word by word: their problems against
        # gold, such as which root gold disagrees with, need the alignment.)
        if len(golds) == 1 and len(systems) == 1 and not score.settings.gold_diff \
                and not system[0].refused and identity_ready(golds[0], systems[0]):
            score.add_unit(unit)
            self.identical.add(golds[0], systems[0], unit)
            return True
        scored = score_chunk(golds, systems, details=True)
        unit.counts, unit.clean = scored.counts, scored.clean
        if not scored.clean and not final:
            score.unclean[key] = [score.gold[k] for k in gold] + list(system)
            return False  # parsed again when the next chunk comes: nothing kept
        unit.problems = score.pair_problems(golds, systems, scored)
        score.add_unit(unit)
        return True

    def exclude(self, chunk: Chunk) -> None:
        positions = [self.position[id(s)] for s in chunk.system]
        self._forget(chunk.gold, positions)
        self.score.excluded += positions

    def unmatched(self, chunk: Chunk) -> None:
        for s in chunk.system:
            k = self.position[id(s)]
            self._forget((), (k,))
            self.score.unmatched.append(k)
            sentence = s.parse()  # type: ignore[attr-defined]
            unit = Unit(UNMATCHED, [], [k], one_side_counts(sentence, gold=False), mismatch=chunk.mismatch)
            unit.problems = [[text_mismatch(sentence, chunk.mismatch)]]
            self.score.add_unit(unit)

    def missing(self, k: int, counted: bool) -> None:
        self._forget((k,), ())
        self.score.missing.append(k)
        counts = one_side_counts(self.source.get(k), gold=True) if counted else Counts()
        self.score.add_unit(Unit(MISSING, [k], [], counts))

    # --- batches ------------------------------------------------------------------------

    def _identical_counted(self, unit: Unit, counts: Counts) -> None:
        unit.counts = counts

    def _flush_plain(self) -> None:
        """Count the plain pairs gathered: from the columns the analysis
        kept, when it kept both sides; otherwise read again from their text."""
        if not self.plain:
            return
        kept, again = [], []
        for unit, g, s in self.plain:
            gold_read, system_read = self.keep.pop(id(g), None), self.keep.pop(id(s), None)
            if gold_read is not None and system_read is not None:
                kept.append((gold_read, system_read))
            else:
                again.append((g, s))
        self.score.bulk_totals += count_plain_pairs(kept)
        if again:
            self.score.bulk_totals += bulk_counts(again)
        self.plain.clear()

    def _forget(self, gold_positions: Sequence[int], system_positions: Sequence[int]) -> None:
        """Columns kept for sentences that will not be counted in bulk."""
        for k in gold_positions:
            self.keep.pop(id(self.score.gold[k]), None)
        for k in system_positions:
            self.keep.pop(id(self.score.system[k]), None)
