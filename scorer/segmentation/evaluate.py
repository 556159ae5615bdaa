"""Scoring a whole segmentation file against gold.

1. Both files are read as lines (`scorer.lines`).
2. Lines are paired (`pairing`): by position when the files have the same
   number of lines, else by text when that works, else not at all (the
   result then carries ``pairing_error`` and no scores).
3. Each pair is counted (`score.count_words`, or `score.count_identical`
   when the predicted line is exactly gold's) and the counts are summed.
   A gold line without tokens is no sentence and is skipped.  A pair whose
   texts differ is left out of the scores and listed with where the texts
   part.  With text pairing, a gold line no predicted line went with counts
   against recall and is listed.
4. Optionally, one outcome per scored gold word, in gold order, for
   ``--save-errors``: '1' found, '0' missed, '-' on a line left out.

The per-line results of `score.score_line` add up to exactly these totals.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from operator import add
from typing import Sequence

from ..gcpause import gc_paused
from ..lines import read_lines
from ..excerpt import quoted
from ..problems import Problem
from .counts import SegmentationCounts
from .pairing import POSITION, LinePairs, count_lines, pair_by_text
from .score import (
    SNIPPET, TextMismatch, count_identical, count_words, find_mismatch, missing_counts,
    scored_word_count,
)
from .tokens import SegmentationOptions, LineWords, has_tokens, parse_line, split_words

OUTCOME_METRICS = ("Word", "TaggedWord")
LISTED_TAGS = 10  # unknown tags kept per file for the report (all are counted)


@dataclass(frozen=True, slots=True)
class MismatchedLine:
    line: int        # the predicted line, 0-based
    gold_line: int   # its gold partner, 0-based
    mismatch: TextMismatch


@dataclass
class TagProblems:
    """Tags read as X that did not say X: how many, and the first few."""

    count: int = 0
    first: list[Problem] = field(default_factory=list)

    def add(self, line: int, problems: list[Problem]) -> None:
        self.count += len(problems)
        for p in problems[:max(0, LISTED_TAGS - len(self.first))]:
            self.first.append(p.shifted(line))


@dataclass
class SegmentationResult:
    options: SegmentationOptions
    counts: SegmentationCounts = field(default_factory=SegmentationCounts)
    gold_lines: int = 0       # lines in the gold file (trailing lines without tokens not counted)
    system_lines: int = 0     # the same for the prediction
    gold_sentences: int = 0   # gold lines with tokens
    paired_by: str = POSITION
    mismatched: list[MismatchedLine] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)   # gold lines without a predicted line
    pairing_error: Problem | None = None  # on a line of the prediction; then nothing is scored
    gold_tags: TagProblems = field(default_factory=TagProblems)
    system_tags: TagProblems = field(default_factory=TagProblems)
    gold_file_problems: list[Problem] = field(default_factory=list)
    system_file_problems: list[Problem] = field(default_factory=list)
    outcome_metric: str | None = None
    outcomes: str | None = None  # per scored gold word: '1', '0', '-'


class _Evaluator:
    def __init__(self, options: SegmentationOptions, outcome_metric: str | None) -> None:
        if outcome_metric not in (None,) + OUTCOME_METRICS:
            raise ValueError(f"no per-word outcomes for {outcome_metric}")
        if outcome_metric == "TaggedWord" and not options.pos:
            raise ValueError("TaggedWord outcomes need --pos")
        self.options = options
        self.result = SegmentationResult(options, outcome_metric=outcome_metric)
        self.totals = [0] * 9
        self.sentences = 0
        self.outcomes: list[str] | None = [] if outcome_metric else None
        self.tagged_outcomes = outcome_metric == "TaggedWord"

    def pair(self, gold_index: int, system_index: int | None, gold_line: str, system_line: str | None,
             gold: LineWords, system: LineWords | None) -> None:
        options, outcomes = self.options, self.outcomes
        gold_words, gold_tags = gold.words, gold.tags
        system_words, system_tags = (None, None) if system is None else (system.words, system.tags)
        if gold.unknown_tags:
            self.result.gold_tags.add(gold_index, parse_line(gold_line, options).problems())
        if system is not None and system.unknown_tags and system_index is not None:
            assert system_line is not None
            self.result.system_tags.add(system_index, parse_line(system_line, options).problems())
        if not gold_words:  # no sentence; predicted text beside it is extra text
            if system_words and "".join(system_words) and system_index is not None and system_line is not None:
                self._mismatch(gold_index, system_index, gold_line, system_line)
            return
        if system_line is None or system_words is None or system_index is None:
            raw = missing_counts(gold_words, gold_tags)
            self.result.missing.append(gold_index)
            if outcomes is not None:
                outcomes.append("0" * scored_word_count(gold_words))
        elif gold_line == system_line:
            raw = count_identical(gold_words, gold_tags, outcomes, self.tagged_outcomes)
        elif "".join(gold_words) != "".join(system_words):
            self._mismatch(gold_index, system_index, gold_line, system_line)
            if outcomes is not None:
                outcomes.append("-" * scored_word_count(gold_words))
            return
        else:
            raw = count_words(gold_words, gold_tags, system_words, system_tags, outcomes,
                              self.tagged_outcomes)
        self.totals = list(map(add, self.totals, raw))
        self.sentences += 1

    def _mismatch(self, gold_index: int, system_index: int, gold_line: str, system_line: str) -> None:
        gold = parse_line(gold_line, self.options)
        system = parse_line(system_line, self.options)
        mismatch = find_mismatch(system, gold)
        if mismatch is None or not gold.words:  # a gold line without tokens
            mismatch = TextMismatch(0, system.word_columns[0][0] if system.word_columns else 0,
                                    system.text[:SNIPPET], "")
        self.result.mismatched.append(MismatchedLine(system_index, gold_index, mismatch))

    def finish(self) -> SegmentationResult:
        result = self.result
        result.counts = SegmentationCounts(self.sentences, *self.totals,
                                           mismatched=len(result.mismatched))
        if self.outcomes is not None:
            result.outcomes = "".join(self.outcomes)
        return result


def evaluate_lines(gold_lines: Sequence[str], system_lines: Sequence[str],
                   options: SegmentationOptions | None = None,
                   outcome_metric: str | None = None) -> SegmentationResult:
    """Score predicted lines against gold lines (see the module docstring)."""
    options = options or SegmentationOptions()
    evaluator = _Evaluator(options, outcome_metric)
    result = evaluator.result

    def tokens(line: str) -> bool:
        return has_tokens(line, options)

    n_gold = count_lines(gold_lines, tokens)
    n_system = count_lines(system_lines, tokens)
    result.gold_lines, result.system_lines = n_gold, n_system

    if n_gold == n_system:
        for i in range(n_gold):
            gold_line, system_line = gold_lines[i], system_lines[i]
            gold = split_words(gold_line, options)
            if gold.words:
                result.gold_sentences += 1
            system = gold if gold_line == system_line else split_words(system_line, options)
            evaluator.pair(i, i, gold_line, system_line, gold, system)
        return evaluator.finish()

    gold_split = [split_words(line, options) for line in gold_lines[:n_gold]]
    system_split = [split_words(line, options) for line in system_lines[:n_system]]
    result.gold_sentences = sum(1 for split in gold_split if split.words)
    pairing = pair_by_text([("".join(s.words) if s.words else None) for s in gold_split],
                           [("".join(s.words) if s.words else None) for s in system_split])
    result.paired_by = pairing.by
    if pairing.unpaired is not None:
        result.pairing_error = _pairing_error(pairing, n_gold, n_system, system_split)
        return result
    for i, j in pairing.pairs:
        if j is None:
            evaluator.pair(i, None, gold_lines[i], None, gold_split[i], None)
        else:
            evaluator.pair(i, j, gold_lines[i], system_lines[j], gold_split[i], system_split[j])
    return evaluator.finish()


def _pairing_error(pairing: LinePairs, n_gold: int, n_system: int, system_split) -> Problem:
    j = pairing.unpaired
    assert j is not None
    text = "".join(system_split[j].words)
    where = "" if pairing.after_gold is None else f" after gold line {pairing.after_gold + 1}"
    return Problem("line-count",
                   f"the prediction has {n_system} lines and gold has {n_gold}, so lines cannot be "
                   f"paired by position; nor by their text: this line ({quoted(text, SNIPPET)}) rebuilds no "
                   f"gold line{where}", j, 0, 0)


def evaluate_files(system_path: str | os.PathLike[str], gold_path: str | os.PathLike[str],
                   options: SegmentationOptions | None = None,
                   outcome_metric: str | None = None) -> SegmentationResult:
    """Score a prediction file against a gold file.  Raises OSError only when
    a file cannot be read at all; undecodable bytes are reported as problems."""
    with gc_paused():
        gold = read_lines(gold_path)
        system = read_lines(system_path)
        result = evaluate_lines(gold.lines, system.lines, options, outcome_metric)
    result.gold_file_problems = gold.problems
    result.system_file_problems = system.problems
    return result
