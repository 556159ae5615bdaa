"""The raw counts behind the segmentation metrics; they add up over lines.

For each metric three numbers, summed over the corpus as litsea does
(micro-averaging): how many are correct, how many gold has, how many the
prediction has.  Besides those, how many lines were scored (``sentences``)
and how many were left out because their text is not gold's
(``mismatched``).  Adding and subtracting counts is exact, which is what lets
an editor keep file totals as "cached sum - old line + new line".
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..measures import PrecisionRecallF1

METRICS = ("Word", "Boundary", "TaggedWord")


@dataclass(slots=True)
class SegmentationCounts:
    sentences: int = 0
    word_correct: int = 0
    word_gold: int = 0
    word_system: int = 0
    boundary_correct: int = 0
    boundary_gold: int = 0
    boundary_system: int = 0
    tagged_correct: int = 0
    tagged_gold: int = 0
    tagged_system: int = 0
    mismatched: int = 0

    def as_tuple(self) -> tuple[int, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    def __add__(self, other: "SegmentationCounts") -> "SegmentationCounts":
        return SegmentationCounts(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def __sub__(self, other: "SegmentationCounts") -> "SegmentationCounts":
        return SegmentationCounts(*(a - b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def score(self, metric: str) -> PrecisionRecallF1:
        if metric == "Word":
            return PrecisionRecallF1(self.word_correct, self.word_gold, self.word_system)
        if metric == "Boundary":
            return PrecisionRecallF1(self.boundary_correct, self.boundary_gold, self.boundary_system)
        if metric == "TaggedWord":
            return PrecisionRecallF1(self.tagged_correct, self.tagged_gold, self.tagged_system)
        raise KeyError(metric)
