"""Which predicted line goes with which gold line.

By **position**: predicted line i with gold line i.  That is the rule
whenever both files have the same number of lines, not counting lines
without tokens at the end of either file (a trailing blank line is harmless).
A pair whose texts differ is left out of the scores and listed; that is the
scorer's business, not pairing's.

By **text**, only when the numbers of lines differ: the predicted lines that
have tokens are taken in order, and each is paired with the next gold line
(after the previous pair's) that rebuilds exactly the same text.  Lines
without tokens on either side are no sentences and need no partner.  This
recovers files where a system dropped or added blank lines, or left some
sentences out; gold lines passed over are *missing* (they count against
recall).  If some predicted line finds no such gold line, the files cannot
be paired and the result says which line, so the caller can refuse them
with a clear message.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Sequence

POSITION = "position"
TEXT = "text"


@dataclass
class LinePairs:
    """``pairs`` lists (gold line, predicted line or None) in gold order, for
    every gold line that needs scoring; with position pairing it also holds
    lines without tokens (the scorer skips them or reports a predicted line
    that has tokens beside them)."""

    by: str
    pairs: list[tuple[int, int | None]] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)  # gold lines without a predicted line
    # Set when pairing failed: the predicted line that rebuilds no gold line
    # (after the gold line of the previous pair, which is ``after_gold``).
    unpaired: int | None = None
    after_gold: int | None = None


def count_lines(lines: Sequence[str], has_tokens: Callable[[str], bool]) -> int:
    """The number of lines, not counting lines without tokens at the end."""
    n = len(lines)
    while n and not has_tokens(lines[n - 1]):
        n -= 1
    return n


def pair_by_text(gold_texts: Sequence[str | None], system_texts: Sequence[str | None]) -> LinePairs:
    """Pair lines by their rebuilt texts (None for a line without tokens)."""
    where: dict[str, list[int]] = {}
    for i, text in enumerate(gold_texts):
        if text is not None:
            where.setdefault(text, []).append(i)
    partner: dict[int, int] = {}
    last = -1
    for j, text in enumerate(system_texts):
        if text is None:
            continue
        candidates = where.get(text, ())
        k = bisect_right(candidates, last)
        if k == len(candidates):
            return LinePairs(TEXT, unpaired=j, after_gold=last if last >= 0 else None)
        last = candidates[k]
        partner[last] = j
    pairing = LinePairs(TEXT)
    for i, text in enumerate(gold_texts):
        if text is None:
            continue
        j = partner.get(i)
        pairing.pairs.append((i, j))
        if j is None:
            pairing.missing.append(i)
    return pairing
