"""Comparing two systems on the same gold, item by item (McNemar's exact test).

Two outcome lists (`scorer.outcomes`, written by ``evaluate --save-errors``)
for the same gold file line up item by item.  Items both systems got right,
or both got wrong, say nothing about which is better; only disagreements do.
With b items only A got wrong and c items only B got wrong, "no real
difference" means each disagreement goes either way with probability 1/2,
so b ~ Binomial(b + c, 1/2), and the exact two-sided p-value is the chance
of a split at least as lopsided (`stats.mcnemar_exact`).

Lists are only comparable when they were made against the same gold (same
SHA-256), hold the same number of items, and are for the same format and
metric; otherwise `IncomparableLists` says which of these differs.  Items
neither list scored ('-' in both, e.g. function words for CLAS) are skipped.
An item only one list scored (segmentation: a line whose text the other
system did not rebuild) cannot be paired either: it is left out too, and
counted, so the report can say so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .outcomes import OutcomeList
from .stats import mcnemar_exact


def format_p(p: float) -> str:
    """``p = 0.1155``, or ``p < 0.0001`` rather than a misleading 0.0000."""
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.4f}"


class IncomparableLists(ValueError):
    """Two outcome lists that do not describe the same items."""


@dataclass(frozen=True)
class Comparison:
    both_right: int
    both_wrong: int
    only_a_wrong: int   # b
    only_b_wrong: int   # c
    not_scored: int     # '-' in both lists
    only_a_scored: int  # scored in A, '-' in B: left out
    only_b_scored: int  # scored in B, '-' in A: left out

    @property
    def compared(self) -> int:
        return self.both_right + self.both_wrong + self.only_a_wrong + self.only_b_wrong

    @property
    def p_value(self) -> float:
        return mcnemar_exact(self.only_a_wrong, self.only_b_wrong)

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p_value < alpha

    def accuracy_a(self) -> float | None:
        return (self.both_right + self.only_b_wrong) / self.compared if self.compared else None

    def accuracy_b(self) -> float | None:
        return (self.both_right + self.only_a_wrong) / self.compared if self.compared else None

    def verdict(self, alpha: float = 0.05) -> str:
        """The result in one plain sentence."""
        b, c = self.only_a_wrong, self.only_b_wrong
        if b + c == 0:
            return "The two systems never disagree on a scored item, so there is no difference to test."
        p = self.p_value
        split = f"A alone is wrong on {b} items, B alone on {c}"
        if p < alpha:
            better = "B" if b > c else "A"
            return (f"The difference is significant at {alpha:g} ({format_p(p)}): {better} makes fewer "
                    f"errors ({split}).")
        return (f"The difference is not significant at {alpha:g} ({format_p(p)}): {split}, and a split "
                f"like this is plausible by chance, so the data do not show that either system is better.")


def check_comparable(a: OutcomeList, b: OutcomeList) -> None:
    """Raise IncomparableLists unless A and B cover the same gold items."""
    if a.gold_sha256 != b.gold_sha256:
        raise IncomparableLists(
            f"the lists were made against different gold files (A: {a.gold_path}, sha256 "
            f"{a.gold_sha256[:16]}; B: {b.gold_path}, sha256 {b.gold_sha256[:16]}); "
            f"a paired test needs the same gold items")
    if a.format != b.format:
        raise IncomparableLists(f"A is a {a.format} list and B a {b.format} list")
    if a.metric != b.metric:
        raise IncomparableLists(f"A is for {a.metric} and B for {b.metric}; save both with the same --metric")
    if len(a.outcomes) != len(b.outcomes):
        raise IncomparableLists(f"A has {len(a.outcomes)} items and B has {len(b.outcomes)}, "
                                f"though both claim the same gold")


def compare_outcomes(a: OutcomeList, b: OutcomeList) -> Comparison:
    """Cross-tabulate two comparable lists (raises IncomparableLists otherwise)."""
    check_comparable(a, b)
    table = Counter(zip(a.outcomes, b.outcomes))
    return Comparison(
        both_right=table[("1", "1")], both_wrong=table[("0", "0")],
        only_a_wrong=table[("0", "1")], only_b_wrong=table[("1", "0")],
        not_scored=table[("-", "-")],
        only_a_scored=table[("1", "-")] + table[("0", "-")],
        only_b_scored=table[("-", "1")] + table[("-", "0")])
