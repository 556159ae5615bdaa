"""Cells of CoNLL-U token lines, as both the reader and the bulk lane read them.

Where a cell is on its line (`cell_span`), the ID strings of a plain
sentence (`id_strings`), which rows of a block with multiword ranges are its
words and tokens (`plain_multiword_rows`), and DEPS values read into edges
(`parse_deps`) and the largest head they name (`DEPS_EXTENTS`, memoized:
the same few thousand values recur millions of times).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress, repeat
from operator import not_



# "1", "2", ... so that a sentence's ID column can be checked with one list
# comparison instead of a loop.
_ID_STRINGS: list[str] = []


def id_strings(n: int) -> list[str]:
    if len(_ID_STRINGS) < n:
        _ID_STRINGS.extend(str(i) for i in range(len(_ID_STRINGS) + 1, n + 1))
    return _ID_STRINGS[:n] if n < len(_ID_STRINGS) else _ID_STRINGS


def cell_span(line: str, column: int) -> tuple[int, int]:
    """Start and end offsets of a column (0-9) in a token line.

    Lines that use spaces instead of tabs are split on runs of whitespace, as
    the reader does.  A column the line does not have gives the line's end.
    """
    if line.count("\t") >= 9 or " " not in line.strip():
        start = 0
        for _ in range(column):
            tab = line.find("\t", start)
            if tab < 0:
                return len(line), len(line)
            start = tab + 1
        end = line.find("\t", start)
        return start, len(line) if end < 0 else end
    spans = [m.span() for m in re.finditer(r"\S+", line)]
    if column < len(spans):
        return spans[column]
    return len(line), len(line)


def plain_multiword_rows(ids: list[str]) -> tuple[list[int], list[int]] | None:
    """Rows of words and rows of tokens when the IDs are well formed: words
    1..n in order, each range ``a-b`` right before its words ``a`` .. ``b``,
    no empty nodes.  None otherwise (the careful walk then reports why)."""
    is_word = list(map(str.isdecimal, ids))
    word_rows = list(compress(range(len(ids)), is_word))
    if list(compress(ids, is_word)) != id_strings(len(word_rows)):
        return None
    # The words are 1..n in order, so a range is right before its words
    # when the rows after it are all words and the first and last of them
    # are a and b.
    is_token = [True] * len(ids)
    for r in compress(range(len(ids)), map(not_, is_word)):
        first, dash, last = ids[r].partition("-")
        if not (dash and first.isdecimal() and last.isdecimal()):
            return None
        a, b = int(first), int(last)
        end = r + 1 + b - a
        if (b < a or end >= len(ids) or ids[r + 1] != str(a) or ids[end] != str(b)
                or not all(is_word[r + 1:end + 1])):
            return None
        is_token[r + 1:end + 1] = repeat(False, b - a + 1)
    return word_rows, list(compress(range(len(ids)), is_token))




@lru_cache(maxsize=1 << 16)
def parse_deps(deps: str) -> tuple[tuple[int | None, tuple[str, ...]], ...]:
    """Enhanced dependencies ``4:nsubj|6:conj>obj`` → ((4, ('nsubj',)), (6, ('conj', 'obj'))).

    A head with '.' (an empty node) gives None: the official scorer drops those
    edges.  Raises ValueError on text it cannot read.
    """
    if deps == "_" or not deps:
        return ()
    edges = []
    for edge in deps.split("|"):
        head, path = edge.split(":", 1)
        edges.append((None if "." in head else int(head), tuple(path.split(">"))))
    return tuple(edges)


def _deps_extent(deps: str) -> int:
    """The largest head in a DEPS value, -1 if it cannot be read, -2 if a head is negative."""
    try:
        edges = parse_deps(deps)
    except ValueError:
        return -1
    heads = [h for h, _ in edges if h is not None]
    if heads and min(heads) < 0:
        return -2
    # Capped so that callers may hold it in an int64 (past any sentence's length anyway).
    return min(max(heads, default=0), DEPS_EXTENT_CAP)


DEPS_EXTENT_CAP = 1 << 40


class _DepsExtents(dict):
    """Memo of `_deps_extent` (lookups of known values stay at C speed)."""

    def __missing__(self, deps: str) -> int:
        if len(self) > 1 << 18:
            self.clear()
        value = self[deps] = _deps_extent(deps)
        return value


DEPS_EXTENTS = _DepsExtents()
