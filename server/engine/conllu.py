"""CoNLL-U in the engine: diagnostics per sentence, and the score against gold.

Two layers, both cached so that an edit costs work in proportion to what
changed, not to the file:

- `SentenceInfo` — what one sentence shows without gold: format problems,
  refused trees, unparsed, low-confidence cells.  Computed once per text
  segment (see `server.textstore`) and kept on it; an edit replaces only the
  segments it touched.
- `ConlluPairing` — the sentences paired with gold (`scorer.conllu.pairing`),
  grouped into *units* exactly as `scorer.conllu.evaluate` groups them (a
  chunk whose alignment ends with words left over is joined with the next;
  ``annotated`` leaves out chunks not parsed yet), each unit's counts, and the
  file's totals as their sum.  After an edit that keeps every sentence's
  sent_id and characters (changing a tag, a head, a relation), the pairing
  cannot have changed, so only the units holding the edited sentences are
  counted again and the totals adjusted; otherwise the pairing is redone,
  reusing the counts of every unit whose sentences did not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from scorer.conllu.checks import tree_problems
from scorer.conllu.confidence import CONF_COLUMNS, column_index, word_confidences
from scorer.conllu.counts import Counts
from scorer.conllu.pairing import MISSING, PAIRED, UNMATCHED, GoldList, Mismatch, SentencePairer
from scorer.conllu.reader import cell_span, parse_blocks
from scorer.conllu.score import (
    DEPREL_FULL_OK, FEATS_ALL_OK, HEAD_OK, LEMMA_OK, UPOS_OK, XPOS_OK, ChunkScore,
    count_identical_each, identity_ready, score_chunk,
)
from scorer.conllu.sentence import FORM, Sentence
from scorer.conllu.text import strip_spaces
from scorer.problems import Problem, Related, Severity

from ..textstore import Segment

GOLD_DIFF_CELLS = (("UPOS", UPOS_OK, 3), ("XPOS", XPOS_OK, 4), ("LEMMA", LEMMA_OK, 2),
                   ("FEATS", FEATS_ALL_OK, 5), ("HEAD", HEAD_OK, 6), ("DEPREL", DEPREL_FULL_OK, 7))


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
    problems: list[Problem]
    low_confidence: list[Problem]
    # Set by the pairing: problems found against gold (relative lines).
    pair_problems: list[Problem] = field(default_factory=list)

    @property
    def first_line(self) -> int:
        return self.segment.block_line + self.line_offset

    def parse(self) -> Sentence:
        """The sentence again (lines inside it count from its own first line)."""
        return parse_blocks(self.segment.block or "", 0)[self.index]


def analyze_segment(segment: Segment, threshold: float) -> tuple[list[SentenceInfo], list[Sentence]]:
    """Infos of the sentences of a segment, and the parsed sentences
    (callers that score right away use them; nobody keeps them)."""
    if segment.block is None:
        return [], []
    sentences = parse_blocks(segment.block, 0)
    infos = []
    for index, sentence in enumerate(sentences):
        offset = sentence.first_line  # lines inside the sentence count from here
        tree = tree_problems(sentence)
        problems = [p for p in sentence.problems] + tree
        low: list[Problem] = []
        if "Conf=" in sentence.body:
            low, conf_problems = _low_confidence(sentence, threshold)
            problems += conf_problems
        infos.append(SentenceInfo(
            segment, index, offset, sentence.sent_id, sentence.chars, len(sentence.form),
            sentence.is_unparsed, sentence.has_missing_heads,
            any(p.refuses for p in problems), problems, low))
    return infos, sentences


def _low_confidence(sentence: Sentence, threshold: float) -> tuple[list[Problem], list[Problem]]:
    confidences, problems = word_confidences(sentence)
    low = []
    for i, conf in enumerate(confidences):
        if not conf:
            continue
        for column in CONF_COLUMNS:
            value = conf.get(column)
            if value is None or value >= threshold:
                continue
            line = sentence.word_line[i]
            text = sentence.lines[line]
            start, end = cell_span(text, column_index(column))
            low.append(Problem(
                "low-confidence", f"{column} '{text[start:end]}' has confidence {value:.2f} "
                f"(below {threshold:g})", line, start, end, Severity.INFORMATION))
    return low, problems


# --------------------------------------------------------------------------
# Against gold
# --------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Unit:
    """Sentences counted together: gold positions, predicted positions, counts."""

    kind: str                 # PAIRED, UNMATCHED, MISSING, or "excluded"
    gold: list[int]
    system: list[int]
    counts: Counts
    clean: bool = True
    key: tuple = ()           # identities of the infos it was counted from
    problems: list[list[Problem]] = field(default_factory=list)  # per system sentence
    mismatch: Mismatch | None = None  # UNMATCHED: where the text differs


@dataclass
class PairingSettings:
    sentences: str = "all"    # all | predicted | annotated
    gold_diff: bool = False


class ConlluPairing:
    """The score of a prediction against its gold, kept up to date."""

    def __init__(self, settings: PairingSettings) -> None:
        self.settings = settings
        self.units: list[Unit] = []
        self.unit_of: list[int] = []   # predicted position -> unit index (-1: none)
        self.totals = Counts()
        self.system: list[SentenceInfo] = []
        self.gold: list[SentenceInfo] = []
        self.missing: list[int] = []   # gold positions
        self.unmatched: list[int] = []
        self.excluded: list[int] = []

    # --- the whole thing ----------------------------------------------------------

    def rescore(self, system: Sequence[SentenceInfo], gold: Sequence[SentenceInfo],
                parsed: dict[int, Sentence] | None = None) -> None:
        """Pair and count everything; reuse the counts of units whose sentences
        are the same objects as before.  ``parsed`` may hold already-parsed
        sentences by id(info)."""
        old = {unit.key: unit for unit in self.units if unit.key}
        parsed = parsed if parsed is not None else {}
        self.system, self.gold = list(system), list(gold)
        for info in self.system:
            info.pair_problems = []
        for info in self.gold:
            info.pair_problems = []
        pairer = SentencePairer(GoldList([g.sent_id for g in gold], [g.chars for g in gold]))
        chunks = []
        position = {id(info): k for k, info in enumerate(self.system)}
        for info in self.system:
            chunks += pairer.feed(info)  # type: ignore[arg-type]
        chunks += pairer.finish()
        units: list[Unit] = []
        identical: list[tuple[Unit, Sentence, Sentence]] = []
        held: tuple[list[int], list[int]] | None = None
        self.missing, self.unmatched, self.excluded = [], [], []
        annotated = self.settings.sentences == "annotated"

        def get(info: SentenceInfo) -> Sentence:
            sentence = parsed.get(id(info))
            if sentence is None:
                sentence = parsed[id(info)] = info.parse()
            return sentence

        def count(gold_positions: list[int], system_positions: list[int], final: bool) -> None:
            nonlocal held
            key = tuple(id(self.gold[k]) for k in gold_positions) + ("|",) + tuple(
                id(self.system[k]) for k in system_positions)
            previous = old.get(key)
            if previous is not None and previous.kind == PAIRED and (previous.clean or final):
                unit = Unit(PAIRED, gold_positions, system_positions, previous.counts, previous.clean, key)
                self._restore_problems(previous, unit)
            else:
                unit = Unit(PAIRED, gold_positions, system_positions, Counts(), True, key)
                golds = [get(self.gold[k]) for k in gold_positions]
                systems = [get(self.system[k]) for k in system_positions]
                if (len(golds) == 1 and len(systems) == 1 and not self.settings.gold_diff
                        and identity_ready(golds[0], systems[0])):
                    identical.append((unit, golds[0], systems[0]))
                else:
                    scored = score_chunk(golds, systems, details=True)
                    unit.counts, unit.clean = scored.counts, scored.clean
                    if not scored.clean and not final:
                        held = (gold_positions, system_positions)
                        return
                    self._pair_problems(unit, golds, systems, scored)
            units.append(unit)

        def flush_held() -> None:
            nonlocal held
            if held is not None:
                gold_positions, system_positions = held
                held = None
                count(gold_positions, system_positions, final=True)

        for chunk in chunks:
            if chunk.kind == PAIRED:
                system_positions = [position[id(s)] for s in chunk.system]
                if annotated and any(self.system[k].missing_heads for k in system_positions):
                    self.excluded += system_positions
                    continue
                if held is not None:
                    gold_positions = held[0] + chunk.gold
                    system_positions = held[1] + system_positions
                    held = None
                else:
                    gold_positions = chunk.gold
                count(gold_positions, system_positions, final=False)
            elif chunk.kind == UNMATCHED:
                flush_held()
                for s in chunk.system:
                    k = position[id(s)]
                    self.unmatched.append(k)
                    sentence = get(self.system[k])
                    units.append(Unit(UNMATCHED, [], [k], score_chunk([], [sentence]).counts,
                                      mismatch=chunk.mismatch))
                    self.system[k].pair_problems.append(_text_mismatch(sentence, chunk.mismatch))
            elif chunk.kind == MISSING:
                flush_held()
                for k in chunk.gold:
                    self.missing.append(k)
                    counts = Counts()
                    if self.settings.sentences == "all":
                        counts = score_chunk([get(self.gold[k])], []).counts
                    units.append(Unit(MISSING, [k], [], counts))
        flush_held()
        for unit, counts in zip((u for u, _, _ in identical),
                                count_identical_each([(g, s) for _, g, s in identical])):
            unit.counts = counts
        self.units = units
        self._index()

    def _index(self) -> None:
        self.unit_of = [-1] * len(self.system)
        totals = [0] * len(self.totals.values)
        for u, unit in enumerate(self.units):
            for k in unit.system:
                self.unit_of[k] = u
            totals = [a + b for a, b in zip(totals, unit.counts.values)]
        self.totals = Counts(totals)

    # --- after an edit ------------------------------------------------------------

    def update(self, positions: Sequence[int], infos: Sequence[SentenceInfo]) -> bool:
        """Replace the predicted sentences at ``positions`` (same count, same
        sent_ids and characters as before) and count their units again.
        Returns False when that cannot be done in place (then call rescore)."""
        touched: dict[int, None] = {}
        for k, info in zip(positions, infos):
            old = self.system[k] if k < len(self.system) else None
            if old is None or old.sent_id != info.sent_id or old.chars != info.chars \
                    or old.missing_heads != info.missing_heads:
                return False
            self.system[k] = info
            info.pair_problems = []
            u = self.unit_of[k]
            if u >= 0:
                touched[u] = None
        for u in touched:
            unit = self.units[u]
            if unit.kind == UNMATCHED:
                # Its text did not change, so neither did where it differs from gold.
                sentence = self.system[unit.system[0]].parse()
                counts = score_chunk([], [sentence]).counts
                self.totals = self.totals - unit.counts + counts
                unit.counts = counts
                self.system[unit.system[0]].pair_problems = [_text_mismatch(sentence, unit.mismatch)]
                continue
            golds = [self.gold[k].parse() for k in unit.gold]
            systems = [self.system[k].parse() for k in unit.system]
            scored = score_chunk(golds, systems, details=True)
            if scored.clean != unit.clean:
                return False  # the units around it would be grouped differently
            for k in unit.system:
                self.system[k].pair_problems = []
            self.totals = self.totals - unit.counts + scored.counts
            unit.counts = scored.counts
            unit.key = tuple(id(self.gold[k]) for k in unit.gold) + ("|",) + tuple(
                id(self.system[k]) for k in unit.system)
            self._pair_problems(unit, golds, systems, scored)
        return True

    # --- problems against gold ---------------------------------------------------

    def _restore_problems(self, previous: Unit, unit: Unit) -> None:
        # The infos are the same objects, but their pair problems were cleared.
        unit.problems = previous.problems
        for k, problems in zip(unit.system, previous.problems):
            self.system[k].pair_problems = list(problems)

    def _pair_problems(self, unit: Unit, golds: list[Sentence], systems: list[Sentence],
                       scored: ChunkScore) -> None:
        per_system: list[list[Problem]] = [[] for _ in systems]
        if scored.unaligned_system:
            for (k, i) in scored.unaligned_system:
                per_system[k].append(_segmentation_mismatch(systems, golds, k, i))
        if self.settings.gold_diff and scored.outcomes:
            for outcome in scored.outcomes:
                if outcome.system_sentence < 0:
                    continue
                per_system[outcome.system_sentence] += _gold_diff(
                    golds[outcome.gold_sentence], outcome.gold_word,
                    systems[outcome.system_sentence], outcome.system_word, outcome.mask)
        for k, problems in zip(unit.system, per_system):
            self.system[k].pair_problems = problems
        unit.problems = per_system


# --------------------------------------------------------------------------
# Where problems against gold go
# --------------------------------------------------------------------------


def locate_character(sentence: Sentence, offset: int) -> tuple[int, int, int]:
    """Line and column span of the character at ``offset`` of the sentence's
    characters (its token forms without spaces, end to end)."""
    done = 0
    tokens = sentence.token_forms()
    for form, first, end, is_mwt in tokens:
        if offset < done + len(form) or (form, first, end, is_mwt) == tokens[-1]:
            if is_mwt:
                mwt = next(m for m in sentence.mwts if m.first == first)
                line = mwt.line
                raw = mwt.form
            else:
                line = sentence.word_line[first]
                raw = sentence.form[first]
            text = sentence.lines[line]
            start, _ = cell_span(text, FORM)
            # Walk the raw form to the wanted character, skipping spaces.
            wanted = max(0, offset - done)
            seen = 0
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
        message = (f"the text differs from gold here: '{mismatch.system_text}' where gold has "
                   f"'{mismatch.gold_text}'")
    return Problem("text-mismatch", message + " (the official scorer refuses the pair)",
                   line, start, end, Severity.ERROR, refuses=True)


def _token_spans(sentences: list[Sentence]) -> list[tuple[int, int, int, int, str]]:
    """(start, end, sentence, first word, form) of every token, on the chunk's running text."""
    out = []
    offset = 0
    for k, sentence in enumerate(sentences):
        for form, first, _end, _mwt in sentence.token_forms():
            out.append((offset, offset + len(form), k, first, form))
            offset += len(form)
    return out


def _segmentation_mismatch(systems: list[Sentence], golds: list[Sentence], k: int, i: int) -> Problem:
    sentence = systems[k]
    system_tokens = _token_spans(systems)
    gold_tokens = _token_spans(golds)
    # The system token holding word i of sentence k.
    span = next(((s, e) for s, e, sk, first, _ in system_tokens
                 if sk == k and first <= i and (first == i or any(m.first == first and i < m.end
                                                                  for m in sentence.mwts))),
                (0, 0))
    gold_here = [form for s, e, _, _, form in gold_tokens if s < span[1] and e > span[0]]
    line = sentence.word_line[i]
    text = sentence.lines[line]
    start, end = cell_span(text, FORM)
    in_mwt = next((m for m in sentence.mwts if m.first <= i < m.end), None)
    what = f"word '{sentence.form[i]}'" + (f" of '{in_mwt.form}'" if in_mwt else "")
    gold_text = " + ".join(f"'{g}'" for g in gold_here) if gold_here else "nothing"
    return Problem("segmentation-mismatch", f"{what} is not aligned with a gold word; gold has "
                   f"{gold_text} here", line, start, end, Severity.WARNING)


def _gold_diff(gold: Sentence, gi: int, system: Sentence, si: int, mask: int) -> list[Problem]:
    out = []
    line = system.word_line[si]
    text = system.lines[line]
    gold_columns = gold.columns(gi)
    for name, bit, column in GOLD_DIFF_CELLS:
        if mask & bit:
            continue
        value = gold_columns[column]
        if name == "HEAD" and gold.heads[gi]:
            head = gold.heads[gi]
            value = f"{value} ({gold.form[head - 1]})" if head and head <= len(gold.form) else value
        start, end = cell_span(text, column)
        out.append(Problem("gold-diff", f"{name}: gold has '{value}'", line, start, end, Severity.HINT))
    return out
