"""The text store: local edits give the same blocks and problems as reading the whole text."""

from __future__ import annotations

import random

import pytest

from annoscore.scorer.conllu.blocks import iter_blocks
from annoscore.server.demo import __file__ as demo_init
from annoscore.server.textstore import TextStore
from pathlib import Path

SAMPLE = (Path(demo_init).parent / "sample.conllu").read_text(encoding="utf-8")
PIECES = ["\n", "\n\n", "x", "\t", "#", " ", "1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n", "", "\ufeff"]


def assert_consistent(store: TextStore, text: str) -> None:
    assert store.text == text
    blocks, problems = iter_blocks(text)
    assert [(seg.first_line, seg.block) for seg in store.segments if seg.has_block] == blocks
    found = sorted((p.code, p.line) for s in store.segments for p in s.problems)
    assert found == sorted((p.code, p.line) for p in problems)
    lines = text.split("\n")
    for n in (0, len(lines) // 2, len(lines) - 1):
        assert store.line(n) == lines[n]


@pytest.mark.parametrize("seed", range(4))
def test_random_edits(seed):
    rng = random.Random(seed)
    text = SAMPLE
    store = TextStore(text)
    assert_consistent(store, text)
    for _ in range(800):
        lines = text.split("\n")
        l1 = rng.randrange(len(lines))
        c1 = rng.randrange(len(lines[l1]) + 1)
        l2 = min(len(lines) - 1, l1 + rng.choice([0, 0, 0, 1, 3]))
        c2 = rng.randrange(len(lines[l2]) + 1)
        if (l2, c2) < (l1, c1):
            l1, c1, l2, c2 = l2, c2, l1, c1
        new = "".join(rng.choice(PIECES) for _ in range(rng.randrange(3)))

        def offset(line, column):
            return sum(len(x) + 1 for x in lines[:line]) + column

        text = text[:offset(l1, c1)] + new + text[offset(l2, c2):]
        store.apply_change((l1, c1), (l2, c2), new)
        assert_consistent(store, text)


def test_edit_touches_only_nearby_segments():
    text = SAMPLE * 50
    store = TextStore(text)
    before = list(store.segments)
    first, removed, inserted = store.apply_change((20, 2), (20, 5), "X")
    lines = text.split("\n")
    assert len(lines[20]) > 5
    expected_lines = lines[:20] + [lines[20][:2] + "X" + lines[20][5:]] + lines[21:]
    assert store.text == "\n".join(expected_lines) and len(store.text) == len(text) - 2
    assert [store.line(n) for n in range(len(expected_lines))] == expected_lines
    # The same number of lines, and every segment starts where the one before ends.
    assert sum(s.n_lines for s in store.segments) == sum(s.n_lines for s in before)
    assert [s.first_line for s in store.segments] == [s.first_line for s in before]
    assert len(removed) <= 3 and inserted <= 3
    assert removed == before[first:first + len(removed)]
    assert all(a is b for a, b in zip(store.segments[:first], before[:first]))
    untouched_after = store.segments[first + inserted:]
    assert all(a is b for a, b in zip(untouched_after, before[first + len(removed):]))


def test_empty_and_blank_texts():
    for text in ["", "\n", "\n\n\n", "# only a comment"]:
        store = TextStore(text)
        assert_consistent(store, text)


def test_line_store_edits():
    from annoscore.server.textstore import LineStore
    rng = random.Random(9)
    text = "a b c\nd e\n\nf g h\n"
    store = LineStore(text)
    for _ in range(500):
        lines = text.split("\n")
        l1 = rng.randrange(len(lines))
        c1 = rng.randrange(len(lines[l1]) + 1)
        l2 = min(len(lines) - 1, l1 + rng.choice([0, 0, 1, 2]))
        c2 = rng.randrange(len(lines[l2]) + 1)
        if (l2, c2) < (l1, c1):
            l1, c1, l2, c2 = l2, c2, l1, c1
        new = "".join(rng.choice(["x", " ", "\n", "/N", "\t", ""]) for _ in range(rng.randrange(3)))

        def offset(line, column):
            return sum(len(x) + 1 for x in lines[:line]) + column

        text = text[:offset(l1, c1)] + new + text[offset(l2, c2):]
        store.apply_change((l1, c1), (l2, c2), new)
        assert store.text == text and len(store.text) == len(text)
        # Its lines, not only their join: each edit must split what it inserts.
        assert store.lines == text.split("\n") and len(store.lines) == text.count("\n") + 1
