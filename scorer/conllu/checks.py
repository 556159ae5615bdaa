"""Checks that need no gold: is the sentence a tree the official scorer accepts?

The official ``conll18_ud_eval.py`` gives up on the whole file when one
sentence's HEADs are not a tree with a single root.  These checks find every
such sentence and say exactly where:

- ``unparsed``: every HEAD is ``_`` (a parser has not been run yet);
- ``missing-head``: some HEADs are ``_`` (on each such cell);
- ``head-out-of-range``: a HEAD past the last word;
- ``cycle``: HEADs that go round in a circle: one problem per cycle, on
  the HEAD cell of its first word, with every member's HEAD cell as a
  related place, so that a report names a cycle once whatever its length;
  `cycle_marks` makes one problem per member for an editor, each short;
- ``multiple-roots``: more than one word with HEAD 0 (on each root: without
  gold nothing tells which one is right; with gold, the engine marks the
  roots gold disagrees with);
- ``no-root``: no word with HEAD 0.
"""

from __future__ import annotations

from itertools import islice

from ..problems import Problem, Related, Severity
from .columns import cell_span
from .sentence import HEAD, Sentence


def tree_problems(sentence: Sentence) -> list[Problem]:
    """Problems of the sentence's tree, with lines relative to the sentence."""
    if sentence.tree_ok:
        return []
    heads = sentence.heads
    n = len(heads)
    if not n:
        return []
    if None not in heads and max(heads) <= n and heads.count(0) == 1 and acyclic(heads):
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
    if len(roots) > 1:
        named = _listed([f"{i + 1} ({sentence.form[i]})" for i in roots], ROOTS_LISTED)
        cells = [head_cell(i) for i in roots]
        for k, root in enumerate(roots):
            problems.append(Problem(
                "multiple-roots", f"{len(roots)} words have HEAD 0: {named}; a tree has one root "
                "(the official scorer refuses this)", *cells[k], refuses=True,
                related=tuple(Related(*cells[j], f"another root, word {roots[j] + 1}")
                              for j in islice((j for j in range(len(roots)) if j != k), RELATED_LISTED))))
    for cycle in find_cycles(heads):
        first = cycle.index(min(cycle))
        cycle = cycle[first:] + cycle[:first]
        cells = [head_cell(i) for i in cycle]
        message = (f"word {cycle[0] + 1} is its own head" if len(cycle) == 1 else
                   f"words {_path(cycle, 0)} form a cycle, each its own ancestor")
        problems.append(Problem(
            "cycle", message + " (the official scorer refuses this)", *cells[0], refuses=True,
            related=tuple(Related(*cell, f"HEAD of word {i + 1}, in the same cycle")
                          for i, cell in zip(cycle[1:], cells[1:])),
            data=(("cycle", tuple(i + 1 for i in cycle)),)))
    return problems


ROOTS_LISTED = 6      # roots named in a multiple-roots message
CYCLE_LISTED = 6      # words of a cycle named in a message
RELATED_LISTED = 8    # related places an editor gets per problem


def _listed(items: list[str], cap: int) -> str:
    if len(items) <= cap:
        return ", ".join(items)
    return ", ".join(items[:cap]) + f", … ({len(items)} in all)"


def _path(cycle: list[int], start: int) -> str:
    """The cycle's words from ``start`` round to it again: 7 → 8 → 7, the
    middle left out past `CYCLE_LISTED` words."""
    n = len(cycle)
    if n <= CYCLE_LISTED:
        words = [str(cycle[(start + j) % n] + 1) for j in range(n)]
    else:
        words = [str(cycle[(start + j) % n] + 1) for j in range(CYCLE_LISTED - 1)]
        words += [f"… ({n - CYCLE_LISTED + 1} more)", str(cycle[(start - 1) % n] + 1)]
    return " → ".join(words + [words[0]])


def cycle_marks(problem: Problem) -> list[Problem]:
    """A ``cycle`` problem as one problem per member's HEAD cell (what an
    editor shows), each naming the cycle from its own word, with at most
    `RELATED_LISTED` of the other members as related places, so that the
    size stays linear in the cycle's length."""
    words = problem.datum("cycle")
    if not isinstance(words, tuple) or len(words) != len(problem.related) + 1:
        return [problem]
    places = [(problem.line, problem.start, problem.end)] + [(r.line, r.start, r.end) for r in problem.related]
    cycle = [w - 1 for w in words]
    n = len(cycle)
    out = []
    for k in range(n):
        if n == 1:
            message = f"word {words[0]} is its own head"
        else:
            message = f"word {words[k]} is its own ancestor: {_path(cycle, k)}"
        others = tuple(Related(*places[(k + j) % n], f"HEAD of word {words[(k + j) % n]}, in the same cycle")
                       for j in range(1, min(n, RELATED_LISTED + 1)))
        out.append(Problem("cycle", message + " (the official scorer refuses this)", *places[k],
                           problem.severity, True, others, problem.data))
    return out


def acyclic(heads: list[int]) -> bool:
    """Whether following HEADs (each in 0..n) from every word reaches 0, by pointer doubling:
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
