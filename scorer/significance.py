"""Is the difference between two systems real?  Paired tests, sentences as the unit.

Both systems are scored against the same gold file with per-unit counts kept
(`ConlluOptions.units`).  A *unit* is what the evaluator counts in one go:
usually one gold sentence with the system sentence paired with it, but a
chunk whose alignment runs on, or sentences a system merged, make one unit of
several gold sentences.  The two systems' units are lined up on gold
(`pair_units`): gold sentences that either system counted together are one
unit for both, so every unit is the same stretch of gold on both sides.

Every test computes the F1 of a metric from **summed counts** (correct, gold,
system) over the units of a sample, as the official scorer computes it over
a file, never by averaging sentence scores.

- **Paired bootstrap** (Koehn 2004): draw n units with replacement (the same
  units for both systems), sum each system's counts, take the difference of
  the two F1s; repeat.  The 2.5th and 97.5th percentiles of those
  differences (numpy's linear interpolation) are the 95% interval of the
  difference.  The p-value asks how often a difference at least as large as
  the one observed shows up when the bootstrap differences are centred on 0
  (the null hypothesis), as sacrebleu and MultEval do:
  p = (1 + #{|d* − mean(d*)| ≥ |d|}) / (1 + samples).
- **Approximate randomization** (Noreen 1989; Riezler and Maxwell 2005): if
  the systems were alike, swapping the two systems' counts within any unit
  would not matter.  Each sample swaps each unit with probability 1/2;
  p = (1 + #{|d*| ≥ |d|}) / (1 + samples).

Over several treebanks the statistic is the difference of the
macro-averages (the mean over treebanks of each treebank's F1), and units
are resampled (or swapped) within each treebank, never across.

Random numbers: treebank t draws from ``numpy.random.default_rng([seed, t])``,
one sample after another (bootstrap: ``integers(0, n, size=n)`` per sample;
randomization: ``random(n) < 0.5``).  Samples are computed in blocks of
rows drawn at once, which numpy makes the same draws as one row at a time;
so the same seed gives the same numbers, whatever the block size.

Vectorized: a block of bootstrap samples becomes a matrix of how often each
unit was drawn (``bincount``), and the sums of all samples at once are one
matrix product with the units' count columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .conllu.counts import N_VALUES, metric_columns
from .conllu.evaluate import Unit

DEFAULT_SAMPLES = 10_000
DEFAULT_SEED = 12345
# Draws per block (samples x units): about 16 MB of int64 at a time.
BLOCK_DRAWS = 2_000_000
# Differences closer than this count as equal (F1s from integers).
TIE = 1e-12


@dataclass
class PairedUnits:
    """One treebank's units, lined up on gold: row i of ``a`` and of ``b``
    are the two systems' counts (`Counts.values`) on the same gold
    sentences."""

    name: str
    a: np.ndarray  # units x N_VALUES, int64
    b: np.ndarray

    @property
    def size(self) -> int:
        return len(self.a)


def pair_units(units_a: Sequence[Unit], units_b: Sequence[Unit], name: str = "") -> PairedUnits:
    """Line up two systems' units on gold.

    Gold sentences that either system counted in one unit are joined (a
    union-find over gold sentence indices), so each joined unit is the same
    gold for both.  A unit with no gold sentence (system sentences that no
    gold text matched) belongs with the unit counted before it in that
    system's file, or the one after when it comes first.  Units with all
    counts 0 on both sides (gold left out of both, as with
    --predicted-only) are dropped: they are not part of what is scored.
    """
    parent: dict[int, int] = {}

    def find(k: int) -> int:
        root = k
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[k] != root:  # path halving keeps later finds short
            parent[k], k = root, parent[k]
        return root

    def anchors(units: Sequence[Unit]) -> list[int]:
        """The gold sentence each unit is filed under."""
        out: list[int] = []
        last = None
        pending = 0  # gold-less units before the first one with gold
        for unit in units:
            if unit.gold:
                first = unit.gold[0]
                for k in unit.gold[1:]:
                    parent[find(k)] = find(first)
                find(first)
                if last is None:
                    out[:pending] = [first] * pending
                last = first
                out.append(first)
            elif last is None:
                pending += 1
                out.append(-1)
            else:
                out.append(last)
        return out

    anchors_a, anchors_b = anchors(units_a), anchors(units_b)
    # The joined units, in the order of their smallest gold sentence.
    smallest: dict[int, int] = {}
    for k in list(parent):
        r = find(k)
        smallest[r] = min(smallest.get(r, k), k)
    roots = sorted(smallest, key=smallest.__getitem__)
    row = {r: i for i, r in enumerate(roots)}
    extra = len(roots)  # a row for a file with no gold-holding unit at all
    a = np.zeros((extra + 1, N_VALUES), dtype=np.int64)
    b = np.zeros((extra + 1, N_VALUES), dtype=np.int64)
    for units, anchor, table in ((units_a, anchors_a, a), (units_b, anchors_b, b)):
        for unit, k in zip(units, anchor):
            table[row[find(k)] if k >= 0 else extra] += unit.counts.values
    keep = (a != 0).any(axis=1) | (b != 0).any(axis=1)
    return PairedUnits(name, a[keep], b[keep])


def f1(correct: np.ndarray, gold: np.ndarray, system: np.ndarray) -> np.ndarray:
    """2 * correct / (gold + system), 0 where there is nothing (the official rule)."""
    total = gold + system
    return np.divide(2.0 * correct, total, out=np.zeros(np.shape(total), dtype=float), where=total != 0)


def _metric_f1(sums: np.ndarray, columns: tuple[int, int, int]) -> np.ndarray:
    c, g, s = columns
    return f1(sums[..., c], sums[..., g], sums[..., s])


@dataclass
class TestResult:
    """One metric's test: both systems' figures on the data (macro-averaged
    over treebanks when there are several) and what the test says."""

    test: str
    metric: str
    a: float
    b: float
    samples: int
    seed: int
    p_value: float
    ci95: tuple[float, float] | None = None  # bootstrap: the difference's interval
    per_treebank: list[tuple[str, float, float]] = field(default_factory=list)

    @property
    def difference(self) -> float:
        return self.a - self.b

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p_value < alpha


def _observed_means(treebanks: Sequence[PairedUnits],
                    metric: str) -> tuple[list[tuple[str, float, float]], float, float]:
    """Each treebank's (name, F1 of A, F1 of B) for ``metric``, and A's and
    B's macro-averages over the treebanks."""
    columns = metric_columns(metric)
    per_tb = [(tb.name, float(_metric_f1(tb.a.sum(axis=0), columns)), float(_metric_f1(tb.b.sum(axis=0), columns)))
              for tb in treebanks]
    return per_tb, sum(x for _, x, _ in per_tb) / len(per_tb), sum(y for _, _, y in per_tb) / len(per_tb)


def _blocks(samples: int, n: int):
    """(first sample, rows) of each block."""
    rows = max(1, BLOCK_DRAWS // max(1, n))
    for start in range(0, samples, rows):
        yield start, min(rows, samples - start)


def _columns_of(metrics: Sequence[str]) -> tuple[list[int], dict[str, tuple[int, int, int]]]:
    """The count columns the metrics need, and each metric's place among them."""
    needed: list[int] = []
    places: dict[str, tuple[int, int, int]] = {}
    for metric in metrics:
        triple = []
        for column in metric_columns(metric):
            if column not in needed:
                needed.append(column)
            triple.append(needed.index(column))
        places[metric] = tuple(triple)  # type: ignore[assignment]
    return needed, places


def _check(treebanks: Sequence[PairedUnits], samples: int) -> None:
    if not treebanks:
        raise ValueError("no treebank to test")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")


def paired_bootstrap(treebanks: Sequence[PairedUnits], metrics: Sequence[str],
                     samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> dict[str, TestResult]:
    """The paired bootstrap test of each metric (see the module docstring)."""
    _check(treebanks, samples)
    needed, places = _columns_of(metrics)
    # Per treebank and metric, the F1 difference of every sample.
    differences = {m: np.zeros(samples) for m in metrics}
    for t, tb in enumerate(treebanks):
        rng = np.random.default_rng([seed, t])
        n = tb.size
        xa = tb.a[:, needed].astype(np.float64)  # exact: counts stay far below 2**53
        xb = tb.b[:, needed].astype(np.float64)
        both, width = np.hstack([xa, xb]), len(needed)
        for start, rows in _blocks(samples, n):
            if n:
                drawn = rng.integers(0, n, size=(rows, n))
                offsets = (np.arange(rows, dtype=np.int64) * n)[:, None]
                weights = np.bincount((drawn + offsets).ravel(), minlength=rows * n).reshape(rows, n)
                sums = weights.astype(np.float64) @ both  # one product for both systems
                sums_a, sums_b = sums[:, :width], sums[:, width:]
            else:
                sums_a = sums_b = np.zeros((rows, len(needed)))
            for metric in metrics:
                d = _metric_f1(sums_a, places[metric]) - _metric_f1(sums_b, places[metric])
                differences[metric][start:start + rows] += d / len(treebanks)
    out = {}
    for metric in metrics:
        per_tb, a, b = _observed_means(treebanks, metric)
        d = differences[metric]
        centred = np.abs(d - d.mean())
        p = (1 + int((centred >= abs(a - b) - TIE).sum())) / (1 + samples)
        low, high = np.percentile(d, [2.5, 97.5])
        out[metric] = TestResult("bootstrap", metric, a, b, samples, seed, p,
                                 (float(low), float(high)), per_tb)
    return out


def approximate_randomization(treebanks: Sequence[PairedUnits], metrics: Sequence[str],
                              samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> dict[str, TestResult]:
    """The paired approximate randomization test of each metric (see the
    module docstring)."""
    _check(treebanks, samples)
    needed, places = _columns_of(metrics)
    differences = {m: np.zeros(samples) for m in metrics}
    for t, tb in enumerate(treebanks):
        rng = np.random.default_rng([seed, t])
        n = tb.size
        xa = tb.a[:, needed].astype(np.float64)
        xb = tb.b[:, needed].astype(np.float64)
        total_a, total_b, change = xa.sum(axis=0), xb.sum(axis=0), xb - xa
        for start, rows in _blocks(samples, n):
            swapped = (rng.random((rows, n)) < 0.5).astype(np.float64)
            moved = swapped @ change  # what A gains (and B loses) by the swaps
            sums_a, sums_b = total_a + moved, total_b - moved
            for metric in metrics:
                d = _metric_f1(sums_a, places[metric]) - _metric_f1(sums_b, places[metric])
                differences[metric][start:start + rows] += d / len(treebanks)
    out = {}
    for metric in metrics:
        per_tb, a, b = _observed_means(treebanks, metric)
        extreme = int((np.abs(differences[metric]) >= abs(a - b) - TIE).sum())
        out[metric] = TestResult("permutation", metric, a, b, samples, seed, (1 + extreme) / (1 + samples),
                                 None, per_tb)
    return out
