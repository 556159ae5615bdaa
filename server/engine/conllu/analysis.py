"""What one CoNLL-U sentence shows without gold, kept per text segment.

`SentenceInfo` holds what a sentence shows without gold — format problems,
refused trees, unparsed, the number of low-confidence cells — and what the
pairing needs to know of it (sent_id, characters, tokens).  It is computed
once per text segment (see `server.textstore`) and kept on the segment: an
edit replaces only the segments it touched.  Kept small: low-confidence
cells are counted here and turned into diagnostics only when shown.

Plain sentences (one per block, well formed, a tree: nearly all of a
parser's output) are judged from their columns in bulk
(`scorer.conllu.bulk.read_plain`) without being parsed; the others are
parsed (`analyze_segment`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from annoscore.scorer.conllu.bulk import PlainSentence, read_plain
from annoscore.scorer.conllu.checks import tree_problems
from annoscore.scorer.conllu.confidence import count_low, count_low_many, low_cells
from annoscore.scorer.conllu.blocks import lone_cr_problems
from annoscore.scorer.conllu.parse import holds_one_sentence, parse_blocks
from annoscore.scorer.conllu.sentence import Sentence
from annoscore.scorer.problems import Problem

from ...textstore import Segment
from .messages import low_confidence_problem, low_confidence_word_problem

NONE: tuple = ()  # shared empty lists, so that clean sentences cost nothing
# Segments analysed together in bulk: few enough that their text and
# columns stay within a core's cache.
BULK_BATCH = 64
# Plain sentences whose columns a whole pass keeps until they are counted
# (see GoldSource.keep); past this, they are read again when counted.
KEEP_LIMIT = 8192


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
    # The same at absolute lines, ready to show (see handler._low_listing).
    low_listed: tuple | None = None
    # ``pair_problems`` at absolute lines, once shown: (the problems they
    # were made of, the first line, the problems) (see handler.diagnostics).
    pairs_placed: tuple | None = None

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
                        problems.append(low_confidence_problem(cell, lines[cell[0]], threshold))
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
