"""A column's cells as numbers: each value's place among the column's
distinct values in order of first use.

`annotation.read_annotation` codes each column a batch at a time, while
the batch's strings are still in the cache.  The compiled plain lane
(`lane._plain.code_cells`) does it with one dict lookup per cell and no
int object per cell; without it, `code_cells_python` gives the same codes
and the same index (the lane-equality test holds the two to it).
"""

from __future__ import annotations

import numpy as np

from ..conllu import lane


class Index(dict):
    """The distinct values seen so far, each with its number (the next
    number for a value met for the first time: the pure-Python lane looks
    cells up with ``__getitem__`` and lets this add the new ones)."""

    def __missing__(self, value: str) -> int:
        self[value] = code = len(self)
        return code


def code_cells_python(cells: list[str], index: Index) -> np.ndarray:
    """The cells' numbers in ``index``, new values added to it."""
    return np.fromiter(map(index.__getitem__, cells), dtype=np.int64, count=len(cells))


def code_cells(cells: list[str], index: Index) -> np.ndarray:
    """As `code_cells_python`, in the compiled lane when it is there."""
    plain = lane._plain
    if plain is None:
        return code_cells_python(cells, index)
    return np.frombuffer(plain.code_cells(cells, index), dtype=np.int64)


class Coder:
    """One column coded a batch at a time (`add`), then whole (`result`)."""

    def __init__(self) -> None:
        self.index = Index()
        self.parts: list[np.ndarray] = []

    def add(self, cells: list[str]) -> None:
        self.parts.append(code_cells(cells, self.index))

    def result(self) -> tuple[np.ndarray, list[str]]:
        """(codes per word, the distinct values in order of first use)."""
        codes = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.int64)
        return codes, list(self.index)
