"""`Memo`: what a cell's value alone decides, computed once per distinct value.

Cells repeat across a treebank (a few thousand distinct FEATS or MISC values
in a 200k-word corpus), so the checks look such facts up in a dictionary
that computes a missing key on first use, and empties itself when it grows
too large (a long-running editor sees many files).
"""

from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict, Generic[K, V]):
    """A dictionary of ``compute(key)``, filled on look-up, cleared past ``limit`` entries."""

    def __init__(self, compute: Callable[[K], V], limit: int = 200_000) -> None:
        super().__init__()
        self.compute = compute
        self.limit = limit

    def __missing__(self, key: K) -> V:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.compute(key)
        return value
