"""The plain pairs of a batch, counted by the active lane (`lane`).

Pairs the compiled lane turns down (its checks are the Python lane's or
stricter) go to the Python lane (`bulk.PlainPairs`), so both lanes count the
same pairs to the same counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import lane
from .counts import N_VALUES, Counts

if TYPE_CHECKING:
    from .bulk import PlainPairs


class CompiledPlainPairs:
    """`bulk.PlainPairs` with the compiled lane counting what it can; the
    same interface (``passed``, `counts`, `counts_each`)."""

    def __init__(self, system_texts: Sequence[str | None], gold_texts: Sequence[str | None]) -> None:
        passed, totals, each = lane._plain.count_pairs(system_texts, gold_texts)  # type: ignore[union-attr]
        self._compiled = passed
        self._totals = totals
        self._each = memoryview(each).cast("q")
        refused = [k for k, ok in enumerate(passed)
                   if not ok and system_texts[k] and gold_texts[k]]
        self._python: PlainPairs | None = None  # (the pairs refused here, by the Python lane)
        self._python_positions = refused
        self.passed = list(passed)
        if refused:
            from .bulk import PlainPairs

            self._python = PlainPairs([system_texts[k] for k in refused], [gold_texts[k] for k in refused])
            for j, k in enumerate(refused):
                if self._python.passed[j]:
                    self.passed[k] = True

    def _pair_counts(self, k: int) -> list[int]:
        return self._each[k * N_VALUES:(k + 1) * N_VALUES].tolist()

    def counts(self, chosen: Sequence[bool] | None = None) -> Counts:
        total = Counts(list(self._totals))
        if chosen is not None:
            for k, ok in enumerate(self._compiled):
                if ok and not chosen[k]:
                    total -= Counts(self._pair_counts(k))
        if self._python is not None:
            total += self._python.counts(None if chosen is None else [chosen[k] for k in self._python_positions])
        return total

    def counts_each(self) -> list[Counts | None]:
        out: list[Counts | None] = [Counts(self._pair_counts(k)) if ok else None
                                    for k, ok in enumerate(self._compiled)]
        if self._python is not None:
            for k, counts in zip(self._python_positions, self._python.counts_each()):
                if counts is not None:
                    out[k] = counts
        return out


def plain_pairs(system_texts: Sequence[str | None], gold_texts: Sequence[str | None]
                ) -> PlainPairs | CompiledPlainPairs:
    """The plain pairs of a batch, by the active lane."""
    if lane._plain is not None:
        return CompiledPlainPairs(system_texts, gold_texts)
    from .bulk import PlainPairs  # (imported when first needed: it imports numpy)

    return PlainPairs(system_texts, gold_texts)
