"""What one place of a CoNLL-U document holds: for hover, quick fixes and tree navigation.

A token line has ten columns, and in an editor it is hard to tell which one
the cursor is in, what a HEAD number points to, how sure the parser was, and
what gold says.  `describe` answers that for one position, from the
document's current text and the engine's current pairing:

- the column is found by counting the TABs before the position;
- the sentence holding the line is parsed again from its segment (one
  sentence: cheap), which gives the word, its head word and its ``Conf=``;
- gold, when the document is paired with a gold file: the pairing's unit
  holding the sentence (see `conllu.score.IncrementalScore`) is aligned word by word exactly
  as it is counted (`score_chunk` with details), which says which gold word,
  if any, this word is aligned with.  Only when the pairing is up to date
  with the text (the sentence's analysis is the one the pairing was made
  from): between an edit and its rescoring there is no gold to show.

On a comment line the sentence itself is described: its words, the gold
sentences it was counted with, and its attachment scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from annoscore.scorer.conllu.checks import tree_problems
from annoscore.scorer.conllu.confidence import CONF_COLUMNS, word_confidences
from annoscore.scorer.conllu.pairing import PAIRED
from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.parse import parse_blocks
from annoscore.scorer.conllu.score import HEAD_OK, LAS_OK, score_chunk
from annoscore.scorer.conllu.sentence import COLUMN_NAMES, FORM, HEAD, Sentence

from ..textstore import TextStore
from .conllu.handler import results_of


@dataclass
class GoldWord:
    """The gold word a predicted word is aligned with."""

    sentence: Sentence
    word: int                 # 0-based, in ``sentence``
    # Gold's HEAD as it would read in the predicted sentence's numbering
    # (None when gold's head word is aligned with no word of that sentence).
    head_here: str | None

    def value(self, column: int) -> str:
        """Gold's value for a column, as it would be written in the
        predicted sentence (HEAD renumbered; None-safe: see `head_here`)."""
        if column == HEAD:
            return self.head_here if self.head_here is not None else self.sentence.head[self.word]
        return self.sentence.columns(self.word)[column]


@dataclass
class Cell:
    """One cell of a token line (columns and words count from 0)."""

    line: int
    start: int
    end: int
    column: int
    value: str
    sentence: Sentence
    word: int | None              # None on a multiword-token range or an empty node
    confidence: float | None      # the parser's, for this cell (MISC Conf=)
    has_gold: bool                # the document is paired with gold, and up to date
    gold: GoldWord | None         # None: no gold word is aligned with this word
    first_line: int = 0           # the sentence's first line in the document

    @property
    def name(self) -> str:
        return COLUMN_NAMES[self.column]

    def word_cell(self, word: int, column: int) -> tuple[int, int, int]:
        """(line, start, end) of a cell of another word of the sentence."""
        relative = self.sentence.word_line[word]
        start, end = cell_span(self.sentence.lines[relative], column)
        return self.first_line + relative, start, end

    def head_word(self) -> tuple[int, int, int] | None:
        """The FORM of the word this cell's word depends on (None for the
        root, a HEAD that is not a number, or one past the sentence)."""
        if self.word is None:
            return None
        head = self.sentence.heads[self.word]
        if not head or head > len(self.sentence.form):
            return None
        return self.word_cell(head - 1, FORM)

    def dependents(self) -> list[tuple[int, int, int]]:
        """The HEAD cells of the words that depend on this cell's word."""
        if self.word is None:
            return []
        return [self.word_cell(i, HEAD) for i, head in enumerate(self.sentence.heads) if head == self.word + 1]


@dataclass
class SentenceSummary:
    """A sentence as a whole (the cursor is on one of its comment lines)."""

    sentence: Sentence
    gold_ids: list[str | None] | None  # the gold sentences it is counted with (None: no gold)
    together_with: int                 # other predicted sentences counted with it
    uas: tuple[int, int] | None        # (correct, gold words) of what it is counted with
    las: tuple[int, int] | None
    unparsed: bool = False
    refused_because: tuple[str, ...] = ()  # why the official scorer would refuse it (codes)


def describe(engine, key: str, line: int, column: int, with_gold: bool = True) -> Cell | SentenceSummary | None:
    """What is at (line, column) of a CoNLL-U document (code points), or
    None.  ``with_gold=False`` skips aligning with gold (for callers that
    only need the cell)."""
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        return None
    store = document.store
    if not store.segments:
        return None
    k = store.segment_at(line)
    segment = store.segments[k]
    block = segment.block
    if block is None:
        return None
    relative = line - segment.first_line
    found = sentence_at(parse_blocks(block, 0), relative)
    if found is None:
        return None
    index, sentence = found

    def gold() -> CountedUnit | None:  # (aligning costs a little: only when it is used)
        return counted_unit(engine, document, segment, index) if with_gold else None

    text = store.line(line)
    if text.startswith("#"):
        return _summary(sentence, gold())
    if "\t" not in text:
        return None
    at = text.count("\t", 0, min(column, len(text)))
    if at > 9:
        return None
    start, end = cell_span(text, at)
    word_line = relative - sentence.first_line
    word = next((i for i, w in enumerate(sentence.word_line) if w == word_line), None)
    confidence = None
    if word is not None and COLUMN_NAMES[at] in CONF_COLUMNS:
        confidences = word_confidences(sentence)[0][word]
        confidence = None if confidences is None else confidences.get(COLUMN_NAMES[at])
    counted = gold() if word is not None else None
    gold_word = counted.aligned(word) if counted is not None and word is not None else None
    return Cell(line, start, end, at, text[start:end], sentence, word, confidence,
                counted is not None, gold_word, segment.first_line + sentence.first_line)


def sentence_at(sentences: list[Sentence], relative: int) -> tuple[int, Sentence] | None:
    """The sentence of a block holding a line (relative to the block), with
    its index among the block's sentences."""
    for index, sentence in enumerate(sentences):
        if sentence.first_line <= relative < sentence.first_line + sentence.n_lines:
            return index, sentence
    return None


class CountedUnit:
    """The unit a predicted sentence is counted in, aligned word by word."""

    def __init__(self, golds: list[Sentence], systems: list[Sentence], position_in_unit: int,
                 gold_ids: list[str | None], gold_lines: list[int] | None = None) -> None:
        self.golds, self.systems, self.k = golds, systems, position_in_unit
        self.gold_ids = gold_ids
        # Where each gold sentence starts in the gold file.
        self.gold_lines = gold_lines or [0] * len(golds)
        self.scored = score_chunk(golds, systems, details=True)
        self.system_words = self.scored.system_words()
        self.gold_words = {s: g for g, s in self.system_words.items()}

    def aligned(self, word: int) -> GoldWord | None:
        found = self.gold_words.get((self.k, word))
        if found is None:
            return None
        gk, gw = found
        return GoldWord(self.golds[gk], gw,
                        self.scored.head_in_system(self.golds[gk], gk, gw, self.k, self.system_words))


def counted_unit(engine, document, segment, index: int) -> CountedUnit | None:
    """The unit the sentence is counted in, when the score is up to date
    with it (the sentence's analysis is the one the score was made from)."""
    score = results_of(document).score
    analysis = segment.analysis
    if score is None or analysis is None or index >= len(analysis[1]):
        return None
    info = analysis[1][index]
    position = info.position
    if not (0 <= position < len(score.system)) or score.system[position] is not info:
        return None
    u = score.unit_of[position] if position < len(score.unit_of) else -1
    if u < 0:
        return None
    unit = score.units[u]
    if unit.kind != PAIRED:
        return None
    golds = [score.gold[g].parse() for g in unit.gold]
    systems = [score.system[s].parse() for s in unit.system]
    return CountedUnit(golds, systems, unit.system.index(position),
                       [score.gold[g].sent_id for g in unit.gold], [score.gold[g].first_line for g in unit.gold])


def _summary(sentence: Sentence, counted: CountedUnit | None) -> SentenceSummary:
    refusing = [p.code for p in sentence.problems + tree_problems(sentence) if p.refuses]
    reasons = tuple(dict.fromkeys(refusing))  # each code once, in order
    if counted is None:
        return SentenceSummary(sentence, None, 0, None, None, sentence.is_unparsed, reasons)
    outcomes = counted.scored.outcomes or []
    uas = sum(1 for o in outcomes if o.mask & HEAD_OK)
    las = sum(1 for o in outcomes if o.mask & LAS_OK)
    return SentenceSummary(sentence, counted.gold_ids, len(counted.systems) - 1,
                           (uas, len(outcomes)), (las, len(outcomes)), sentence.is_unparsed, reasons)
