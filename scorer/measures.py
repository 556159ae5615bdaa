"""Precision, recall and F1 from three counts, with their Wilson intervals.

Used by segmentation (word, boundary, tagged word) and labels (each class).
The arithmetic is litsea's: P = correct / system, R = correct / gold, each
0.0 when its denominator is 0, and F1 = 2PR / (P + R), 0.0 when P + R is 0.
(CoNLL-U has its own ``Score``, `scorer.conllu.counts`, which follows the official script.)
"""

from __future__ import annotations

from dataclasses import dataclass

from .stats import wilson_interval


def harmonic_f1(precision: float, recall: float) -> float:
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


@dataclass(frozen=True, slots=True)
class PrecisionRecallF1:
    correct: int
    gold_total: int
    system_total: int

    @property
    def precision(self) -> float:
        return self.correct / self.system_total if self.system_total else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold_total if self.gold_total else 0.0

    @property
    def f1(self) -> float:
        return harmonic_f1(self.precision, self.recall)

    @property
    def precision_ci95(self) -> tuple[float, float] | None:
        """95% Wilson interval of precision; None when nothing was predicted."""
        return wilson_interval(self.correct, self.system_total)

    @property
    def recall_ci95(self) -> tuple[float, float] | None:
        """95% Wilson interval of recall; None when gold has nothing."""
        return wilson_interval(self.correct, self.gold_total)
