"""CoNLL-U in the engine: diagnostics per sentence, and the score against gold.

Two layers, both cached so that an edit costs work in proportion to what
changed, not to the file:

- `SentenceInfo` — what one sentence shows without gold: format problems,
  refused trees, unparsed, low-confidence cells.  Computed once per text
  segment (see `server.textstore`) and kept on it; an edit replaces only the
  segments it touched.  Kept small: low-confidence cells are tuples, turned
  into diagnostics only when shown.
- `ConlluPairing` — the sentences paired with gold (`scorer.conllu.pairing`),
  grouped into *units* exactly as `scorer.conllu.evaluate` groups them (a
  chunk whose alignment ends with words left over is joined with the next;
  ``annotated`` leaves out chunks not parsed yet), each unit's counts, and the
  file's totals as their sum.  After an edit that keeps every sentence's
  sent_id and characters (changing a tag, a head, a relation), the pairing
  cannot have changed, so only the units holding the edited sentences are
  counted again and the totals adjusted.  After an edit that changes a
  sentence's text or sent_id but not the number of sentences, the pairing is
  made again around it (`ConlluPairing.repair_locally`, `_Local`); otherwise
  it is redone, reusing the counts of every unit whose sentences did not
  change.

A full pass streams: each predicted sentence is parsed once, paired, counted,
and dropped; gold sentences are parsed as the pairing reaches them (see
`GoldSource`), so memory does not grow with the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from scorer.conllu.bulk import PlainBatch, PlainSentence, count_plain_pairs, read_plain
from scorer.conllu.checks import tree_problems
from scorer.conllu.confidence import count_low, count_low_many, low_cells
from scorer.conllu.counts import Counts
from scorer.conllu.pairing import MISSING, PAIRED, UNMATCHED, Mismatch, SentencePairer
from scorer.conllu.reader import cell_span, holds_one_sentence, lone_cr_problems, parse_blocks
from scorer.conllu.score import (
    DEPREL_FULL_OK, FEATS_ALL_OK, HEAD_OK, LEMMA_OK, UPOS_OK, XPOS_OK, ChunkScore,
    count_identical_each, identity_ready, one_side_counts, score_chunk,
)
from scorer.conllu.sentence import FORM, HEAD, Sentence
from scorer.conllu.text import strip_spaces
from scorer.excerpt import excerpt, identifier, quoted
from scorer.problems import Problem, Severity

from ..textstore import Segment

GOLD_DIFF_CELLS = (("UPOS", UPOS_OK, 3), ("XPOS", XPOS_OK, 4), ("LEMMA", LEMMA_OK, 2),
                   ("FEATS", FEATS_ALL_OK, 5), ("HEAD", HEAD_OK, 6), ("DEPREL", DEPREL_FULL_OK, 7))
NONE: tuple = ()  # shared empty lists, so that clean sentences cost nothing
# Sentences read or counted together.  Small batches keep their text and
# columns within a core's cache (2 MB here): the first pass of a 15 MB pair
# missed that cache 43% less often than with 256, for 0.8% fewer instructions.
IDENTICAL_BATCH = 64
BULK_BATCH = 64
# Plain sentences whose columns a full pass keeps until they are counted
# (see GoldSource.keep); past this, they are read again when counted.
KEEP_LIMIT = 8192
PROGRESS_STEP = 512  # sentences between two reports of a whole pass's progress


@dataclass(slots=True, eq=False)
class SentenceInfo:
    """One sentence of a document, as far as it can be judged without gold.

    Lines in problems count from the sentence's first line.
    """

    segment: Segment
    index: int        # which sentence of the segment's block (lines of whitespace may split one)
    line_offset: int  # the sentence's first line, from the block's first line
    sent_id: str | None
    chars: str
    words: int
    unparsed: bool
    missing_heads: bool
    refused: bool
    problems: Sequence[Problem]
    # How many cells are below the threshold (where: `low_cells`, when shown).
    low: int
    # Set by the pairing: problems found against gold (relative lines).
    pair_problems: Sequence[Problem] = NONE
    position: int = -1  # where it is among its document's sentences (set by the engine's index)
    # Plain sentences (see scorer.conllu.bulk) are not parsed to be analysed;
    # their ID and FORM columns tell whether two have the same tokens.
    tokens: str | None = None
    # Low-confidence diagnostics once built: (threshold, problems).  Only the
    # sentences shown get one, and an edit makes a new info, so it is never stale.
    shown_low: tuple | None = None

    @property
    def first_line(self) -> int:
        return self.segment.first_line + self.line_offset

    def parse(self) -> Sentence:
        """The sentence again (lines inside it count from its own first line)."""
        return parse_blocks(self.segment.block or "", 0)[self.index]

    def low_problems(self, threshold: float, per_word: bool = True) -> list[Problem]:
        """``low-confidence`` problems (relative lines), kept: one per word
        naming its cells below the threshold, or with ``per_word=False`` one
        per cell."""
        if self.shown_low is None or self.shown_low[:2] != (threshold, per_word):
            problems = []
            if self.low:
                sentence = self.parse()
                lines = sentence.lines
                cells = low_cells(sentence, threshold)[0]
                if per_word:
                    by_line: dict[int, list] = {}
                    for cell in cells:
                        by_line.setdefault(cell[0], []).append(cell)
                    for line, word_cells in by_line.items():
                        problems.append(low_confidence_word_problem(word_cells, lines[line], threshold))
                else:
                    for cell in cells:
                        problems.append(low_confidence_problem(self, cell, lines[cell[0]], threshold))
            self.shown_low = (threshold, per_word, problems)
        return self.shown_low[2]


def analyze_segment(segment: Segment, threshold: float) -> tuple[list[SentenceInfo], list[Sentence]]:
    """Infos of the sentences of a segment, and the parsed sentences
    (callers that score right away use them; nobody keeps them)."""
    block = segment.block
    if block is None:
        return [], []
    sentences = parse_blocks(block, 0)
    infos = []
    for index, sentence in enumerate(sentences):
        problems = sentence.problems
        tree = tree_problems(sentence)
        if tree:
            problems = problems + tree
        if "\r" in sentence.body:  # (only an editor that keeps lone CRs in lines gives one)
            problems = problems + lone_cr_problems(sentence.lines)
        low = 0
        if "Conf=" in sentence.body:
            low, conf_problems = count_low(sentence, threshold)
            if conf_problems:
                problems = problems + conf_problems
        infos.append(SentenceInfo(
            segment, index, sentence.first_line, sentence.sent_id, sentence.chars, len(sentence.form),
            sentence.is_unparsed, sentence.has_missing_heads,
            any(p.refuses for p in problems), problems or NONE, low))
    return infos, sentences


def analyze_segments(segments: Sequence[Segment], threshold: float,
                     keep: dict[int, PlainSentence] | None = None) -> None:
    """Analyse the segments that have no analysis for this threshold.

    Plain sentences (one per block, well formed, a tree: nearly all of a
    parser's output) are judged from their columns in bulk (`read_plain`,
    `count_low_many`) without being parsed; the others by `analyze_segment`.
    ``keep`` receives the plain sentences read, by ``id`` of their info, for
    a pairing about to count them.
    """
    todo = [s for s in segments if s.analysis is None or s.analysis[0] != threshold]
    for start in range(0, len(todo), BULK_BATCH):
        batch = todo[start:start + BULK_BATCH]
        blocks = [s.block for s in batch]
        plain = read_plain([b if b and holds_one_sentence(b) and "\r" not in b else None for b in blocks])
        found = [p for p in plain if p is not None]
        lows = iter(count_low_many([m for p in found for m in p.misc], [p.words for p in found], threshold))
        for segment, sentence in zip(batch, plain):
            low = next(lows) if sentence is not None else None
            if sentence is None or low is None:
                segment.analysis = (threshold, analyze_segment(segment, threshold)[0])
            else:
                info = SentenceInfo(segment, 0, 0, sentence.sent_id, sentence.chars, sentence.words,
                                    False, False, False, NONE, low, tokens=sentence.tokens)
                segment.analysis = (threshold, [info])
                if keep is not None and len(keep) < KEEP_LIMIT:
                    keep[id(info)] = sentence


def low_confidence_word_problem(cells: list[tuple[int, int, int, str, float]], line_text: str,
                                threshold: float) -> Problem:
    """One word's cells below the threshold, in one diagnostic over them
    (a quiet hint: a prediction with Conf on every word would otherwise
    fill the editor)."""
    cells = sorted(cells, key=lambda cell: cell[1])
    named = ", ".join(f"{column} {quoted(line_text[start:end])} {number:.2f}"
                      for _, start, end, column, number in cells)
    return Problem("low-confidence", f"low confidence: {named} (below {threshold:g})",
                   cells[0][0], cells[0][1], max(cell[2] for cell in cells), Severity.HINT,
                   data=(("cells", len(cells)),))


def low_confidence_problem(info: SentenceInfo, cell: tuple[int, int, int, str, float], line_text: str,
                           threshold: float) -> Problem:
    line, start, end, column, number = cell
    return Problem("low-confidence", f"{column} {quoted(line_text[start:end])} has confidence {number:.2f} "
                   f"(below {threshold:g})", line, start, end, Severity.HINT)


# --------------------------------------------------------------------------
# Gold, read as far as the pairing needs
# --------------------------------------------------------------------------


class GoldSource:
    """The gold document's sentences for the pairing (see pairing.GoldText):
    segments are analysed when the pairing first reaches them, and parsed
    again only when a sentence is counted the ordinary way."""

    def __init__(self, segments: Sequence[Segment], threshold: float) -> None:
        self.segments = segments
        self.threshold = threshold
        self.next_segment = 0
        self.infos: list[SentenceInfo] = []
        self.by_id: dict[str, int] = {}
        self._by_text: dict[str, list[int]] | None = None
        # Plain sentences (of both documents) read during this pass and not
        # counted yet: counted from these columns, not read again.
        self.keep: dict[int, PlainSentence] = {}

    def _advance(self) -> bool:
        """Analyse the next few segments (in bulk, see `analyze_segments`)."""
        if self.next_segment >= len(self.segments):
            return False
        batch = self.segments[self.next_segment:self.next_segment + BULK_BATCH]
        self.next_segment += len(batch)
        analyze_segments(batch, self.threshold, self.keep)
        for segment in batch:
            for info in segment.analysis[1]:  # type: ignore[index]
                position = len(self.infos)
                self.infos.append(info)
                if info.sent_id is not None and info.sent_id not in self.by_id:
                    self.by_id[info.sent_id] = position
                if self._by_text is not None:
                    self._by_text.setdefault(info.chars, []).append(position)
        return True

    def exists(self, index: int) -> bool:
        while len(self.infos) <= index and self._advance():
            pass
        return index < len(self.infos)

    def chars(self, index: int) -> str:
        self.exists(index)
        return self.infos[index].chars

    def find(self, sent_id: str) -> int | None:
        while sent_id not in self.by_id and self._advance():
            pass
        return self.by_id.get(sent_id)

    def with_text(self, text: str) -> list[int]:
        if self._by_text is None:
            self._by_text = {}
            for i, info in enumerate(self.infos):
                self._by_text.setdefault(info.chars, []).append(i)
        while self._advance():
            pass
        return self._by_text.get(text, [])

    def count(self) -> int:
        while self._advance():
            pass
        return len(self.infos)

    def get(self, index: int) -> Sentence:
        self.exists(index)
        return self.infos[index].parse()


# --------------------------------------------------------------------------
# Against gold
# --------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Unit:
    """Sentences counted together: gold positions, predicted positions, counts."""

    kind: str                 # PAIRED, UNMATCHED or MISSING
    gold: list[int]
    system: list[int]
    # None: a plain pair counted in bulk, in the pairing's ``bulk_totals``
    # (its own counts are made when it is edited).
    counts: Counts | None
    clean: bool = True
    key: tuple = ()           # identities of the infos it was counted from (none when counted in bulk)
    problems: Sequence[Sequence[Problem]] = NONE  # per system sentence
    mismatch: Mismatch | None = None  # UNMATCHED: where the text differs


@dataclass
class PairingSettings:
    sentences: str = "all"    # all | predicted | annotated
    gold_diff: bool = False


def unit_key(gold: Sequence[SentenceInfo], system: Sequence[SentenceInfo]) -> tuple:
    return tuple(map(id, gold)) + ("|",) + tuple(map(id, system))


class ConlluPairing:
    """The score of a prediction against its gold, kept up to date."""

    def __init__(self, settings: PairingSettings) -> None:
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
        self.gold_state: tuple = ()    # which gold text the pairing was made with (set by the engine)
        self.ended_unclean = False
        # Chunks found unclean and joined with the next (see `count`), by
        # key, with their infos (kept, so that the identities in the key
        # stay theirs): pairing again, they are held without being scored.
        self.unclean: dict[tuple, list[SentenceInfo]] = {}
        # The gold sentences as the last whole pass read them (for pairing
        # again around an edit); None after a pass in two processes.
        self.source: GoldSource | None = None

    # --- the whole thing ----------------------------------------------------------

    def rescore(self, segments: Sequence[Segment], gold: GoldSource,
                local: "_Local | None" = None, progress: Callable[[float], None] | None = None) -> None:
        """Pair and count everything: the predicted document's ``segments``
        against ``gold``.  Units whose sentences are the same objects as
        before keep their counts — those counted in bulk too, so that after
        an edit that moved the pairing (a token's text changed, a sentence
        split) only the sentences that changed are read and counted again.

        With ``local`` (see `repair_locally`), pair again only from one unit
        on, until the pairing is back in step with the old one."""
        keep = gold.keep
        old_units = self.units[local.unit:] if local else self.units
        old = {unit.key: unit for unit in old_units if unit.key and unit.counts is not None}
        # Units counted in bulk (one gold and one predicted sentence each)
        # have no key (see `count`): they are found by the identities of the
        # two infos they were counted from.  Their counts are in bulk_totals,
        # carried over; those not paired again are taken out at the end.
        old_system, old_gold = (local.old_system if local else self.system), self.gold
        old_bulk = {(id(old_gold[unit.gold[0]]), id(old_system[unit.system[0]])): unit
                    for unit in old_units if unit.counts is None}
        carried = self.bulk_totals
        self.bulk_totals = Counts()
        old_unclean, self.unclean = self.unclean, {} if local is None else dict(self.unclean)
        if local is None:
            system: Iterable[SentenceInfo] = system_stream(segments, gold.threshold, gold.keep)
            self.system = []
            self.units = []
            self.missing, self.unmatched, self.excluded = [], [], []
        else:
            system = iter(self.system[local.start:])
            self.units = self.units[:local.unit]
        self.gold = gold.infos
        identical: list[tuple[Unit, Sentence, Sentence]] = []
        plain: list[tuple[Unit, SentenceInfo, SentenceInfo]] = []  # (unit, gold, system)
        held: list[tuple[list[int], list[int]]] = []  # at most one: a chunk ending unclean
        annotated = self.settings.sentences == "annotated"
        pairer = SentencePairer(gold)
        if local is not None:
            for unit in self.units:
                if unit.kind == PAIRED:
                    for j in unit.gold:
                        pairer.claim(j)

        def system_sentence(k: int) -> Sentence:
            return self.system[k].parse()

        def flush_identical() -> None:
            if identical:
                for (unit, _, _), counts in zip(identical, count_identical_each(
                        [(g, s) for _, g, s in identical])):
                    unit.counts = counts
                identical.clear()

        def forget(gold_positions: Sequence[int], system_positions: Sequence[int]) -> None:
            for k in gold_positions:
                keep.pop(id(self.gold[k]), None)
            for k in system_positions:
                keep.pop(id(self.system[k]), None)

        def flush_plain() -> None:
            # Counted from the columns the analysis kept, when it kept both
            # sides; otherwise read again from the text.
            if not plain:
                return
            kept, again = [], []
            for unit, g, s in plain:
                gold_read, system_read = keep.pop(id(g), None), keep.pop(id(s), None)
                if gold_read is not None and system_read is not None:
                    kept.append((gold_read, system_read))
                else:
                    again.append((unit, g, s))
            self.bulk_totals += count_plain_pairs(kept)
            if again:
                batch = PlainBatch([s.segment.block or "" for _, _, s in again],
                                   [g.segment.block or "" for _, g, _ in again])
                self.bulk_totals += batch.counts()
                for (unit, g, s), passed in zip(again, batch.passed):
                    if not passed:  # cannot happen for two plain sentences with the same tokens
                        unit.counts = score_chunk([g.parse()], [s.parse()]).counts
            plain.clear()

        def count(gold_positions: list[int], system_positions: list[int], final: bool) -> None:
            if len(gold_positions) == 1 and len(system_positions) == 1 and not self.settings.gold_diff:
                g, s = self.gold[gold_positions[0]], self.system[system_positions[0]]
                if g.tokens is not None and g.tokens == s.tokens:
                    # Counted in bulk: no key (only units with counts of their
                    # own are looked up by it; `update` gives it one).
                    unit = Unit(PAIRED, gold_positions, system_positions, None, True)
                    if old_bulk and old_bulk.pop((id(g), id(s)), None) is not None:
                        self._add(unit)  # counted before: in `carried`
                        return
                    plain.append((unit, g, s))
                    if len(plain) >= BULK_BATCH:
                        flush_plain()
                    self._add(unit)
                    return
            forget(gold_positions, system_positions)
            key = unit_key([self.gold[k] for k in gold_positions], [self.system[k] for k in system_positions])
            previous = old.get(key)
            if previous is not None and previous.kind == PAIRED and (previous.clean or final):
                self._add(Unit(PAIRED, gold_positions, system_positions, previous.counts,
                               previous.clean, key, previous.problems))
                return
            if not final and key in old_unclean:  # the same sentences, unclean before: unclean now
                self.unclean[key] = old_unclean[key]
                held.append((gold_positions, system_positions))
                return
            golds = [gold.get(k) for k in gold_positions]
            systems = [system_sentence(k) for k in system_positions]
            unit = Unit(PAIRED, gold_positions, system_positions, Counts(), True, key)
            # (Refused sentences are counted word by word: their problems
            # against gold, such as which root gold disagrees with, need the alignment.)
            if (len(golds) == 1 and len(systems) == 1 and not self.settings.gold_diff
                    and not self.system[system_positions[0]].refused
                    and identity_ready(golds[0], systems[0])):
                identical.append((unit, golds[0], systems[0]))
                if len(identical) >= IDENTICAL_BATCH:
                    flush_identical()
            else:
                scored = score_chunk(golds, systems, details=True)
                unit.counts, unit.clean = scored.counts, scored.clean
                if not scored.clean and not final:
                    self.unclean[key] = [self.gold[k] for k in gold_positions] + \
                        [self.system[k] for k in system_positions]
                    held.append((gold_positions, system_positions))
                    # Parse them again when the next chunk comes: keep nothing.
                    return
                unit.problems = self._pair_problems(golds, systems, scored)
            self._add(unit)

        def flush_held() -> None:
            if held:
                gold_positions, system_positions = held.pop()
                count(gold_positions, system_positions, final=True)

        def handle(chunk) -> None:
            if chunk.kind == PAIRED:
                system_positions = [position[id(s)] for s in chunk.system]
                if annotated and any(self.system[k].missing_heads for k in system_positions):
                    forget(chunk.gold, system_positions)
                    self.excluded += system_positions
                    return
                if held:
                    gold_positions, earlier = held.pop()
                    gold_positions = gold_positions + chunk.gold
                    system_positions = earlier + system_positions
                else:
                    gold_positions = chunk.gold
                count(gold_positions, system_positions, final=False)
            elif chunk.kind == UNMATCHED:
                flush_held()
                for s in chunk.system:
                    k = position[id(s)]
                    forget((), (k,))
                    self.unmatched.append(k)
                    sentence = system_sentence(k)
                    unit = Unit(UNMATCHED, [], [k], one_side_counts(sentence, gold=False),
                                mismatch=chunk.mismatch)
                    unit.problems = [[_text_mismatch(sentence, chunk.mismatch)]]
                    self._add(unit)
            elif chunk.kind == MISSING:
                flush_held()
                forget(chunk.gold, ())
                for k in chunk.gold:
                    self.missing.append(k)
                    counts = Counts()
                    if self.settings.sentences == "all":
                        counts = one_side_counts(gold.get(k), gold=True)
                    self._add(Unit(MISSING, [k], [], counts))

        position: dict[int, int] = {}
        resumed = False
        k = local.start - 1 if local else -1
        for info in system:
            k += 1
            if local is None:
                self.system.append(info)
                if progress is not None and not k % PROGRESS_STEP:
                    progress(k / max(len(segments), 1))
            position[id(info)] = k
            for chunk in pairer.feed(info):  # type: ignore[arg-type]
                handle(chunk)
            if local is not None and k >= local.last and not held and pairer.is_idle() \
                    and local.in_step(self.units, k + 1, pairer.next_gold):
                resumed = True
                break
        if resumed:
            assert local is not None
            self.units += local.rest
            # Which gold sentences are missing (in gold's order, as `finish` gives them).
            was_missing = {u.gold[0]: u for u in local.old_units_missing()}
            for j in sorted((set(was_missing) - local.taken) | local.freed):
                unit = was_missing.get(j)
                if unit is None:
                    counts = one_side_counts(gold.get(j), gold=True) if self.settings.sentences == "all" \
                        else Counts()
                    unit = Unit(MISSING, [j], [], counts)
                self._add(unit)
            for unit in local.rest:  # kept as they were: not taken out below
                if unit.counts is None:
                    old_bulk.pop((id(old_gold[unit.gold[0]]), id(old_system[unit.system[0]])), None)
        else:
            for chunk in pairer.finish():
                handle(chunk)
            # Whether the last chunk would have been joined with what came next
            # (see server.engine.parts: the first part of a file must end clean).
            self.ended_unclean = bool(held)
        flush_held()
        flush_identical()
        flush_plain()
        keep.clear()
        if old_bulk:  # counted before but not paired the same way again
            carried = carried - _bulk_counts([(old_gold[unit.gold[0]], old_system[unit.system[0]])
                                              for unit in old_bulk.values()])
        self.bulk_totals += carried
        if local is not None:
            self.missing = [u.gold[0] for u in self.units if u.kind == MISSING]
            self.unmatched = [u.system[0] for u in self.units if u.kind == UNMATCHED]
        else:
            self.source = gold
        self._index()

    def _add(self, unit: Unit) -> None:
        self.units.append(unit)

    def _index(self) -> None:
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

    def repair_locally(self, positions: Sequence[int], infos: Sequence[SentenceInfo],
                       gold: Callable[[], GoldSource]) -> bool:
        """Replace the predicted sentences at ``positions`` (as many as before,
        some with another text or sent_id, so that they may pair otherwise)
        and pair again around them: from the unit holding the first, until
        the pairing is back in step with the old one (see `_Local`), after
        which every decision is the old one.  False when this cannot be done
        (then call rescore, which pairs everything; not with ``annotated``,
        whose left-out chunks leave no unit to rebuild the pairer's state
        from).
        ``gold`` makes a gold source when the pairing has none kept (after a
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
        local = _Local(unit, start, max(positions), old_system, self.units, self.unit_of, self.system,
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
                before = _bulk_counts([(self.gold[unit.gold[0]], self.system[unit.system[0]])])
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
                problems = [[_text_mismatch(systems[0], unit.mismatch)]]
                clean = True
            else:
                golds = [self.gold[k].parse() for k in unit.gold]
                scored = score_chunk(golds, systems, details=True)
                if scored.clean != unit.clean:
                    return False  # the units around it would be grouped differently
                counts, clean = scored.counts, scored.clean
                problems = self._pair_problems(golds, systems, scored)
            self.totals = self.totals - unit.counts + counts
            unit.counts, unit.clean, unit.problems = counts, clean, problems
            unit.key = unit_key([self.gold[k] for k in unit.gold], [self.system[k] for k in unit.system])
            for k, sentence_problems in zip(unit.system, problems):
                self.system[k].pair_problems = sentence_problems
        return True

    # --- problems against gold ---------------------------------------------------

    def _pair_problems(self, golds: list[Sentence], systems: list[Sentence],
                       scored: ChunkScore) -> Sequence[Sequence[Problem]]:
        many_roots = [k for k, sentence in enumerate(systems) if sentence.heads.count(0) > 1]
        split_otherwise = len(golds) > 1 or len(systems) > 1
        if not scored.unaligned_system and not self.settings.gold_diff and not many_roots \
                and not split_otherwise:
            return NONE
        per_system: list[list[Problem]] = [[] for _ in systems]
        if split_otherwise:
            for k, problem in _boundary_problems(golds, systems):
                per_system[k].append(problem)
        for (k, i) in scored.unaligned_system or ():
            per_system[k].append(_segmentation_mismatch(systems, golds, k, i))
        if many_roots and scored.outcomes is not None:
            system_words = scored.system_words()
            gold_words = {where: gold for gold, where in system_words.items()}
            for k in many_roots:
                per_system[k] += _roots_against_gold(systems[k], k, golds, gold_words, scored, system_words)
        if self.settings.gold_diff and scored.outcomes:
            system_words = scored.system_words()
            for outcome in scored.outcomes:
                if outcome.system_sentence < 0:
                    continue
                head = scored.head_in_system(golds[outcome.gold_sentence], outcome.gold_sentence,
                                             outcome.gold_word, outcome.system_sentence, system_words)
                per_system[outcome.system_sentence] += _gold_diff(
                    golds[outcome.gold_sentence], outcome.gold_word,
                    systems[outcome.system_sentence], outcome.system_word, outcome.mask, head)
        return per_system


class _Local:
    """Where `ConlluPairing.rescore` pairs again around an edit, and how it
    knows that the pairing is back in step with the old one.

    From a sentence on, the pairer's decisions depend on its state: which
    gold sentences are taken, where the gold stream goes on (one past the
    last gold sentence taken), and whether a chunk is open.  The new run is
    back in step with the old one at a sentence where both were idle (the
    old one had just closed a chunk it paired), the stream goes on at the
    same gold sentence, and the gold sentences taken differ only where no
    later decision looks: a sentence the new run *took* was not given to a
    later sentence by the old run, and a sentence it left *free* has a text
    that no later predicted sentence has, except sentences the old run
    paired by their sent_id (taking a gold sentence by sent_id or by text
    needs its text, a sentence paired by sent_id goes on being so, and the
    stream has passed both).  What differs is then only which gold
    sentences end up missing."""

    def __init__(self, unit: int, start: int, last: int, old_system: list[SentenceInfo],
                 old_units: list[Unit], old_unit_of: list[int], system: list[SentenceInfo],
                 gold: list[SentenceInfo], by_id: dict[str, int]) -> None:
        self.unit = unit              # the first old unit made again
        self.start = start            # its first predicted sentence
        self.last = last              # the last edited sentence
        self.old_system = old_system
        self._old_units = old_units
        self._system, self._gold, self._by_id = system, gold, by_id
        self._old_unit_of = old_unit_of
        self._next = unit             # the first old unit past the predicted sentences seen
        self._old_gold: set[int] = set()
        self._taken: set[int] = set()   # in the new run's gold and not (yet) in the old one's
        self._freed: set[int] = set()   # the other way round
        self._old_stream = 1 + max((max(u.gold) for u in old_units[:unit] if u.kind == PAIRED), default=-1)
        self._new_gold: set[int] = set()
        self._seen = unit             # new units looked at so far
        self._given_later: dict[int, int] = {}
        self._wanted_later: dict[int, int] = {}
        self.rest: list[Unit] = []    # the old units that follow, MISSING ones left out
        self.taken: set[int] = set()  # gold sentences taken now and not before
        self.freed: set[int] = set()  # and free now, taken before

    def in_step(self, units: list[Unit], end: int, stream: int) -> bool:
        """Whether the old units from predicted sentence ``end`` on can follow
        the new ``units``, the new pairer's stream going on at ``stream``."""
        old = self._old_units
        while self._next < len(old) and old[self._next].kind != MISSING and \
                min(old[self._next].system) < end:
            if old[self._next].kind == PAIRED:
                for j in old[self._next].gold:
                    self._old_gold.add(j)
                    if j in self._new_gold:
                        self._taken.discard(j)
                    else:
                        self._freed.add(j)
                self._old_stream = max(self._old_stream, max(old[self._next].gold) + 1)
            self._next += 1
        for unit in units[self._seen:]:
            if unit.kind == PAIRED:
                for j in unit.gold:
                    self._new_gold.add(j)
                    if j in self._old_gold:
                        self._freed.discard(j)
                    else:
                        self._taken.add(j)
        self._seen = len(units)
        following = old[self._next] if self._next < len(old) else None
        if following is not None and following.kind != MISSING and min(following.system) != end:
            return False
        # The old pairing was idle there only after a chunk it paired: the
        # sentences of a chunk that failed are made unmatched one by one,
        # later, when the sentence that failed it comes.
        if old[self._next - 1].kind != PAIRED or stream != self._old_stream:
            return False
        taken, freed = set(self._taken), set(self._freed)
        if any(self._given_by_old(j) >= self._next for j in taken) or \
                any(self._wanted(j) >= end for j in freed):
            return False
        self.rest = [u for u in old[self._next:] if u.kind != MISSING]
        self.taken, self.freed = taken, freed
        return True

    def old_units_missing(self) -> list[Unit]:
        return [u for u in self._old_units if u.kind == MISSING]

    def _given_by_old(self, j: int) -> int:
        """The last old unit that took gold sentence ``j`` (-1: none)."""
        if j not in self._given_later:
            self._given_later[j] = max((u for u in range(self.unit, len(self._old_units))
                                        if self._old_units[u].kind == PAIRED and j in self._old_units[u].gold),
                                       default=-1)
        return self._given_later[j]

    def _wanted(self, j: int) -> int:
        """The last predicted sentence with gold sentence ``j``'s text that the
        old run did not pair by its sent_id (-1: none)."""
        if j not in self._wanted_later:
            text = self._gold[j].chars
            self._wanted_later[j] = max((k for k, info in enumerate(self._system)
                                         if info.chars == text and not self._paired_by_id(k, info)), default=-1)
        return self._wanted_later[j]

    def _paired_by_id(self, k: int, info: SentenceInfo) -> bool:
        """Whether the old run paired predicted sentence ``k`` alone with the
        gold sentence its sent_id names (then step 1 did: it comes first)."""
        u = self._old_unit_of[k] if k < len(self._old_unit_of) else -1
        if u < 0 or info.sent_id is None:
            return False
        unit = self._old_units[u]
        return unit.kind == PAIRED and len(unit.system) == 1 and unit.gold == [self._by_id.get(info.sent_id)]


def _bulk_counts(pairs: Sequence[tuple[SentenceInfo, SentenceInfo]]) -> Counts:
    """What (gold, system) pairs counted in bulk added to ``bulk_totals``,
    read again from their text (to take them out)."""
    return PlainBatch([s.segment.block or "" for _, s in pairs], [g.segment.block or "" for g, _ in pairs]).counts()


def system_stream(segments: Sequence[Segment], threshold: float,
                  keep: dict[int, PlainSentence] | None = None) -> Iterator[SentenceInfo]:
    """The predicted sentences in order, analysing segments that have no
    analysis yet, a batch at a time."""
    for start in range(0, len(segments), BULK_BATCH):
        batch = segments[start:start + BULK_BATCH]
        analyze_segments(batch, threshold, keep)
        for segment in batch:
            for info in segment.analysis[1]:  # type: ignore[index]
                yield info


# --------------------------------------------------------------------------
# Where problems against gold go
# --------------------------------------------------------------------------


def locate_character(sentence: Sentence, offset: int) -> tuple[int, int, int]:
    """Line and column span of the character at ``offset`` of the sentence's
    characters (its token forms without spaces, end to end)."""
    done = 0
    tokens = sentence.token_forms()
    for number, (form, first, _end, is_mwt) in enumerate(tokens):
        if offset < done + len(form) or number == len(tokens) - 1:
            if is_mwt:
                mwt = next(m for m in sentence.mwts if m.first == first)
                line, raw = mwt.line, mwt.form
            else:
                line, raw = sentence.word_line[first], sentence.form[first]
            start, _ = cell_span(sentence.lines[line], FORM)
            # Walk the raw form to the wanted character, skipping spaces.
            wanted, seen = max(0, offset - done), 0
            for column, ch in enumerate(raw):
                if strip_spaces(ch):
                    if seen == wanted:
                        return line, start + column, start + column + 1
                    seen += 1
            return line, start, start + len(raw)
        done += len(form)
    return 0, 0, 0


def _text_mismatch(sentence: Sentence, mismatch: Mismatch | None) -> Problem:
    if mismatch is None or not sentence.form:
        return Problem("text-mismatch", "this sentence's text is not in gold (the official scorer "
                       "refuses the pair)", 0, 0, 0, Severity.ERROR, refuses=True)
    line, start, end = locate_character(sentence, mismatch.offset)
    if mismatch.gold_text is None:
        message = "gold has no text left for this sentence"
    else:
        message = (f"the text differs from gold here: {quoted(mismatch.system_text)} where gold has "
                   f"{quoted(mismatch.gold_text)}")
    return Problem("text-mismatch", message + " (the official scorer refuses the pair)",
                   line, start, end, Severity.ERROR, refuses=True)


def _token_spans(sentences: list[Sentence]) -> list[tuple[int, int, int, int, int, str]]:
    """(start, end, sentence, first word, end word, description) of every token,
    on the chunk's running text; a multiword token is described with its words."""
    out = []
    offset = 0
    for k, sentence in enumerate(sentences):
        for form, first, end, mwt in sentence.token_forms():
            described = quoted(form)
            if mwt:
                described += " = " + " + ".join(map(quoted, sentence.form[first:end]))
            out.append((offset, offset + len(form), k, first, end, described))
            offset += len(form)
    return out


GOLD_TOKENS_SHOWN = 5  # gold tokens named in a segmentation-mismatch message


def _segmentation_mismatch(systems: list[Sentence], golds: list[Sentence], k: int, i: int) -> Problem:
    sentence = systems[k]
    span = next(((s, e) for s, e, sk, first, end, _ in _token_spans(systems)
                 if sk == k and (first <= i < end or first == i)), (0, 0))
    gold_here = [described for s, e, _, _, _, described in _token_spans(golds) if s < span[1] and e > span[0]]
    line = sentence.word_line[i]
    start, end = cell_span(sentence.lines[line], FORM)
    in_mwt = next((m for m in sentence.mwts if m.first <= i < m.end), None)
    what = f"word {quoted(sentence.form[i])}" + (f" of {quoted(in_mwt.form)}" if in_mwt else "")
    gold_text = ", ".join(gold_here[:GOLD_TOKENS_SHOWN]) + (" …" if len(gold_here) > GOLD_TOKENS_SHOWN else "") \
        if gold_here else "nothing"
    return Problem("segmentation-mismatch", f"{what} is not aligned with a gold word; gold has "
                   f"{gold_text} here", line, start, end, Severity.WARNING)


def _boundary_problems(golds: list[Sentence], systems: list[Sentence]) -> list[tuple[int, Problem]]:
    """``sentence-boundary`` where a chunk's predicted sentences end
    elsewhere than gold's (the chunk has one running text on both sides):
    on the last token of a predicted sentence that gold's goes on past, and
    on the token after which gold ends a sentence the prediction goes on
    past.  (Problems per system sentence, as (sentence, problem).)"""
    def ends(sentences: list[Sentence]) -> list[int]:
        out, offset = [], 0
        for sentence in sentences:
            offset += len(sentence.chars)
            out.append(offset)
        return out

    gold_ends, system_ends = ends(golds), ends(systems)
    tokens = _token_spans(systems)
    out = []

    def at(offset: int) -> tuple[int, int, str] | None:
        """The system sentence, word and form of the token ending at (or holding) ``offset``."""
        for start, end, k, first, _end, described in tokens:
            if start < offset <= end:
                return k, first, described
        return None

    gold_names = {end: golds[g].sent_id for g, end in enumerate(gold_ends)}
    for k, end in enumerate(system_ends[:-1]):
        if end not in gold_names:
            found = at(end)
            goes_on = next((golds[g].sent_id for g, e in enumerate(gold_ends) if e > end), None)
            if found is not None:
                out.append((found[0], _on_form(systems, found[0], found[1], (
                    f"this sentence ends after {found[2]}, where gold's sentence "
                    f"{identifier(goes_on or '')} goes on".replace(" sentence  goes", " sentence goes")
                    + " (aligned with gold as one running text here)"))))
    for g, end in enumerate(gold_ends[:-1]):
        if end not in system_ends:
            found = at(end)
            if found is not None:
                name = identifier(golds[g].sent_id or "")
                out.append((found[0], _on_form(systems, found[0], found[1], (
                    f"gold's sentence {name} ends after {found[2]}".replace("sentence  ends", "sentence ends")
                    + ", where this one goes on (aligned with gold as one running text here)"))))
    return out


def _on_form(systems: list[Sentence], k: int, word: int, message: str) -> Problem:
    sentence = systems[k]
    line = sentence.word_line[word]
    start, end = cell_span(sentence.lines[line], FORM)
    return Problem("sentence-boundary", message, line, start, end, Severity.WARNING)


def _roots_against_gold(sentence: Sentence, k: int, golds: list[Sentence],
                        gold_words: dict[tuple[int, int], tuple[int, int]], scored: ChunkScore,
                        system_words: dict) -> list[Problem]:
    """``multiple-roots`` on the roots of system sentence ``k`` that gold
    does not make a root (they replace the gold-free marks on every root);
    nothing when gold agrees with all of them or with none, or when a root
    is aligned with no gold word (then the gold-free marks stay)."""
    roots = [i for i, h in enumerate(sentence.heads) if h == 0]
    wrong = []
    for i in roots:
        found = gold_words.get((k, i))
        if found is None:
            return []
        if golds[found[0]].heads[found[1]] != 0:
            wrong.append((i, found))
    if not wrong or len(wrong) == len(roots):
        return []
    named = ", ".join(f"{i + 1} ({sentence.form[i]})" for i in roots[:6]) + (
        f", … ({len(roots)} in all)" if len(roots) > 6 else "")
    out = []
    for i, (gs, gw) in wrong:
        gold = golds[gs]
        here = scored.head_in_system(gold, gs, gw, k, system_words)
        head = gold.heads[gw]
        if here is not None and here != "0":
            where = f"word {here} ({sentence.form[int(here) - 1]})"
        else:
            where = f"'{gold.form[head - 1]}'" if head else "another word"
        line = sentence.word_line[i]
        start, end = cell_span(sentence.lines[line], HEAD)
        out.append(Problem("multiple-roots", f"word {i + 1} ({sentence.form[i]}) has HEAD 0 where gold "
                           f"attaches it to {where}; {len(roots)} words have HEAD 0: {named} "
                           "(the official scorer refuses this)", line, start, end, Severity.ERROR, refuses=True))
    return out


def _gold_diff(gold: Sentence, gi: int, system: Sentence, si: int, mask: int,
               head_here: str | None) -> list[Problem]:
    """A ``gold-diff`` per cell of system word ``si`` that gold word ``gi``
    has otherwise.  Gold's HEAD is shown as this sentence numbers its words
    (``head_here``, see `ChunkScore.head_in_system`), with the head's form."""
    out = []
    line = system.word_line[si]
    text = system.lines[line]
    gold_columns = gold.columns(gi)
    for name, bit, column in GOLD_DIFF_CELLS:
        if mask & bit:
            continue
        message = f"{name}: gold has {quoted(gold_columns[column])}"
        head = gold.heads[gi] if name == "HEAD" else None
        if head and head <= len(gold.form):
            form = gold.form[head - 1]
            message = (f"HEAD: gold has '{head_here} ({excerpt(form)})'" if head_here is not None
                       else f"HEAD: gold's head is {quoted(form)}, which is aligned with no word here")
        start, end = cell_span(text, column)
        out.append(Problem("gold-diff", message, line, start, end, Severity.HINT))
    return out
