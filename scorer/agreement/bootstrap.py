"""95% intervals by the bootstrap over sentences.

A resample draws as many units (sentences) as there are, with replacement;
``w_u`` is how often unit u was drawn.  Every coefficient is computed on the
resample exactly as on the data (`coefficients`, from the same kind of
`coefficients.Sums`), and the interval is the 2.5th and 97.5th percentiles
of the resampled values (numpy's linear interpolation, as
`scorer.significance` takes them).  Resamples where a coefficient is
undefined (a single category drawn, say) are left out of its interval and
counted.  Sentences are the unit because the words of a sentence are not
independent: one annotator's habit shows in many words of one sentence.

Random numbers: resamples come in blocks of 100; block b draws from
``numpy.random.default_rng([seed, b])``, ``integers(0, units, size=(rows,
units))``, one row per resample (numpy draws a few rows at a time as it
would draw them at once).  So the same seed gives the same resamples
however the work is cut, and blocks can be computed in several processes
(``annoscore agree --jobs``).

How the sums of a resample are made: a `tally.Tally` has, per unit, its
sums over items (``scalars``) and its category counts (entries of ``first``
and ``second``).  A resample's sums over items are ``w @ scalars`` (for a
block of resamples and every variable at once, one matrix product); its
category totals are ``w @ X`` with X the units x categories counts, which
are then squared and summed (sum_c t_c^2, sum_c a_c b_c).  Done naively,
X is huge (LEMMA has tens of thousands of categories), but most categories
occur in few units.  So the categories are split by how many units have
them:

- in one unit only: its totals are ``w_u x_uc``, so its squares are
  ``w_u^2 x_uc^2``: summed per unit beforehand, one product with ``w^2``;
- in many units (at least ``dense_units``): a dense column of X, all of
  them in one float32 matrix product (exact: every partial sum is an
  integer below 2^24, checked; float64 otherwise);
- the others: their entries' weights gathered (``w_u x_uc`` per entry) and
  summed per category (``np.add.reduceat``).

All three give the same totals as the naive product, integers in float64.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .coefficients import COEFFICIENTS, Sums
from .tally import COMPLETE, D, SQUARES, VALUES, Entries, Tally

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345
BLOCK_SAMPLES = 100            # resamples drawn with one generator (see `_weight_blocks`)
BLOCK_WEIGHTS = 4_000_000      # resamples x units at a time (32 MB of float64)
GATHER_ENTRIES = 2_000_000     # entries x resamples gathered at once
EXACT_FLOAT32 = 1 << 24        # integers below this are exact in float32


@dataclass
class Interval:
    low: float | None
    high: float | None
    undefined: int = 0   # resamples where the coefficient was undefined


@dataclass
class _Split:
    """One tally's categories, split as the module's docstring says."""

    dense: np.ndarray                    # category numbers with a dense column
    first_dense: np.ndarray              # units x len(dense) counts of ``first``
    second_dense: np.ndarray
    diagonal: np.ndarray                 # units x 3: sum over one-unit categories of x1^2, x2^2, x1 x2
    sparse_first: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # (units, counts, slot)
    sparse_second: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    slots: int = 0                       # sparse categories
    columns: tuple[int, int, int] = (0, 0, 0)  # where its dense columns start in the big matrix: first, second, end


def _split(t: Tally, units: int, dense_units: int) -> _Split:
    # How many units have each category (in either vector): the entries of
    # each vector are unique per (unit, category) and sorted by that key.
    key1 = t.first.category * units + t.first.unit
    key2 = t.second.category * units + t.second.unit
    spread = np.bincount(t.first.category, minlength=t.categories) + \
        np.bincount(t.second.category, minlength=t.categories)
    if len(key1) and len(key2):
        found = np.minimum(np.searchsorted(key2, key1), len(key2) - 1)
        shared = key2[found] == key1
        spread -= np.bincount(t.first.category[shared], minlength=t.categories)
    kind = np.where(spread >= dense_units, 2, np.where(spread == 1, 0, 1))  # 0 one unit, 1 sparse, 2 dense
    dense = np.nonzero(kind == 2)[0]
    place = np.full(t.categories, -1, dtype=np.int64)
    place[dense] = np.arange(len(dense))
    diagonal = np.zeros((units, 3), dtype=np.float64)
    # One-unit categories: x1^2, x2^2 and x1 x2 summed per unit.
    one1 = _in_kind(t.first, kind, 0)
    one2 = _in_kind(t.second, kind, 0)
    np.add.at(diagonal[:, 0], one1.unit, one1.count.astype(np.float64) ** 2)
    np.add.at(diagonal[:, 1], one2.unit, one2.count.astype(np.float64) ** 2)
    if len(one1.unit) and len(one2.unit):
        k1 = one1.category * units + one1.unit
        k2 = one2.category * units + one2.unit
        found = np.minimum(np.searchsorted(k2, k1), len(k2) - 1)
        shared = k2[found] == k1
        np.add.at(diagonal[:, 2], one1.unit[shared], one1.count[shared].astype(np.float64) * one2.count[found[shared]])

    def dense_matrix(entries: Entries) -> np.ndarray:
        matrix = np.zeros((units, len(dense)), dtype=np.float64)
        chosen = _in_kind(entries, kind, 2)
        matrix[chosen.unit, place[chosen.category]] = chosen.count
        return matrix

    out = _Split(dense, dense_matrix(t.first), dense_matrix(t.second), diagonal)
    sparse = np.nonzero(kind == 1)[0]
    if len(sparse):
        slot = np.full(t.categories, -1, dtype=np.int64)
        slot[sparse] = np.arange(len(sparse))
        out.slots = len(sparse)
        for name, entries in (("sparse_first", t.first), ("sparse_second", t.second)):
            chosen = _in_kind(entries, kind, 1)
            order = np.argsort(slot[chosen.category], kind="stable")
            setattr(out, name, (chosen.unit[order], chosen.count[order].astype(np.float64),
                                slot[chosen.category][order]))
    return out


def _in_kind(entries: Entries, kind: np.ndarray, wanted: int) -> Entries:
    keep = kind[entries.category] == wanted if len(entries.category) else np.zeros(0, dtype=bool)
    return Entries(entries.unit[keep], entries.category[keep], entries.count[keep])


@dataclass
class _Totals:
    """Per block of resamples: the three squares of each tally."""

    q11: np.ndarray
    q22: np.ndarray
    q12: np.ndarray


def _sparse_totals(weights_t: np.ndarray, part: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
                   slots: int) -> np.ndarray:
    """slots x resamples: each sparse category's total in each resample."""
    rows = weights_t.shape[1]
    out = np.zeros((slots, rows), dtype=np.float64)
    if part is None or not len(part[0]):
        return out
    units, counts, slot = part
    step = max(1, GATHER_ENTRIES // max(rows, 1))
    ones = bool((counts == 1).all())
    for a in range(0, len(units), step):
        b = min(len(units), a + step)
        gathered = weights_t[units[a:b]]
        if not ones:
            gathered *= counts[a:b, None].astype(gathered.dtype)
        s = slot[a:b]
        starts = np.concatenate([[0], np.nonzero(s[1:] != s[:-1])[0] + 1])
        out[s[starts]] += np.add.reduceat(gathered, starts, axis=0)
    return out


def intervals(tallies: Sequence[Tally], units: int, samples: int = DEFAULT_SAMPLES,
              seed: int = DEFAULT_SEED, dense_units: int | None = None) -> list[dict[str, Interval]]:
    """Each tally's 95% interval of each coefficient (`coefficients.COEFFICIENTS`)."""
    return intervals_of(resampled(tallies, units, samples, seed, dense_units), samples)


def blocks_of(samples: int) -> int:
    """How many blocks of resamples there are (each drawn with its own generator)."""
    return -(-samples // BLOCK_SAMPLES)


def joined(parts: Sequence[list[dict[str, np.ndarray]]]) -> list[dict[str, np.ndarray]]:
    """Resampled values of consecutive ranges of blocks, as one."""
    return [{name: np.concatenate([part[j][name] for part in parts]) for name in parts[0][j]}
            for j in range(len(parts[0]))]


def intervals_of(values: list[dict[str, np.ndarray]], samples: int) -> list[dict[str, Interval]]:
    out = []
    for per_tally in values:
        row = {}
        for name, values in per_tally.items():
            known = values[~np.isnan(values)]
            if not len(known):
                row[name] = Interval(None, None, samples)
            else:
                low, high = np.percentile(known, [2.5, 97.5])
                row[name] = Interval(float(low), float(high), samples - len(known))
        out.append(row)
    return out


def _weight_blocks(seed: int, samples: int, units: int, first_block: int, end_block: int):
    """(first resample, rows, weights) of the resamples of blocks first ..
    end - 1: block b draws from ``default_rng([seed, b])``, a few rows at a
    time (which numpy draws as it would draw them at once)."""
    rows_per_part = max(1, min(BLOCK_SAMPLES, BLOCK_WEIGHTS // units))
    for block in range(first_block, end_block):
        rng = np.random.default_rng([seed, block])
        start, end = block * BLOCK_SAMPLES, min(samples, (block + 1) * BLOCK_SAMPLES)
        for first in range(start, end, rows_per_part):
            rows = min(rows_per_part, end - first)
            yield first, rows, weights_of(rng, rows, units)


def weights_of(rng: np.random.Generator, rows: int, units: int) -> np.ndarray:
    """A block of resamples: rows x units, how often each unit was drawn."""
    drawn = rng.integers(0, units, size=(rows, units))
    offsets = (np.arange(rows, dtype=np.int64) * units)[:, None]
    return np.bincount((drawn + offsets).ravel(), minlength=rows * units).reshape(rows, units).astype(np.float64)


def resampled(tallies: Sequence[Tally], units: int, samples: int = DEFAULT_SAMPLES,
              seed: int = DEFAULT_SEED, dense_units: int | None = None,
              blocks: tuple[int, int] | None = None) -> list[dict[str, np.ndarray]]:
    """Each tally's coefficients in every resample (NaN where undefined);
    ``blocks``: only those of blocks first .. end - 1 (see `blocks_of`), so
    that processes can share the work and get the same numbers."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if not tallies or units == 0:
        return [{name: np.full(samples, np.nan) for name in COEFFICIENTS} for _ in tallies]
    if dense_units is None:
        dense_units = max(2, units // 40)
    splits = [_split(t, units, dense_units) for t in tallies]
    scalars = np.hstack([t.scalars for t in tallies])                       # units x 4T
    diagonal = np.hstack([s.diagonal for s in splits])                      # units x 3T
    columns = []
    start = 0
    for s in splits:
        k = len(s.dense)
        s.columns = (start, start + k, start + 2 * k)
        columns += [s.first_dense, s.second_dense]
        start += 2 * k
    dense = np.hstack(columns) if start else np.zeros((units, 0))
    # The largest total a dense column can reach in a resample is below
    # (its largest count) x units: exact in float32 when that is below 2^24.
    largest = float(dense.max()) * units if dense.size else 0.0
    dense_type = np.float32 if largest < EXACT_FLOAT32 else np.float64
    dense = dense.astype(dense_type)
    # Likewise for the sparse categories: their totals stay below (largest count) x units.
    largest_sparse = max((float(part[1].max()) for s in splits for part in (s.sparse_first, s.sparse_second)
                          if part is not None and len(part[1])), default=0.0) * units
    sparse_exact = largest_sparse < EXACT_FLOAT32
    first_block, end_block = blocks or (0, blocks_of(samples))
    offset = first_block * BLOCK_SAMPLES
    count = max(0, min(samples, end_block * BLOCK_SAMPLES) - offset)
    values: list[dict[str, np.ndarray]] = [{name: np.empty(count) for name in COEFFICIENTS} for _ in tallies]
    for start_row, rows, weights in _weight_blocks(seed, samples, units, first_block, end_block):
        first = start_row - offset
        sums = weights @ scalars
        squares_of_one = (weights * weights) @ diagonal
        products = (weights.astype(dense_type) @ dense).astype(np.float64) if start else None
        # (float32: gathered weights and counts are small integers, and a
        # category's total in a resample stays below 2^24, checked below.)
        weights_t = np.ascontiguousarray(weights.T, dtype=np.float32 if sparse_exact else np.float64)
        for j, (t, s) in enumerate(zip(tallies, splits)):
            q11, q22, q12 = (squares_of_one[:, 3 * j + i].copy() for i in range(3))
            if products is not None and len(s.dense):
                a, b, c = s.columns
                one, two = products[:, a:b], products[:, b:c]
                q11 += (one * one).sum(axis=1)
                q22 += (two * two).sum(axis=1)
                q12 += (one * two).sum(axis=1)
            if s.slots:
                one = _sparse_totals(weights_t, s.sparse_first, s.slots)
                two = _sparse_totals(weights_t, s.sparse_second, s.slots)
                q11 += (one * one).sum(axis=0)
                q22 += (two * two).sum(axis=0)
                q12 += (one * two).sum(axis=0)
            block = sums[:, 4 * j:4 * j + 4]
            if t.coders == 2:
                pooled = q11 + q22 + 2 * q12
                resample = Sums(2, block[:, VALUES], block[:, D], pooled, block[:, COMPLETE], block[:, SQUARES],
                                 pooled, q12)
            else:
                resample = Sums(t.coders, block[:, VALUES], block[:, D], q11, block[:, COMPLETE],
                                 block[:, SQUARES], q22)
            for name, function in COEFFICIENTS.items():
                values[j][name][first:first + rows] = function(resample)
    return values
