"""One problem, one diagnostic: the validator's findings that annoscore reports already.

annoscore reads CoNLL-U itself and reports what it cannot read (`format-…`)
and the trees the official scorer refuses (`cycle`, `multiple-roots` …).
The UD validator finds many of the same problems under its own test ids.
When both find one problem, it is shown once, with annoscore's code, place
and message, carrying the validator's test id, level and class in its
``data`` (and the more severe of the two severities).

Which pairs are the same problem was found by running both on the injected
files of the parity tests (tests/support/validation_inject.py) and reading
what each says on the same line.  Most pairs are on one line (a line with
the wrong number of columns is ``format-columns`` and
``number-of-columns``); a few are about a whole sentence, which the
validator reports on its first token line and annoscore on each word
concerned (a cycle is ``non-tree`` there and a ``cycle`` on every HEAD of
it), or about the whole file.  Those wider pairs put the validator's own
line in the data (``ud_line``), so that what the validator reports can
still be told line by line.

`Twins` is given the validation problems of a document that may have an
annoscore twin (each at its absolute line, with the object kept for it);
`claim` is asked, for each of annoscore's problems about to be shown,
whether one of them is its twin, and takes it.  The validation problems not
taken (``taken`` holds the ids of the kept objects) are shown as their own.
"""

from __future__ import annotations

from typing import Callable, Iterable

from annoscore.scorer.problems import Problem

# annoscore's code -> the validator's test ids that are the same problem on
# the same line, in the order they are taken.
SAME_LINE: dict[str, tuple[str, ...]] = {
    "format-columns": ("number-of-columns", "invalid-line"),
    "format-spaces": ("number-of-columns", "invalid-line"),
    "format-id": ("invalid-word-id", "invalid-line", "number-of-columns"),
    "format-id-order": ("word-id-sequence",),
    "format-mwt": ("misplaced-word-interval", "reversed-word-interval", "overlapping-word-intervals",
                   "word-interval-out"),
    "format-empty-form": ("empty-column",),
    "format-head": ("invalid-head",),
    "format-deps": ("invalid-deps", "unknown-ehead"),
    "format-comment-position": ("misplaced-comment",),
    "format-blank-line": ("pseudo-empty-line",),
    "format-empty-sentence": ("empty-sentence",),
    "format-final-blank-line": ("missing-empty-line",),
    "format-bom": ("invalid-line",),
    "format-encoding": ("invalid-utf",),
    "missing-head": ("invalid-head",),
    "head-out-of-range": ("unknown-head",),
    "cycle": ("head-self-loop",),
}
# annoscore's code -> test ids that are the same problem in the same sentence
# block, reported by the validator on another line of it.
SAME_SENTENCE: dict[str, tuple[str, ...]] = {
    "cycle": ("non-tree",),
    "no-root": ("non-tree",),
    "multiple-roots": ("multiple-roots",),
}
# ... anywhere in the document: a lone CR kept in a line by the editor is
# what makes the validator say the file has CR line ends.
SAME_DOCUMENT: dict[str, tuple[str, ...]] = {
    "format-newline": ("non-unix-newline",),
}

CLAIMING = frozenset(SAME_LINE) | frozenset(SAME_SENTENCE) | frozenset(SAME_DOCUMENT)
TWIN_IDS = frozenset(t for table in (SAME_LINE, SAME_SENTENCE, SAME_DOCUMENT) for ids in table.values()
                     for t in ids)


class Twins:
    """The validation problems (absolute lines) that annoscore's own may take."""

    def __init__(self, problems: Iterable[tuple[Problem, Problem]], block_of: Callable[[int], int]) -> None:
        self.block_of = block_of   # line -> the block (segment) holding it
        self.by_line: dict[int, list[tuple[Problem, Problem]]] = {}
        self.by_block: dict[int, list[tuple[Problem, Problem]]] = {}
        self.anywhere: list[tuple[Problem, Problem]] = []
        for pair in problems:
            line = pair[0].line
            self.by_line.setdefault(line, []).append(pair)
            self.by_block.setdefault(block_of(line), []).append(pair)
            self.anywhere.append(pair)
        self.taken: set[int] = set()   # ids of the kept problems taken

    def __bool__(self) -> bool:
        return bool(self.anywhere)

    def claim(self, problem: Problem, line: int = 0) -> Problem:
        """``problem`` (lines relative to ``line``), with its twin's test id
        when it has one among the validation problems not taken yet."""
        code = problem.code
        if code not in CLAIMING:
            return problem
        at = line + problem.line
        for scope, table in enumerate((SAME_LINE, SAME_SENTENCE, SAME_DOCUMENT)):
            wanted = table.get(code)
            if not wanted:
                continue
            found = (self.by_line.get(at) if scope == 0 else
                     self.by_block.get(self.block_of(at)) if scope == 1 else self.anywhere)
            if not found:
                continue
            for test_id in wanted:
                for twin, kept in found:
                    if twin.code == test_id and id(kept) not in self.taken:
                        self.taken.add(id(kept))
                        return _merged(problem, twin, twin.line != at)
        return problem


def _merged(problem: Problem, twin: Problem, elsewhere: bool) -> Problem:
    data = problem.data + twin.data + ((("ud_line", twin.line),) if elsewhere else ())
    return Problem(problem.code, problem.message, problem.line, problem.start, problem.end,
                   min(problem.severity, twin.severity), problem.refuses, problem.related, data)
