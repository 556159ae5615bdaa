"""One variable's sums, per unit and in all (see `coefficients` for what they are).

Everything a coefficient needs is a sum over items, or a sum of squares of
category totals.  Sums over items are kept per unit (``scalars``: one row
per unit), so that a resample of units adds up rows; category totals are
kept as *entries* per unit (unit, category, count), so that a resample's
totals are sums of entries, squared afterwards (see `bootstrap`).

Two coders: the entries are each coder's categories over the items both
annotated (``first``, ``second``), whose sums a_c and b_c give all three
squares: sum (a + b)^2 for Fleiss and alpha, sum a b for Cohen.  Three or
more: the pooled categories of the pairable items (``first``, for alpha)
and of the complete ones (``second``, for Fleiss).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .coefficients import COEFFICIENTS, Sums, defined

# Columns of `Tally.scalars`.
VALUES, D, COMPLETE, SQUARES = range(4)


@dataclass
class Entries:
    """Category counts per unit: parallel arrays, sorted by category."""

    unit: np.ndarray
    category: np.ndarray
    count: np.ndarray

    def totals(self, categories: int) -> np.ndarray:
        return np.bincount(self.category, weights=self.count, minlength=categories).astype(np.int64)


@dataclass
class Tally:
    coders: int
    categories: int
    scalars: np.ndarray     # units x 4 (VALUES, D, COMPLETE, SQUARES), float64
    first: Entries
    second: Entries

    def sums(self) -> Sums:
        """The sums over every unit."""
        total = self.scalars.sum(axis=0)
        one = self.first.totals(self.categories)
        two = self.second.totals(self.categories)
        if self.coders == 2:
            pooled = int(((one + two) ** 2).sum())
            return Sums(2, total[VALUES], total[D], pooled, total[COMPLETE], total[SQUARES], pooled,
                        int(one @ two))
        return Sums(self.coders, total[VALUES], total[D], int((one ** 2).sum()), total[COMPLETE],
                    total[SQUARES], int((two ** 2).sum()))

    def coefficients(self) -> dict[str, float | None]:
        s = self.sums()
        return {name: defined(f(s)) for name, f in COEFFICIENTS.items()}


def _entries(units: np.ndarray, categories: np.ndarray, n_units: int, n_categories: int) -> Entries:
    if not len(units):
        empty = np.zeros(0, dtype=np.int64)
        return Entries(empty, empty, empty)
    if n_units * n_categories <= 1 << 22:
        counts = np.bincount(categories * n_units + units, minlength=n_units * n_categories)
        keys = np.nonzero(counts)[0]
        return Entries(keys % n_units, keys // n_units, counts[keys])
    keys, counts = np.unique(categories * n_units + units, return_counts=True)
    return Entries(keys % n_units, keys // n_units, counts)


def tally(codes: np.ndarray, unit_of: np.ndarray, n_units: int, n_categories: int) -> Tally:
    """The sums of a variable's codes (annotations x items; categories >= 0,
    anything negative missing) with each item's unit."""
    m = len(codes)
    present = codes >= 0
    scalars = np.zeros((n_units, 4), dtype=np.float64)
    if m == 2:
        a, b = codes
        both = present[0] & present[1]
        agree = both & (a == b)
        n = np.bincount(unit_of[both], minlength=n_units).astype(np.float64)
        agreeing = np.bincount(unit_of[agree], minlength=n_units).astype(np.float64)
        scalars[:, VALUES] = 2 * n
        scalars[:, D] = 2 * agreeing
        scalars[:, COMPLETE] = n
        scalars[:, SQUARES] = 2 * n + 2 * agreeing   # 4 per agreeing item, 2 per other
        units = unit_of[both]
        return Tally(2, n_categories, scalars, _entries(units, a[both], n_units, n_categories),
                     _entries(units, b[both], n_units, n_categories))
    given = present.sum(axis=0)
    equal_pairs = np.zeros(codes.shape[1], dtype=np.int64)
    for k in range(m):
        for j in range(k + 1, m):
            equal_pairs += present[k] & present[j] & (codes[k] == codes[j])
    pairable = given >= 2
    complete = given == m
    scalars[:, VALUES] = np.bincount(unit_of[pairable], weights=given[pairable], minlength=n_units)
    scalars[:, D] = np.bincount(unit_of[pairable], weights=2 * equal_pairs[pairable] / (given[pairable] - 1.0),
                                minlength=n_units)
    scalars[:, COMPLETE] = np.bincount(unit_of[complete], minlength=n_units)
    scalars[:, SQUARES] = np.bincount(unit_of[complete], weights=m + 2 * equal_pairs[complete], minlength=n_units)

    def pooled(which: np.ndarray) -> Entries:
        keep = present & which[None, :]
        units = np.broadcast_to(unit_of, codes.shape)[keep]
        return _entries(units, codes[keep], n_units, n_categories)

    return Tally(m, n_categories, scalars, pooled(pairable), pooled(complete))
