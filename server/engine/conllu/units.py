"""Units: the sentences counted together, with their counts.

A unit is what `IncrementalScore` counts at once: one chunk of the pairing
(gold and predicted sentences paired, counted together), one predicted
sentence whose text gold does not have, or one gold sentence the prediction
lacks.  Its counts are kept so that a later pass reuses them when its
sentences did not change; its ``key`` (the identities of the sentence
infos it was counted from) says whether they did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from annoscore.scorer.conllu.counts import Counts
from annoscore.scorer.conllu.pairing import Mismatch
from annoscore.scorer.problems import Problem

from .analysis import NONE, SentenceInfo


@dataclass(slots=True, eq=False)
class Unit:
    """Sentences counted together: gold positions, predicted positions, counts."""

    kind: str                 # PAIRED, UNMATCHED or MISSING
    gold: list[int]
    system: list[int]
    # None: a plain pair counted in bulk, in the score's ``bulk_totals``
    # (its own counts are made when it is edited).
    counts: Counts | None
    clean: bool = True
    key: tuple = ()           # identities of the infos it was counted from (none when counted in bulk)
    problems: Sequence[Sequence[Problem]] = NONE  # per system sentence
    mismatch: Mismatch | None = None  # UNMATCHED: where the text differs


def unit_key(gold: Sequence[SentenceInfo], system: Sequence[SentenceInfo]) -> tuple:
    return tuple(map(id, gold)) + ("|",) + tuple(map(id, system))
