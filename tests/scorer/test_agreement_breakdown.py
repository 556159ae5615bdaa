"""`--by upos` and `--by deprel` count every category at once
(`compare._by_code`); they must give exactly the entries of the
category-by-category count (`compare._by_membership`, which `--by feats`
uses), for two and three annotations, with missing and blank cells."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from annoscore.scorer.agreement import compare
from annoscore.scorer.agreement.cells import ABSENT, BLANK


def _codes(rng, m: int, items: int, categories: int) -> np.ndarray:
    codes = rng.integers(0, categories, (m, items))
    codes[1:] = np.where(rng.random((m - 1, items)) < 0.7, codes[0], codes[1:])
    codes[rng.random((m, items)) < 0.1] = ABSENT
    codes[rng.random((m, items)) < 0.05] = BLANK
    return codes


@pytest.mark.parametrize("m", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_by_code_equals_the_category_by_category_count(m, seed):
    rng = np.random.default_rng([seed, m])
    items = int(rng.integers(0, 3000))
    names = [f"C{k}" for k in range(int(rng.integers(5, 40)))]   # some never used
    key = _codes(rng, m, items, max(1, len(names) - 3))
    named = {column: SimpleNamespace(codes=_codes(rng, m, items, 12)) for column in ("HEAD", "DEPREL", "HEAD+DEPREL")}
    matching = SimpleNamespace(annotations=[SimpleNamespace(name=chr(65 + k)) for k in range(m)])
    fast = compare._by_code(key, names, named, matching)
    assert fast == compare._by_membership(key, names, named, matching)
    assert list(fast) == list(compare._by_membership(key, names, named, matching))
    assert items < 50 or len(fast) > 1
