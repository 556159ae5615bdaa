"""Honest uncertainty: Wilson intervals, McNemar's exact test, calibration tables."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and
    n successes.  None when there are no trials.
    """
    if trials <= 0:
        return None
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, center - half), min(1.0, center + half)


def mcnemar_exact(only_a_wrong: int, only_b_wrong: int) -> float:
    """Two-sided p-value of McNemar's exact test.

    Only the items where the systems disagree matter.  If neither is better,
    each disagreement goes either way with probability 1/2, so the count b of
    "only A wrong" follows Binomial(b + c, 0.5); the p-value is the chance of
    a split at least as lopsided as the one seen, on either side.  Computed
    with exact integers.
    """
    n = only_a_wrong + only_b_wrong
    if n == 0:
        return 1.0
    k = min(only_a_wrong, only_b_wrong)
    if n > EXACT_MCNEMAR_LIMIT:
        return _mcnemar_large(n, k)
    # C(n, i + 1) = C(n, i) * (n - i) / (i + 1), exactly: one small product per
    # term instead of a fresh math.comb (which made 20,000 disagreements take a minute).
    term = tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        tail += term
    # 2 * tail / 2**n, capped at 1 (when b == c the two tails overlap).
    return min(1.0, tail / (1 << (n - 1)))


# Above this many disagreements the exact sum gets slow (its integers have n
# bits), and the float sum below agrees with it to a few 1e-11 (relative) at this size.
EXACT_MCNEMAR_LIMIT = 20_000


def _mcnemar_large(n: int, k: int) -> float:
    """The same p-value in floating point: P(X = k) from log-gamma, times the
    sum of P(X = i) / P(X = k) for i = k, k-1, ... until the terms vanish."""
    log_pmf = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    term = total = 1.0
    for i in range(k, 0, -1):
        term *= i / (n - i + 1)
        total += term
        if term < 1e-17 * total:
            break
    return min(1.0, 2 * math.exp(log_pmf) * total)


# --------------------------------------------------------------------------
# Calibration
# --------------------------------------------------------------------------

DEFAULT_BINS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)


@dataclass(slots=True)
class BinStats:
    cells: int = 0
    correct: int = 0
    confidence_sum: float = 0.0

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.cells if self.cells else None

    @property
    def mean_confidence(self) -> float | None:
        return self.confidence_sum / self.cells if self.cells else None


@dataclass
class CalibrationTable:
    """Cell accuracy by confidence bin, pooled and per column.

    Bins are half-open [low, high), the last one closed [0.95, 1.0].  The
    expected calibration error is the cell-weighted mean of
    |accuracy - mean confidence| over the bins.
    """

    edges: tuple[float, ...] = DEFAULT_BINS
    columns: dict[str, list[BinStats]] = field(default_factory=dict)

    def _bin(self, confidence: float) -> int:
        for i in range(len(self.edges) - 2, -1, -1):
            if confidence >= self.edges[i]:
                return i
        return 0

    def add(self, column: str, confidence: float, correct: bool) -> None:
        bins = self.columns.get(column)
        if bins is None:
            bins = self.columns[column] = [BinStats() for _ in range(len(self.edges) - 1)]
        b = bins[self._bin(confidence)]
        b.cells += 1
        b.correct += correct
        b.confidence_sum += confidence

    def merge(self, other: "CalibrationTable") -> None:
        for column, bins in other.columns.items():
            mine = self.columns.get(column)
            if mine is None:
                mine = self.columns[column] = [BinStats() for _ in range(len(self.edges) - 1)]
            for a, b in zip(mine, bins):
                a.cells += b.cells
                a.correct += b.correct
                a.confidence_sum += b.confidence_sum

    def pooled(self) -> list[BinStats]:
        out = [BinStats() for _ in range(len(self.edges) - 1)]
        for bins in self.columns.values():
            for a, b in zip(out, bins):
                a.cells += b.cells
                a.correct += b.correct
                a.confidence_sum += b.confidence_sum
        return out

    @staticmethod
    def expected_calibration_error(bins: list[BinStats]) -> float | None:
        total = sum(b.cells for b in bins)
        if not total:
            return None
        return sum(b.cells / total * abs(b.correct / b.cells - b.confidence_sum / b.cells)
                   for b in bins if b.cells)

    def bin_labels(self) -> list[str]:
        labels = []
        for i in range(len(self.edges) - 1):
            close = "]" if i == len(self.edges) - 2 else ")"
            labels.append(f"[{self.edges[i]:.2f}, {self.edges[i + 1]:.2f}{close}")
        return labels


@dataclass(slots=True)
class ThresholdReport:
    """Cells below a confidence threshold, and how often they are right.

    ``below`` cells are the ones to check by hand; ``errors_below`` of the
    ``errors_total`` wrong cells are among them.
    """

    threshold: float
    below: int = 0
    below_correct: int = 0
    above: int = 0
    above_correct: int = 0

    def add(self, confidence: float, correct: bool) -> None:
        if confidence < self.threshold:
            self.below += 1
            self.below_correct += correct
        else:
            self.above += 1
            self.above_correct += correct

    def merge(self, other: "ThresholdReport") -> None:
        self.below += other.below
        self.below_correct += other.below_correct
        self.above += other.above
        self.above_correct += other.above_correct

    @property
    def errors_below(self) -> int:
        return self.below - self.below_correct

    @property
    def errors_total(self) -> int:
        return self.below + self.above - self.below_correct - self.above_correct
