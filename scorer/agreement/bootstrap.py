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
block of resamples and every variable at once, one matrix product).  What
remains are sums of squares of category totals, ``sum_c T_c^2`` with
``T_c = sum_u w_u x_uc`` for some vector of counts x (units x categories):

- two coders need sum_c (a_c + b_c)^2 and sum_c a_c b_c.  Both come from
  two such squares: of ``s = a + b`` and of ``d = a - b`` (``sum a b =
  (sum s^2 - sum d^2) / 4``, an integer).  ``d`` is 0 wherever the coders
  agree, so its entries are few, and there is no cross term left;
- three or more: the squares of ``first`` and of ``second`` as they are.

Those *vectors* are resampled together by `squares.Squares` (categories in
one unit, in many and in a few taken each its own way, every total an
integer computed exactly), so the coefficients of a resample are exactly
those of a fresh computation on its sentences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .coefficients import COEFFICIENTS, Sums
from .squares import Squares, sum_and_difference
from .tally import COMPLETE, D, SQUARES, VALUES, Entries, Tally

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345
BLOCK_SAMPLES = 100            # resamples drawn with one generator (see `_weight_blocks`)
BLOCK_WEIGHTS = 4_000_000      # resamples x units at a time (32 MB of float64)
DENSE_SHARE = 64               # a category in at least units / DENSE_SHARE units gets a dense column


@dataclass
class Interval:
    low: float | None
    high: float | None
    undefined: int = 0   # resamples where the coefficient was undefined


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
    drawn += (np.arange(rows, dtype=np.int64) * units)[:, None]   # (in place: one array fewer at a time)
    return np.bincount(drawn.ravel(), minlength=rows * units).reshape(rows, units).astype(np.float64)


def _scalar_columns(tallies: Sequence[Tally]) -> tuple[np.ndarray, np.ndarray | None]:
    """The per-unit sums to resample (units x columns), and how to make
    every tally's four from them (None: they are every tally's four).

    Two coders: a tally's four are 2n, 2 agreeing, n and 2n + 2 agreeing
    (`tally.tally`), all integers, so only n and 2 agreeing are resampled,
    each distinct column once (many variables have the same items), and the
    others are made from their sums: integers below 2^53 in float64, the
    same numbers as their own products (so only when the columns are exactly
    that).  Three coders or more: the four of every tally, as they are."""
    if all(t.coders == 2 for t in tallies):
        index: dict[bytes, int] = {}
        columns: list[np.ndarray] = []
        picks = np.empty((len(tallies), 2), dtype=np.int64)
        for j, t in enumerate(tallies):
            n, agreeing = t.scalars[:, COMPLETE], t.scalars[:, D]
            if not (np.array_equal(t.scalars[:, VALUES], 2 * n) and np.array_equal(t.scalars[:, SQUARES], 2 * n + agreeing)
                    and np.array_equal(n, np.round(n)) and np.array_equal(agreeing, np.round(agreeing))):
                break
            for k, column in enumerate((n, agreeing)):
                key = column.tobytes()
                if key not in index:
                    index[key] = len(columns)
                    columns.append(column)
                picks[j, k] = index[key]
        else:
            return np.ascontiguousarray(np.stack(columns, axis=1)), picks
    return np.hstack([t.scalars for t in tallies]), None                 # units x 4T


def _expanded(sums: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """resamples x 4T from the sums of `_scalar_columns`'s distinct columns."""
    out = np.empty((len(sums), 4 * len(picks)))
    n, agreeing = sums[:, picks[:, 0]], sums[:, picks[:, 1]]
    out[:, VALUES::4] = 2 * n
    out[:, D::4] = agreeing
    out[:, COMPLETE::4] = n
    out[:, SQUARES::4] = 2 * n + agreeing
    return out


def _largest(entries: Entries) -> int:
    return int(np.abs(entries.count).max()) if len(entries.count) else 0


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
        dense_units = max(2, units // DENSE_SHARE)
    # Two vectors per tally (see the module), made one tally at a time as `Squares` takes them.
    first_vector = [2 * j for j in range(len(tallies))]
    vectors = (v for t in tallies
               for v in (sum_and_difference(t.first, t.second, units) if t.coders == 2 else (t.first, t.second)))
    # |first + second| and |first - second| are at most the sum of the largest counts.
    largest = max((_largest(t.first) + _largest(t.second) for t in tallies), default=0)
    squares = Squares(vectors, units, dense_units, count=2 * len(tallies), largest=largest)
    scalars, picks = _scalar_columns(tallies)
    first_block, end_block = blocks or (0, blocks_of(samples))
    offset = first_block * BLOCK_SAMPLES
    count = max(0, min(samples, end_block * BLOCK_SAMPLES) - offset)
    sums = np.empty((count, scalars.shape[1]))
    squared = np.empty((count, squares.vectors))
    for start_row, rows, weights in _weight_blocks(seed, samples, units, first_block, end_block):
        first = start_row - offset
        sums[first:first + rows] = weights @ scalars
        squared[first:first + rows] = squares.of(weights)
    if picks is not None:
        sums = _expanded(sums, picks)
    values: list[dict[str, np.ndarray]] = []
    for j, (t, v) in enumerate(zip(tallies, first_vector)):
        block = sums[:, 4 * j:4 * j + 4]
        if t.coders == 2:
            pooled = squared[:, v]
            cross = (pooled - squared[:, v + 1]) / 4    # sum a b = (sum s^2 - sum d^2) / 4, an integer
            resample = Sums(2, block[:, VALUES], block[:, D], pooled, block[:, COMPLETE], block[:, SQUARES],
                            pooled, cross)
        else:
            resample = Sums(t.coders, block[:, VALUES], block[:, D], squared[:, v], block[:, COMPLETE],
                            block[:, SQUARES], squared[:, v + 1])
        values.append({name: function(resample) for name, function in COEFFICIENTS.items()})
    return values
