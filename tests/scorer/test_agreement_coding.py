"""`agree` codes each column of an annotation by first use
(scorer/agreement/coding.py): the compiled lane (`_plain.code_cells`) and
the pure-Python one give the same codes and the same index, batch after
batch, and both equal a naive numbering; a whole annotation read in either
lane has the same codes and category names."""

from __future__ import annotations

import random

import numpy as np
import pytest

from annoscore.scorer.agreement import coding
from annoscore.scorer.agreement.annotation import COLUMNS, read_annotation
from annoscore.scorer.conllu import lane
from tests.support.pair_maker import make_gold_sentences, make_prediction, write

compiled_only = pytest.mark.skipif(lane._plain is None, reason=f"the plain lane is {lane.active_lane()}")

# Values as cells carry them: short tags, "_", the empty string, non-ASCII,
# and numbers above 256 (whose codes the Python lane makes int objects of).
ALPHABET = ["_", "", "NOUN", "Number=Sing", "é", "ß", "日本", "a\u0301", "x" * 40] + [str(k) for k in range(600)]


def _batches(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(ALPHABET[:rng.randint(1, len(ALPHABET))]) for _ in range(rng.randint(0, 500))]
            for _ in range(12)]


def _naive(batches: list[list[str]]) -> tuple[list[int], list[str]]:
    order: list[str] = []
    codes = []
    for batch in batches:
        for cell in batch:
            if cell not in order:
                order.append(cell)
            codes.append(order.index(cell))
    return codes, order


def _coded(batches: list[list[str]]) -> tuple[list[int], list[str]]:
    coder = coding.Coder()
    for batch in batches:
        coder.add(list(batch))
    codes, names = coder.result()
    assert codes.dtype == np.int64
    return codes.tolist(), names


@pytest.mark.parametrize("seed", range(6))
def test_python_coder_numbers_values_by_first_use(seed, monkeypatch):
    batches = _batches(seed)
    monkeypatch.setattr(lane, "_plain", None)
    assert _coded(batches) == _naive(batches)


@compiled_only
@pytest.mark.parametrize("seed", range(6))
def test_compiled_coder_equals_the_python_one(seed, monkeypatch):
    batches = _batches(seed)
    compiled = _coded(batches)
    monkeypatch.setattr(lane, "_plain", None)
    assert compiled == _coded(batches) == _naive(batches)


@compiled_only
def test_compiled_coder_refuses_what_is_not_a_list_and_a_dict():
    with pytest.raises(TypeError):
        lane._plain.code_cells(("a",), {})
    with pytest.raises(TypeError):
        lane._plain.code_cells(["a"], [])


@compiled_only
def test_an_annotation_reads_to_the_same_codes_in_both_lanes(tmp_path, monkeypatch):
    gold = make_gold_sentences(5, 600)
    path = write(tmp_path / "a.conllu", make_prediction(gold, 3, noise=0.2, tokenization=0.15, merge=0.03,
                                                       drop=0.03, conf=False))
    compiled = read_annotation(path, "A")
    monkeypatch.setattr(lane, "_plain", None)
    python = read_annotation(path, "A")
    assert compiled.words == python.words > 1000
    for name in COLUMNS[1:]:
        codes, names = compiled.coded(name)
        assert names == python.coded(name)[1]
        assert codes.tolist() == python.coded(name)[0].tolist()
        assert [names[c] for c in codes] == [python.cell(name, k) for k in range(python.words)]
