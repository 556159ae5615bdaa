"""Raw counts of the CoNLL 2018 metrics, and the scores made from them.

Every metric is four numbers, as in the official ``--counts`` output: how many
words (tokens, sentences, relations) are correct, how many gold and system
ones there are, and how many were aligned (for metrics computed on aligned
words).  Counts of separate chunks add up, which is what makes per-sentence
caching and incremental rescoring exact.
"""

from __future__ import annotations

from dataclasses import dataclass

# The metrics, in the official order.
METRICS = ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
           "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS")
# --strict: all features, the full relation.
STRICT_METRICS = ("UFeatsAll", "AllTagsAll", "LASFull")

# Positions in Counts.values.
(TOKENS_CORRECT, TOKENS_GOLD, TOKENS_SYSTEM,
 SENTENCES_CORRECT, SENTENCES_GOLD, SENTENCES_SYSTEM,
 WORDS_GOLD, WORDS_SYSTEM, WORDS_ALIGNED,
 UPOS, XPOS, UFEATS, ALLTAGS, LEMMAS, UAS, LAS, UFEATS_ALL, ALLTAGS_ALL, LAS_FULL,
 CONTENT_GOLD, CONTENT_SYSTEM, CONTENT_ALIGNED, CLAS, MLAS, BLEX,
 EDEPS_GOLD, EDEPS_SYSTEM, ELAS, EULAS) = range(29)
N_VALUES = 29

_WORD_INDEX = {"UPOS": UPOS, "XPOS": XPOS, "UFeats": UFEATS, "AllTags": ALLTAGS, "Lemmas": LEMMAS,
               "UAS": UAS, "LAS": LAS, "UFeatsAll": UFEATS_ALL, "AllTagsAll": ALLTAGS_ALL,
               "LASFull": LAS_FULL}
_CONTENT_INDEX = {"CLAS": CLAS, "MLAS": MLAS, "BLEX": BLEX}


@dataclass(frozen=True, slots=True)
class Score:
    """One metric: raw counts and the proportions made from them.

    Precision, recall and F1 are 0.0 when their denominator is 0, as in the
    official script; aligned accuracy is None when the metric has none or no
    word was aligned.
    """

    correct: int
    gold_total: int
    system_total: int
    aligned_total: int | None = None

    @property
    def precision(self) -> float:
        return self.correct / self.system_total if self.system_total else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold_total if self.gold_total else 0.0

    @property
    def f1(self) -> float:
        total = self.system_total + self.gold_total
        return 2 * self.correct / total if total else 0.0

    @property
    def aligned_accuracy(self) -> float | None:
        return self.correct / self.aligned_total if self.aligned_total else None


def metric_columns(metric: str) -> tuple[int, int, int]:
    """Where a metric's correct, gold and system counts are in
    `Counts.values` (what its precision, recall and F1 are made of)."""
    if metric == "Tokens":
        return TOKENS_CORRECT, TOKENS_GOLD, TOKENS_SYSTEM
    if metric == "Sentences":
        return SENTENCES_CORRECT, SENTENCES_GOLD, SENTENCES_SYSTEM
    if metric == "Words":
        return WORDS_ALIGNED, WORDS_GOLD, WORDS_SYSTEM
    if metric in _WORD_INDEX:
        return _WORD_INDEX[metric], WORDS_GOLD, WORDS_SYSTEM
    if metric in _CONTENT_INDEX:
        return _CONTENT_INDEX[metric], CONTENT_GOLD, CONTENT_SYSTEM
    if metric in ("ELAS", "EULAS"):
        return (ELAS if metric == "ELAS" else EULAS), EDEPS_GOLD, EDEPS_SYSTEM
    raise KeyError(metric)


class Counts:
    """The 29 raw numbers behind all metrics; add them with ``+=``."""

    __slots__ = ("values",)

    def __init__(self, values: list[int] | None = None) -> None:
        self.values = values if values is not None else [0] * N_VALUES

    def __iadd__(self, other: "Counts") -> "Counts":
        self.values = [a + b for a, b in zip(self.values, other.values)]
        return self

    def __add__(self, other: "Counts") -> "Counts":
        return Counts([a + b for a, b in zip(self.values, other.values)])

    def __sub__(self, other: "Counts") -> "Counts":
        return Counts([a - b for a, b in zip(self.values, other.values)])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and self.values == other.values

    def __repr__(self) -> str:
        return f"Counts({self.values})"

    def score(self, metric: str) -> Score:
        v = self.values
        if metric == "Tokens":
            return Score(v[TOKENS_CORRECT], v[TOKENS_GOLD], v[TOKENS_SYSTEM])
        if metric == "Sentences":
            return Score(v[SENTENCES_CORRECT], v[SENTENCES_GOLD], v[SENTENCES_SYSTEM])
        if metric == "Words":
            return Score(v[WORDS_ALIGNED], v[WORDS_GOLD], v[WORDS_SYSTEM])
        if metric in _WORD_INDEX:
            return Score(v[_WORD_INDEX[metric]], v[WORDS_GOLD], v[WORDS_SYSTEM], v[WORDS_ALIGNED])
        if metric in _CONTENT_INDEX:
            return Score(v[_CONTENT_INDEX[metric]], v[CONTENT_GOLD], v[CONTENT_SYSTEM],
                         v[CONTENT_ALIGNED])
        if metric == "ELAS":
            return Score(v[ELAS], v[EDEPS_GOLD], v[EDEPS_SYSTEM])
        if metric == "EULAS":
            return Score(v[EULAS], v[EDEPS_GOLD], v[EDEPS_SYSTEM])
        raise KeyError(metric)

    def scores(self, strict: bool = False) -> dict[str, Score]:
        names = METRICS + STRICT_METRICS if strict else METRICS
        return {name: self.score(name) for name in names}
