"""The uncertainty examples of the issue and of the classification-evaluation reference."""

from __future__ import annotations

import math

import pytest

from annoscore.scorer.stats import EXACT_MCNEMAR_LIMIT, mcnemar_exact, wilson_interval


def test_wilson_examples():
    low, high = wilson_interval(768, 884)
    assert round(low, 3) == 0.845 and round(high, 3) == 0.889
    low, high = wilson_interval(787, 884)
    assert round(low, 3) == 0.868 and round(high, 3) == 0.909


def test_wilson_edges():
    assert wilson_interval(0, 0) is None
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0 < high < 0.35
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.65 < low < 1


def test_mcnemar_example():
    # both right 712, both wrong 41, only A wrong 75, only B wrong 56
    p = mcnemar_exact(75, 56)
    assert round(p, 4) == 0.1155
    assert mcnemar_exact(56, 75) == p
    assert p > 0.05


def _binomial_two_sided(b: int, c: int) -> float:
    """Textbook: 2 * P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2), capped at 1."""
    n, k = b + c, min(b, c)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


@pytest.mark.parametrize("b,c", [(0, 0), (0, 1), (0, 6), (3, 3), (1, 9), (40, 61), (500, 430)])
def test_mcnemar_small_counts_are_exact(b, c):
    assert mcnemar_exact(b, c) == _binomial_two_sided(b, c)


def _exact_two_sided_any_size(b: int, c: int) -> float:
    """The textbook value with exact integers at any size (C(n, i + 1) from C(n, i))."""
    n, k = b + c, min(b, c)
    term = tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        tail += term
    return min(1.0, tail / 2 ** (n - 1))


def test_mcnemar_large_counts_agree_on_both_sides_of_the_exact_limit():
    # Up to the limit the sum is exact (checked against the textbook above on
    # small counts); beyond it a float sum, which docs/design/exactness.md says agrees with the
    # exact value to a relative 1e-9 up to 100,000 disagreements (its error
    # grows with their number: a few 1e-11 past the limit, up to about 2e-10
    # at 100,000, measured).
    from annoscore.scorer.stats import _mcnemar_large
    for b, c in [(9_900, 10_100), (9_990, 10_010), (5_000, 15_000)]:
        assert b + c <= EXACT_MCNEMAR_LIMIT
        assert _mcnemar_large(b + c, min(b, c)) == pytest.approx(mcnemar_exact(b, c), rel=1e-9)
    for b, c in [(19_800, 20_400), (49_700, 50_300)]:
        assert b + c > EXACT_MCNEMAR_LIMIT
        assert mcnemar_exact(b, c) == pytest.approx(_exact_two_sided_any_size(b, c), rel=1e-9)
    # Far above it, the normal approximation with continuity correction is very close.
    b, c = 400_000, 402_000
    z = (abs(b - c) - 1) / math.sqrt(b + c)
    assert mcnemar_exact(b, c) == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-4)
