"""Agreement coefficients from counts: observed agreement, Cohen's kappa,
Fleiss' kappa and Krippendorff's alpha (nominal).

The data
--------
One *variable* (a column such as UPOS) is annotated by ``m`` coders on a set
of *items* (words).  Each coder gives an item one category, or nothing (the
value is missing: the word is not in that coder's file, or the cell is
``_``).  An item with at least two values is *pairable*; one with all ``m``
values is *complete*.  ``n_uc`` is how many coders gave item ``u`` category
``c``, ``m_u = sum_c n_uc`` how many gave it any.

The coefficients
----------------
Every coefficient is (observed - expected) / (1 - expected): how much of the
agreement that chance would not give was reached.

- **Observed agreement**: of the pairs of values that two coders gave the
  same item, the share that are equal; each item weighs as many values as
  it has (Krippendorff's 1 - D_o): ``D / N`` with ``N = sum_u m_u`` over
  pairable items and ``D = sum_u sum_c n_uc (n_uc - 1) / (m_u - 1)``.  With
  two coders this is the share of items both coders gave the same value.
- **Cohen's kappa** (two coders, items both annotated): chance agreement
  from each coder's own distribution, ``p_e = sum_c a_c b_c / n^2`` (``a_c``,
  ``b_c``: how often coder A, B chose ``c`` among the ``n`` items).
  ``kappa = (n * agree - sum_c a_c b_c) / (n^2 - sum_c a_c b_c)``.
- **Fleiss' kappa** (``m >= 2`` coders, complete items only, as Fleiss 1971
  defines it): chance from the pooled distribution, ``p_j = t_j / (N_F m)``
  with ``t_j`` the times category ``j`` was given over the ``N_F`` complete
  items; ``P = (sum_i sum_j n_ij^2 - N_F m) / (N_F m (m - 1))``,
  ``P_e = sum_j p_j^2``, ``kappa = (P - P_e) / (1 - P_e)``.  With two coders
  it is Scott's pi.
- **Krippendorff's alpha** (nominal; any number of coders, missing values
  allowed): the pairable values only, chance from their pooled
  distribution ``t_c`` (``sum_c t_c = N``) without replacement:
  ``alpha = ((N - 1) D - E) / (N (N - 1) - E)`` with ``E = sum_c t_c (t_c - 1)``
  (= 1 - D_o / D_e of Krippendorff 2011).

So each coefficient is made of sums over items (``N``, ``D``, ``N_F``,
``sum n_ij^2``, agreements) and of squares of category totals
(``sum_c t_c^2``, ``sum_c a_c b_c``).  Those are what `Sums` holds; the
bootstrap (`bootstrap`) computes them for every resample of sentences and
hands them to the same functions, so a point estimate and its resamples
are computed by one formula.

Undefined values
----------------
A coefficient is undefined (None; NaN inside the vectorized functions) when
its denominator is 0: no pairable item, or expected agreement 1, i.e. every
value given is the same single category.  Then the data cannot show
agreement beyond chance, whatever the coders did: identical annotations that
use one category are *undefined*, not 1 (as Krippendorff 2011 says of data
without variation; scikit-learn and statsmodels return NaN, the
``krippendorff`` package refuses such data).  Identical annotations using
two categories or more get exactly 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Sums:
    """The sums the coefficients of one variable are made of (numbers, or
    arrays with one entry per bootstrap sample).

    Over pairable items: ``values`` (N) and ``d`` (D) above, ``pooled``:
    sum_c t_c^2 of the pairable values.  Over complete items: ``complete``
    (N_F), ``squares`` (sum_i sum_j n_ij^2) and ``complete_pooled``
    (sum_j t_j^2).  With two coders also ``cross`` = sum_c a_c b_c (pairable
    and complete items are then the same)."""

    coders: int
    values: np.ndarray | float
    d: np.ndarray | float
    pooled: np.ndarray | float
    complete: np.ndarray | float
    squares: np.ndarray | float
    complete_pooled: np.ndarray | float
    cross: np.ndarray | float | None = None


def _ratio(numerator, denominator):
    """numerator / denominator, NaN where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def observed(s: Sums) -> np.ndarray:
    return _ratio(s.d, s.values)


def cohen_kappa(s: Sums) -> np.ndarray:
    """Two coders only (NaN otherwise)."""
    if s.coders != 2 or s.cross is None:
        return np.full(np.shape(s.values), np.nan)
    n = np.asarray(s.values, dtype=np.float64) / 2  # items both annotated
    agree = np.asarray(s.d, dtype=np.float64) / 2   # each agreeing item has D = 2
    cross = np.asarray(s.cross, dtype=np.float64)
    return _ratio(n * agree - cross, n * n - cross)


def fleiss_kappa(s: Sums) -> np.ndarray:
    m = s.coders
    items = np.asarray(s.complete, dtype=np.float64)
    ratings = items * m
    # (P - P_e) / (1 - P_e) with both over (N_F m)^2 and N_F m (m - 1):
    # P = (squares - ratings) / (ratings (m - 1)),  P_e = pooled / ratings^2.
    p = _ratio(np.asarray(s.squares, dtype=np.float64) - ratings, ratings * (m - 1))
    pe = _ratio(s.complete_pooled, ratings * ratings)
    return _ratio(p - pe, 1 - pe)


def krippendorff_alpha(s: Sums) -> np.ndarray:
    n = np.asarray(s.values, dtype=np.float64)
    e = np.asarray(s.pooled, dtype=np.float64) - n
    return _ratio((n - 1) * np.asarray(s.d, dtype=np.float64) - e, n * (n - 1) - e)


COEFFICIENTS = {
    "observed": observed,
    "cohen_kappa": cohen_kappa,
    "fleiss_kappa": fleiss_kappa,
    "krippendorff_alpha": krippendorff_alpha,
}


def defined(value) -> float | None:
    """A coefficient as a number for reports: None when undefined."""
    value = float(value)
    return None if np.isnan(value) else value


# --------------------------------------------------------------------------
# From a table of values (the tests' and the examples' form)
# --------------------------------------------------------------------------


def sums_of(codes: np.ndarray) -> Sums:
    """The sums of reliability data: ``codes`` is coders x items, a
    category number (>= 0) or -1 where the value is missing."""
    codes = np.asarray(codes, dtype=np.int64)
    m = codes.shape[0]
    if codes.size == 0:
        return Sums(m, 0, 0, 0, 0, 0, 0, 0 if m == 2 else None)
    categories = int(codes.max()) + 1 if codes.max() >= 0 else 1
    counts = item_counts(codes, categories)         # items x categories
    present = counts.sum(axis=1)
    pairable = present >= 2
    complete = present == m
    return sums_from_counts(counts, pairable, complete, m,
                            codes if m == 2 else None, categories)


def item_counts(codes: np.ndarray, categories: int) -> np.ndarray:
    """n_uc: items x categories."""
    m, items = codes.shape
    counts = np.zeros((items, categories), dtype=np.int64)
    for row in codes:
        given = row >= 0
        np.add.at(counts, (np.nonzero(given)[0], row[given]), 1)
    return counts


def sums_from_counts(counts: np.ndarray, pairable: np.ndarray, complete: np.ndarray, m: int,
                     pair_codes: np.ndarray | None, categories: int) -> Sums:
    present = counts.sum(axis=1)
    p = counts[pairable]
    values = int(present[pairable].sum())
    d = float((p * (p - 1)).sum(axis=1).astype(np.float64) @ (1 / (present[pairable] - 1.0))) \
        if len(p) else 0.0
    pooled = int((p.sum(axis=0).astype(np.int64) ** 2).sum())
    c = counts[complete]
    squares = int((c * c).sum())
    complete_pooled = int((c.sum(axis=0).astype(np.int64) ** 2).sum())
    cross = None
    if m == 2 and pair_codes is not None:
        both = (pair_codes[0] >= 0) & (pair_codes[1] >= 0)
        a = np.bincount(pair_codes[0][both], minlength=categories)
        b = np.bincount(pair_codes[1][both], minlength=categories)
        cross = int(a.astype(np.int64) @ b.astype(np.int64))
    return Sums(m, values, d, pooled, int(complete.sum()), squares, complete_pooled, cross)


def coefficients_of(codes: np.ndarray) -> dict[str, float | None]:
    """Every coefficient of reliability data (coders x items, -1 missing)."""
    s = sums_of(codes)
    return {name: defined(f(s)) for name, f in COEFFICIENTS.items()}
