"""Pairing again around an edit, and knowing when the old pairing holds again.

An edit that changes a sentence's text or sent_id can change which gold
sentence it pairs with, and that can move the pairing of sentences after
it.  `IncrementalScore.pair_again_locally` pairs again from the unit holding the
edited sentence; `LocalPairing` says when the new run is back in step with
the old one, after which every old decision stands.
"""

from __future__ import annotations

from annoscore.scorer.conllu.pairing import MISSING, PAIRED

from .analysis import SentenceInfo
from .units import Unit


class LocalPairing:
    """Where `IncrementalScore.rescore` pairs again around an edit, and how it
    knows that the pairing is back in step with the old one.

    From a sentence on, the pairer's decisions depend on its state: which
    gold sentences are taken, where the gold stream goes on (one past the
    last gold sentence taken), and whether a chunk is open.  The new run is
    back in step with the old one at a sentence where both were idle (the
    old one had just closed a chunk it paired), the stream goes on at the
    same gold sentence, and the gold sentences taken differ only where no
    later decision looks: a sentence the new run *took* was not given to a
    later sentence by the old run, and a sentence it left *free* has a text
    that no later predicted sentence has, except sentences the old run
    paired by their sent_id (taking a gold sentence by sent_id or by text
    needs its text, a sentence paired by sent_id goes on being so, and the
    stream has passed both).  What differs is then only which gold
    sentences end up missing."""

    def __init__(self, unit: int, start: int, last: int, old_system: list[SentenceInfo],
                 old_units: list[Unit], old_unit_of: list[int], system: list[SentenceInfo],
                 gold: list[SentenceInfo], by_id: dict[str, int]) -> None:
        self.unit = unit              # the first old unit made again
        self.start = start            # its first predicted sentence
        self.last = last              # the last edited sentence
        self.old_system = old_system
        self._old_units = old_units
        self._system, self._gold, self._by_id = system, gold, by_id
        self._old_unit_of = old_unit_of
        self._next = unit             # the first old unit past the predicted sentences seen
        self._old_gold: set[int] = set()
        self._taken: set[int] = set()   # in the new run's gold and not (yet) in the old one's
        self._freed: set[int] = set()   # the other way round
        self._old_stream = 1 + max((max(u.gold) for u in old_units[:unit] if u.kind == PAIRED), default=-1)
        self._new_gold: set[int] = set()
        self._seen = unit             # new units looked at so far
        self._given_later: dict[int, int] = {}
        self._wanted_later: dict[int, int] = {}
        self.rest: list[Unit] = []    # the old units that follow, MISSING ones left out
        self.taken: set[int] = set()  # gold sentences taken now and not before
        self.freed: set[int] = set()  # and free now, taken before

    def in_step(self, units: list[Unit], end: int, stream: int) -> bool:
        """Whether the old units from predicted sentence ``end`` on can follow
        the new ``units``, the new pairer's stream going on at ``stream``."""
        old = self._old_units
        while self._next < len(old) and old[self._next].kind != MISSING and \
                min(old[self._next].system) < end:
            if old[self._next].kind == PAIRED:
                for j in old[self._next].gold:
                    self._old_gold.add(j)
                    if j in self._new_gold:
                        self._taken.discard(j)
                    else:
                        self._freed.add(j)
                self._old_stream = max(self._old_stream, max(old[self._next].gold) + 1)
            self._next += 1
        for unit in units[self._seen:]:
            if unit.kind == PAIRED:
                for j in unit.gold:
                    self._new_gold.add(j)
                    if j in self._old_gold:
                        self._freed.discard(j)
                    else:
                        self._taken.add(j)
        self._seen = len(units)
        following = old[self._next] if self._next < len(old) else None
        if following is not None and following.kind != MISSING and min(following.system) != end:
            return False
        # The old pairing was idle there only after a chunk it paired: the
        # sentences of a chunk that failed are made unmatched one by one,
        # later, when the sentence that failed it comes.
        if old[self._next - 1].kind != PAIRED or stream != self._old_stream:
            return False
        taken, freed = set(self._taken), set(self._freed)
        if any(self._given_by_old(j) >= self._next for j in taken) or \
                any(self._wanted(j) >= end for j in freed):
            return False
        self.rest = [u for u in old[self._next:] if u.kind != MISSING]
        self.taken, self.freed = taken, freed
        return True

    def old_units_missing(self) -> list[Unit]:
        return [u for u in self._old_units if u.kind == MISSING]

    def _given_by_old(self, j: int) -> int:
        """The last old unit that took gold sentence ``j`` (-1: none)."""
        if j not in self._given_later:
            self._given_later[j] = max((u for u in range(self.unit, len(self._old_units))
                                        if self._old_units[u].kind == PAIRED and j in self._old_units[u].gold),
                                       default=-1)
        return self._given_later[j]

    def _wanted(self, j: int) -> int:
        """The last predicted sentence with gold sentence ``j``'s text that the
        old run did not pair by its sent_id (-1: none)."""
        if j not in self._wanted_later:
            text = self._gold[j].chars
            self._wanted_later[j] = max((k for k, info in enumerate(self._system)
                                         if info.chars == text and not self._paired_by_id(k, info)), default=-1)
        return self._wanted_later[j]

    def _paired_by_id(self, k: int, info: SentenceInfo) -> bool:
        """Whether the old run paired predicted sentence ``k`` alone with the
        gold sentence its sent_id names (then step 1 did: it comes first)."""
        u = self._old_unit_of[k] if k < len(self._old_unit_of) else -1
        if u < 0 or info.sent_id is None:
            return False
        unit = self._old_units[u]
        return unit.kind == PAIRED and len(unit.system) == 1 and unit.gold == [self._by_id.get(info.sent_id)]
