"""Checks that need no gold: is the sentence a tree the official scorer accepts?

The official ``conll18_ud_eval.py`` gives up on the whole file when one
sentence's HEADs are not a tree with a single root.  These checks find every
such sentence and say exactly where:

- ``unparsed``: every HEAD is ``_`` (a parser has not been run yet);
- ``missing-head``: some HEADs are ``_`` (on each such cell);
- ``head-out-of-range``: a HEAD past the last word;
- ``cycle``: HEADs that go round in a circle (on each HEAD of the circle);
- ``multiple-roots``: more than one word with HEAD 0 (on each extra root);
- ``no-root``: no word with HEAD 0.
"""

from __future__ import annotations

from ..problems import Problem, Related, Severity
from .reader import cell_span
from .sentence import HEAD, Sentence


def tree_problems(sentence: Sentence) -> list[Problem]:
    """Problems of the sentence's tree, with lines relative to the sentence."""
    if sentence.tree_ok:
        return []
    heads = sentence.heads
    n = len(heads)
    if not n:
        return []
    if None not in heads and max(heads) <= n and heads.count(0) == 1 and _acyclic(heads):
        return []  # the common case, decided without a Python loop over words
    problems: list[Problem] = []
    lines = sentence.lines
    word_line = sentence.word_line

    def head_cell(i: int) -> tuple[int, int, int]:
        line = word_line[i]
        return (line, *cell_span(lines[line], HEAD))

    if all(h is None for h in heads):
        if all(value == "_" for value in sentence.head):
            line = word_line[0]
            return [Problem("unparsed", f"not parsed yet: all {n} HEADs are _ (the official "
                            "scorer refuses this sentence)", line, 0, len(lines[line]),
                            Severity.INFORMATION, refuses=True)]
        return []  # HEADs that are not numbers: reported by the reader
    for i, h in enumerate(heads):
        if h is None and sentence.head[i] == "_":
            problems.append(Problem("missing-head", "HEAD is _ while other words of the sentence "
                                    "have one (the official scorer refuses this)",
                                    *head_cell(i), refuses=True))
        elif h is not None and h > n:
            problems.append(Problem("head-out-of-range", f"HEAD {h} points past the last word "
                                    f"({n}) (the official scorer refuses this)",
                                    *head_cell(i), refuses=True))
    roots = [i for i, h in enumerate(heads) if h == 0]
    if not roots:
        line = word_line[0]
        problems.append(Problem("no-root", "no word has HEAD 0: the sentence has no root "
                                "(the official scorer refuses this)", line, 0, len(lines[line]),
                                refuses=True))
    for extra in roots[1:]:
        first = head_cell(roots[0])
        problems.append(Problem(
            "multiple-roots", f"a second root: word {extra + 1} has HEAD 0 as word {roots[0] + 1} "
            "does (the official scorer refuses this)", *head_cell(extra), refuses=True,
            related=(Related(*first, f"the first root, word {roots[0] + 1}"),)))
    for cycle in find_cycles(heads):
        cells = [head_cell(i) for i in cycle]
        words = " → ".join(str(i + 1) for i in cycle + [cycle[0]])
        for k, i in enumerate(cycle):
            others = tuple(Related(*cells[j], f"HEAD of word {cycle[j] + 1}, in the same cycle")
                           for j in range(len(cycle)) if j != k)
            problems.append(Problem(
                "cycle", f"word {i + 1} is its own ancestor: {words} (the official scorer refuses this)"
                if len(cycle) > 1 else f"word {i + 1} is its own head (the official scorer refuses this)",
                *cells[k], refuses=True, related=others))
    return problems


def _acyclic(heads: list[int]) -> bool:
    """Whether following HEADs from every word reaches 0, by pointer doubling:
    after k rounds each entry is the 2^k-th ancestor, so a tree of depth d is
    done in log2(d) rounds of C-level ``map``."""
    parent = [0]
    parent += heads
    rounds = len(heads).bit_length() + 1
    while rounds:
        if not any(parent):
            return True
        parent = list(map(parent.__getitem__, parent))
        rounds -= 1
    return not any(parent)


def find_cycles(heads: list[int | None]) -> list[list[int]]:
    """Every cycle of HEADs, as lists of 0-based word indices (self-loops too)."""
    n = len(heads)
    state = [0] * n  # 0 new, 1 on the current path, 2 finished
    cycles = []
    for start in range(n):
        path = []
        i = start
        while 0 <= i < n and state[i] == 0:
            state[i] = 1
            path.append(i)
            h = heads[i]
            i = h - 1 if h is not None and 0 < h <= n else -1
        if 0 <= i < n and state[i] == 1:
            cycles.append(path[path.index(i):])
        for j in path:
            state[j] = 2
    return cycles


def refuses(problems: list[Problem]) -> bool:
    return any(p.refuses for p in problems)
