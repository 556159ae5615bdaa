"""The validator's quick way through levels 1-2 in the compiled plain lane
(``_plain.plain_sentence``: a one-sentence block cut into cells, its IDs
and its tree asked about) and in Python (`level1._cut_python`,
`level2._tree_heads`) give the same: block by block on generated sentences
damaged at random, and the whole findings of `validate_block` on generated
files and on every treebank of ../shared (skipped without it).  With the
Python lane the guard of the compiled one, a sentence the C code cuts
wrongly fails here.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import pytest

from annoscore.scorer.columns import HEAD
from annoscore.scorer.conllu import lane
from annoscore.scorer.validation import ValidationSettings, prepare, validate_block
from annoscore.scorer.validation.level1 import ValidatedSentence, _cut_compiled, _cut_python
from annoscore.scorer.validation.level2 import _tree_heads
from tests.support.data import shared_path
from tests.support.validation_inject import inject, random_damage, repeat, scenarios

compiled_only = pytest.mark.skipif(lane._plain is None, reason=f"the plain lane is {lane.active_lane()}")
BASE = (Path(__file__).parent / "data" / "validation_base.conllu").read_text(encoding="utf-8")
# Cells that break, or nearly break, the quick way's questions (whitespace of
# every kind the validator knows, numbers as its tables write them or not).
ODD = ["1", "0", "01", "4096", "1-2", "1.1", "", " ", "a b", "a\u00a0b", "a\u3000b", "a\u2009b", "a\u200bb",
       "a\u202fb", "a\u205fb", "a\u1680b", "a\u0085b", "a\rb", "a\x0bb", "a\x1cb", "é", "\u0661", "_", "a\tb"]


@contextmanager
def python_lane():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lane, "_plain", None)
        yield


def blocks_of(text: str) -> list[str]:
    return [block for block in text.replace("\r\n", "\n").split("\n\n") if block.strip("\n")]


def cut_both(block: str) -> tuple:
    """Both lanes' cut of one block (and the compiled one's tree verdict
    against the Python one's); asserts they agree, returns the compiled one's."""
    lines = block.split("\n") + [""]
    python = _cut_python(ValidatedSentence(lines, 0, False, frozenset()), block)
    s = ValidatedSentence(lines, 0, False, frozenset())
    compiled = _cut_compiled(s, block, lane._plain)
    if compiled is not None and compiled[3] is not None or python is not None and python[3] is not None:
        assert compiled == python, block  # what the quick way goes on with
    if s.heads is not None:
        expected = _tree_heads(compiled[2][HEAD], len(compiled[1]))
        assert (s.heads or None) == expected, block
    return compiled


def damaged_cells(rng: random.Random, block: str) -> str:
    lines = block.split("\n")
    tokens = [k for k, line in enumerate(lines) if not line.startswith("#")]
    for _ in range(rng.randint(1, 3)):
        k = rng.choice(tokens)
        cells = lines[k].split("\t")
        cells[rng.randrange(len(cells))] = rng.choice(ODD)
        lines[k] = "\t".join(cells)
    return "\n".join(lines)


@compiled_only
def test_the_lanes_cut_damaged_sentences_alike():
    """Thousands of sentences, each damaged in a cell or a character: the
    same cut, kinds and tree; and the compiled lane takes plenty itself."""
    rng = random.Random(31)
    blocks = blocks_of(repeat(BASE, 3))
    taken = trees = 0
    for _ in range(4000):
        block = rng.choice(blocks)
        block = damaged_cells(rng, block) if rng.random() < 0.6 else random_damage(block, rng, 3)
        block = block.strip("\n")
        if not block or "\n\n" in block:
            continue
        taken += cut_both(block) is not None
        trees += cut_both(block) is not None and isinstance(_compiled_heads(block), list)
    assert taken > 1000 and trees > 500


def _compiled_heads(block: str):
    s = ValidatedSentence(block.split("\n") + [""], 0, False, frozenset())
    _cut_compiled(s, block, lane._plain)
    return s.heads


def findings(blocks: list[str]) -> list:
    prepared = prepare(ValidationSettings(level=5, lang="en"))
    return [validate_block(block, prepared).incidents for block in blocks]


def assert_same_findings(text: str) -> None:
    blocks = blocks_of(text)
    compiled = findings(blocks)
    with python_lane():
        assert findings(blocks) == compiled


@compiled_only
@pytest.mark.parametrize("seed", [1, 2])
def test_the_lanes_find_the_same_in_injected_errors(seed):
    assert_same_findings(inject(repeat(BASE, 20), seed))


@compiled_only
def test_the_lanes_find_the_same_in_whole_file_scenarios():
    for text in scenarios(BASE).values():
        assert_same_findings(text)


@compiled_only
@pytest.mark.parametrize("path", ["UD_English-EWT/en_ewt-ud-train.conllu", "UD_Czech-FicTree",
                                  "UD_Chinese-GSD", "UD_French-GSD", "UD_German-GSD", "UD_Japanese-GSD",
                                  "UD_Korean-GSD", "UD_Spanish-AnCora", "UD_Spanish-GSD"])
def test_the_lanes_find_the_same_in_shared_treebanks(path):
    found = shared_path("data", "ud", path)
    files = [found] if found.is_file() else sorted(found.glob("*-ud-dev.conllu")) or sorted(found.glob("*.conllu"))
    for file in files[:1]:
        assert_same_findings(file.read_text(encoding="utf-8"))
