"""Label counts that add up, and every measure made from them.

Everything comes from three tallies, so that the counts of separate items
add up (an editor keeps file totals as "sum - old item + new item"):

- ``pairs``: how many items have each (gold label, predicted label);
- ``unpredicted``: gold items without a prediction, by gold label;
- ``extra``: predicted items without a gold item.

From them, over the **gold classes** (the labels gold uses):

- support of a class: its gold items; predicted: the items predicted as it;
  correct: the items with that label on both sides;
- per class precision = correct / predicted, recall = correct / support,
  F1 = 2PR / (P + R), each 0.0 when its denominator is 0;
- accuracy = all correct / all gold items: a gold item without a
  prediction, or with a label gold never uses, is wrong;
- macro recall and macro F1: the plain mean over the gold classes, so a
  class never predicted has recall 0 and still counts (WMT 2016's primary
  measure is the macro recall);
- baselines: always answering the most frequent gold class (its accuracy,
  and its macro recall, which is 1/C), and 1/C, the expected accuracy and
  macro recall of guessing uniformly among C classes.  Ties for the most
  frequent class go to the label that sorts first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..measures import PrecisionRecallF1
from ..stats import wilson_interval


def _add_into(target: Counter, other: Counter, sign: int) -> None:
    for key, n in other.items():
        value = target.get(key, 0) + sign * n
        if value:
            target[key] = value
        else:
            target.pop(key, None)


@dataclass
class LabelCounts:
    pairs: Counter = field(default_factory=Counter)        # (gold, predicted) -> items
    unpredicted: Counter = field(default_factory=Counter)  # gold label -> items without prediction
    extra: int = 0                                         # predicted items without a gold item

    def __add__(self, other: "LabelCounts") -> "LabelCounts":
        out = LabelCounts(Counter(self.pairs), Counter(self.unpredicted), self.extra + other.extra)
        _add_into(out.pairs, other.pairs, 1)
        _add_into(out.unpredicted, other.unpredicted, 1)
        return out

    def __sub__(self, other: "LabelCounts") -> "LabelCounts":
        out = LabelCounts(Counter(self.pairs), Counter(self.unpredicted), self.extra - other.extra)
        _add_into(out.pairs, other.pairs, -1)
        _add_into(out.unpredicted, other.unpredicted, -1)
        return out

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, LabelCounts) and +self.pairs == +other.pairs
                and +self.unpredicted == +other.unpredicted and self.extra == other.extra)

    def support(self) -> Counter:
        out: Counter = Counter()
        for (gold, _), n in self.pairs.items():
            out[gold] += n
        out.update(self.unpredicted)
        return +out

    def predicted(self) -> Counter:
        out: Counter = Counter()
        for (_, predicted), n in self.pairs.items():
            out[predicted] += n
        return +out

    def scores(self) -> "LabelScores":
        return LabelScores.from_counts(self)


@dataclass(frozen=True)
class Baselines:
    majority_label: str | None
    majority_accuracy: float
    majority_macro_recall: float
    uniform: float  # 1/C


@dataclass(frozen=True)
class LabelScores:
    correct: int
    total: int                      # gold items
    per_class: dict[str, PrecisionRecallF1]     # gold classes, sorted by label
    unknown: dict[str, int]         # predicted labels gold never uses -> items
    baselines: Baselines

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0

    @property
    def accuracy_ci95(self) -> tuple[float, float] | None:
        return wilson_interval(self.correct, self.total)

    @property
    def macro_recall(self) -> float:
        return sum(s.recall for s in self.per_class.values()) / len(self.per_class) if self.per_class else 0.0

    @property
    def macro_f1(self) -> float:
        return sum(s.f1 for s in self.per_class.values()) / len(self.per_class) if self.per_class else 0.0

    @classmethod
    def from_counts(cls, counts: LabelCounts) -> "LabelScores":
        support = counts.support()
        predicted = counts.predicted()
        classes = sorted(support)
        per_class = {c: PrecisionRecallF1(counts.pairs.get((c, c), 0), support[c], predicted.get(c, 0)) for c in classes}
        correct = sum(s.correct for s in per_class.values())
        total = sum(support.values())
        unknown = {label: n for label, n in sorted(predicted.items()) if label not in support}
        if classes:
            top = max(support.values())
            majority = min(c for c in classes if support[c] == top)
            baselines = Baselines(majority, support[majority] / total, 1 / len(classes), 1 / len(classes))
        else:
            baselines = Baselines(None, 0.0, 0.0, 0.0)
        return cls(correct, total, per_class, unknown, baselines)
