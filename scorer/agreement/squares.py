"""Sums of squares of resampled category totals, for a block of resamples at once.

The bootstrap (`bootstrap`) needs, for each resample (weights ``w_u``, how
often unit u was drawn) and each of several *vectors* of counts ``x_uc``
(units x categories, given as `tally.Entries`), the number

    Q(w) = sum_c T_c^2,    T_c = sum_u w_u x_uc.

Computed naively that is a product with a units x categories matrix, huge
for LEMMA (tens of thousands of categories), though most categories occur
in few units.  So a vector's categories are split by how many units have
them (`Squares`):

- in one unit only: ``T_c^2 = w_u^2 x_uc^2``, so these are summed per unit
  beforehand and take one product with ``w^2`` (float64);
- in at least ``dense_units`` units: a dense column; every vector's dense
  columns are in one float32 matrix, one product for them all;
- the others: each entry's ``w_u x_uc`` gathered, a few thousand entries at
  a time into one buffer (so that they stay in the cache), and summed per
  category.  Categories are ordered by their number of entries, so that a
  chunk's are all equally long: categories x entries x resamples, summed
  over the middle axis.

In the compiled lane (`lane._plain.resampled_squares`) the categories in
two units or more, dense and sparse alike, are one list of entries by
category, and each category's totals are summed in int32 for a block of
resamples at once (the weights transposed, units x resamples, so that an
entry adds one contiguous row): fewer operations than the dense product
(which multiplies every unit, mostly by zero) and no gathered buffer.  It
is taken when no partial sum can reach 2^31 (largest |count| x units, as
below); the squares are float64, as here.

Every total is an integer.  float32 holds integers exactly below 2^24, and
no partial sum of a total can exceed (largest |count|) x units in absolute
value (the weights add up to the number of units): checked, float64
otherwise.  Squares and their sums are made in float64, exact below 2^53.
So all three ways give exactly the naive product's numbers.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from ..conllu import lane
from .tally import Entries

EXACT_FLOAT32 = 1 << 24     # integers below this are exact in float32
EXACT_INT32 = 1 << 31       # the compiled lane's totals: int32
CHUNK_ENTRIES = 2048        # sparse entries gathered at a time (x the block's resamples)


def sum_and_difference(first: Entries, second: Entries, units: int) -> tuple[Entries, Entries]:
    """Two coders' counts as ``s = first + second`` and ``d = first - second``
    (d without its zeros: only where the coders differ), sorted by category
    then unit as `tally.Entries` are."""
    k1 = first.category * units + first.unit
    k2 = second.category * units + second.unit
    keys = np.concatenate([k1, k2])
    if not len(keys):
        empty = np.zeros(0, dtype=np.int64)
        return Entries(empty, empty, empty), Entries(empty, empty, empty)
    # Both halves are sorted: a stable sort merges the two runs.
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    counts = np.concatenate([first.count, second.count]).astype(np.int64)[order]
    signed = np.concatenate([first.count, -second.count]).astype(np.int64)[order]
    starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    unique = keys[starts]
    total = np.add.reduceat(counts, starts)
    difference = np.add.reduceat(signed, starts)
    keep = difference != 0
    return (Entries(unique % units, unique // units, total),
            Entries(unique[keep] % units, unique[keep] // units, difference[keep]))


class Squares:
    """``Q(w)`` of each vector for blocks of resamples (`of`), the split into
    one-unit, dense and sparse categories made once (see the module)."""

    def __init__(self, vectors: Iterable[Entries], units: int, dense_units: int, count: int | None = None,
                 largest: int | None = None) -> None:
        """``vectors`` may be an iterator of ``count`` vectors, none of whose
        counts exceeds ``largest`` in absolute value: in the compiled lane
        each is then taken in turn and let go (so that the bootstrap never
        holds every vector's int64 entries at once)."""
        if count is None or largest is None:
            vectors = list(vectors)
            count = len(vectors)
            largest = max((int(np.abs(e.count).max()) for e in vectors if len(e.unit)), default=0)
        self.vectors = count
        self.units = units
        self.one_unit = np.zeros((units, self.vectors), dtype=np.float64)
        self.compiled = None
        self.dense = None
        self.chunks: list[tuple] = []
        plain = lane._plain
        if plain is not None and hasattr(plain, "resampled_squares") and largest * units < EXACT_INT32:
            self._plan_compiled(vectors, units)
            return
        vectors = list(vectors)
        dense_parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (units, columns, counts)
        dense_vector: list[np.ndarray] = []
        sparse_parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (units, counts, slots)
        slot_vector: list[np.ndarray] = []
        columns = slots = 0
        largest = 0
        for v, entries in enumerate(vectors):
            if not len(entries.unit):
                continue
            largest = max(largest, int(np.abs(entries.count).max()))
            # Entries are unique per (unit, category): a category's units are its entries.
            spread = np.bincount(entries.category)
            units_of_entry = spread[entries.category]
            one = units_of_entry == 1
            self.one_unit[:, v] = np.bincount(entries.unit[one], weights=entries.count[one].astype(np.float64) ** 2,
                                              minlength=units)
            for wanted, parts, owners in ((units_of_entry >= dense_units, dense_parts, dense_vector),
                                          (~one & (units_of_entry < dense_units), sparse_parts, slot_vector)):
                if not wanted.any():
                    continue
                # (entries are sorted by category: numbered by runs, no sort needed)
                category = entries.category[wanted]
                number = np.cumsum(np.concatenate([[0], category[1:] != category[:-1]]))
                found = number[-1] + 1
                start = columns if parts is dense_parts else slots
                if parts is dense_parts:
                    parts.append((entries.unit[wanted], start + number, entries.count[wanted]))
                    columns += found
                else:
                    parts.append((entries.unit[wanted], entries.count[wanted], start + number))
                    slots += found
                owners.append(np.full(found, v, dtype=np.int64))
        # The largest total's partial sums stay below largest x units (see the module).
        exact = largest * units < EXACT_FLOAT32
        self.gather_type = np.float32 if exact else np.float64
        self.dense = None
        if columns:
            self.dense = np.zeros((units, columns), dtype=self.gather_type)
            for unit, column, count in dense_parts:
                self.dense[unit, column] = count
            owner = np.concatenate(dense_vector)
            self.dense_owner = np.zeros((columns, self.vectors), dtype=np.float64)
            self.dense_owner[np.arange(columns), owner] = 1.0
        self.chunks: list[tuple] = []
        if slots:
            self._plan_sparse(sparse_parts, np.concatenate(slot_vector))

    def _plan_compiled(self, vectors: Iterable[Entries], units: int) -> None:
        """The one-unit categories as in the numpy way; every other category's
        entries in one list by category (int32), for `lane._plain.resampled_squares`."""
        unit_parts, count_parts, length_parts, owner_parts = [], [], [], []
        for v, entries in enumerate(vectors):
            if not len(entries.unit):
                continue
            spread = np.bincount(entries.category)
            units_of_entry = spread[entries.category]
            one = units_of_entry == 1
            self.one_unit[:, v] = np.bincount(entries.unit[one], weights=entries.count[one].astype(np.float64) ** 2,
                                              minlength=units)
            many = ~one
            if not many.any():
                continue
            # (entries are sorted by category, so a category's entries are consecutive)
            unit_parts.append(entries.unit[many].astype(np.int32))
            count_parts.append(entries.count[many].astype(np.int32))
            lengths = spread[spread > 1]
            length_parts.append(lengths)
            owner_parts.append(np.full(len(lengths), v, dtype=np.int32))
        if not unit_parts:
            return
        lengths = np.concatenate(length_parts)
        starts = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        self.compiled = (np.concatenate(unit_parts), np.concatenate(count_parts), starts, np.concatenate(owner_parts))

    def _plan_sparse(self, parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], slot_vector: np.ndarray) -> None:
        """Order the sparse categories by how many entries they have, and cut
        them into chunks of categories with as many entries each: a chunk's
        gathered rows are then categories x entries x resamples, summed over
        the middle axis (faster than summing runs of unequal length)."""
        units = np.concatenate([p[0] for p in parts])
        counts = np.concatenate([p[1] for p in parts])
        slot = np.concatenate([p[2] for p in parts])
        length = np.bincount(slot)
        order = np.argsort(length[slot], kind="stable")   # (entries stay sorted by slot within a length)
        self.sparse_units = units[order].astype(np.intp)
        counts, slot = counts[order], slot[order]
        by_length = length[slot]
        self.buffer_rows = 0
        a = 0
        size = len(slot)
        while a < size:
            n = int(by_length[a])
            end = a + int(np.searchsorted(by_length[a:], n, side="right"))   # where entries of longer ones start
            step = n * max(1, CHUNK_ENTRIES // n)
            for first in range(a, end, step):
                last = min(end, first + step)
                slots = slot[first:last:n]
                owners = slot_vector[slots]
                owner_starts = np.flatnonzero(np.concatenate([[True], owners[1:] != owners[:-1]]))
                # The counts multiplied in: none when all are 1, a few rows
                # picked out when few are not, else every row (faster than picking).
                scaled: np.ndarray | slice | None = np.flatnonzero(counts[first:last] != 1)
                if not len(scaled):
                    scaled = None
                elif len(scaled) > (last - first) // 8:
                    scaled = slice(None)
                scale = None if scaled is None else counts[first:last][scaled].astype(self.gather_type)[:, None]
                self.chunks.append((first, last, n, scaled, scale, owner_starts, owners[owner_starts]))
                self.buffer_rows = max(self.buffer_rows, last - first)
            a = end

    def of(self, weights: np.ndarray) -> np.ndarray:
        """rows x vectors: Q of each vector in each resample (``weights``:
        resamples x units, how often each unit was drawn)."""
        out = (weights * weights) @ self.one_unit
        if self.compiled is not None:
            weights = np.ascontiguousarray(weights, dtype=np.float64)
            lane._plain.resampled_squares(weights, len(weights), self.units, *self.compiled[:3], self.compiled[3],
                                          self.vectors, out)
            return out
        if self.dense is not None:
            totals = (weights.astype(self.gather_type) @ self.dense).astype(np.float64)
            totals *= totals
            out += totals @ self.dense_owner
        if self.chunks:
            weights_t = np.ascontiguousarray(weights.T, dtype=self.gather_type)
            buffer = np.empty((self.buffer_rows, len(weights)), dtype=self.gather_type)
            units = self.sparse_units
            for a, b, n, scaled, scale, owner_starts, owners in self.chunks:
                gathered = buffer[:b - a]
                np.take(weights_t, units[a:b], axis=0, out=gathered)
                if scaled is not None:
                    gathered[scaled] *= scale
                totals = gathered.reshape(-1, n, len(weights)).sum(axis=1).astype(np.float64)
                totals *= totals
                out[:, owners] += np.add.reduceat(totals, owner_starts, axis=0).T
        return out
