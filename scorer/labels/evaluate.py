"""Scoring a labels file against gold.

Items are paired **by ID** when both files are ``ID<TAB>LABEL``, else **by
order** (the k-th item with the k-th item; with a plain ``LABEL`` file that
is the line number).  A gold item nothing was predicted for is *missing from
the prediction* and counts as wrong; a predicted item gold does not have is
*missing from gold* and cannot be scored.  Both are listed, as are predicted
labels gold never uses (they count as wrong, and as predictions of no gold
class).

The whole file is tallied at once (``Counter`` over the (gold, predicted)
pairs, in C), without an object per item; `score_item` does one item for an
editor, with the same counts, and the tests hold the two to equal sums.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from operator import eq
from typing import Container

from ..excerpt import quoted
from ..gcpause import gc_paused
from ..lines import decode_text
from ..problems import Problem, Severity
from .counts import LabelCounts
from .reader import LabelFile, LabelItem, parse_label_text
from .table import TableSpec, parse_table_text, text_mismatches
from ..reading import open_file

BY_ID = "id"
BY_ORDER = "order"
MISSING_FROM_PREDICTION = "prediction"
MISSING_FROM_GOLD = "gold"

_OUTCOME_CHARS = bytes.maketrans(b"\x00\x01", b"01")


@dataclass(frozen=True, slots=True)
class MissingItem:
    missing_from: str   # "prediction": a gold item without prediction; "gold": the other way round
    id: str | None      # None when items are paired by order
    line: int           # 0-based, in the file that has the item


@dataclass
class LabelResult:
    counts: LabelCounts = field(default_factory=LabelCounts)
    paired_by: str = BY_ID
    gold_items: int = 0
    predicted_items: int = 0
    missing: list[MissingItem] = field(default_factory=list)
    unknown_first_line: dict[str, int] = field(default_factory=dict)  # label -> 0-based predicted line
    gold_file_problems: list[Problem] = field(default_factory=list)
    system_file_problems: list[Problem] = field(default_factory=list)
    outcomes: str | None = None  # per gold item, in gold order: '1' right, '0' wrong or missing


def paired_by(gold: LabelFile, system: LabelFile) -> str:
    return BY_ID if gold.has_ids and system.has_ids else BY_ORDER


def predicted_for_gold(gold: LabelFile, system: LabelFile) -> tuple[list[str | None], list[int]]:
    """The predicted label of each gold item (None: not predicted), and the
    indices of predicted items that have no gold item."""
    if paired_by(gold, system) == BY_ID:
        assert gold.ids is not None and system.ids is not None
        if system.ids == gold.ids:  # the same items in the same order: nothing to look up
            return list(system.labels), []
        # Reversed, so that the first of duplicate IDs wins (duplicates are errors anyway).
        by_id = dict(zip(reversed(system.ids), reversed(system.labels)))
        predicted = list(map(by_id.get, gold.ids))
        if gold.unique_ids and len(predicted) - predicted.count(None) == len(by_id):
            return predicted, []  # every predicted ID was found in gold
        extra_ids = by_id.keys() - set(gold.ids)
        if not extra_ids:
            return predicted, []
        return predicted, [k for k, id_ in enumerate(system.ids) if id_ in extra_ids]
    n = len(gold.labels)
    predicted = list(system.labels[:n])
    predicted += [None] * (n - len(predicted))
    return predicted, list(range(n, len(system.labels)))


def evaluate_label_files(gold: LabelFile, system: LabelFile, outcomes: bool = False) -> LabelResult:
    """Score parsed files (see the module docstring)."""
    result = LabelResult(paired_by=paired_by(gold, system), gold_items=len(gold.labels),
                         predicted_items=len(system.labels))
    predicted, extra = predicted_for_gold(gold, system)
    pairs = Counter(zip(gold.labels, predicted))
    unpredicted: Counter = Counter()
    if None in predicted:
        for key in [key for key in pairs if key[1] is None]:
            unpredicted[key[0]] = pairs.pop(key)
        result.missing = [MissingItem(MISSING_FROM_PREDICTION, gold.ids[k] if gold.ids else None, gold.lines[k])
                          for k, p in enumerate(predicted) if p is None]
    result.missing += [MissingItem(MISSING_FROM_GOLD, system.ids[k] if system.ids and result.paired_by == BY_ID
                                   else None, system.lines[k]) for k in extra]
    result.counts = LabelCounts(pairs, unpredicted, len(extra))
    gold_classes = set(gold.labels)
    unknown = {label for (_, label) in pairs if label not in gold_classes}
    for label in sorted(unknown):
        result.unknown_first_line[label] = system.lines[system.labels.index(label)]
    if outcomes:
        right = bytes(map(eq, gold.labels, predicted))
        result.outcomes = right.translate(_OUTCOME_CHARS).decode("ascii")
    return result


def evaluate_files(system_path: str | os.PathLike[str], gold_path: str | os.PathLike[str],
                   outcomes: bool = False,
                   tables: tuple[TableSpec | None, TableSpec | None] = (None, None)) -> LabelResult:
    """Read and score two files.  Raises OSError only when a file cannot be
    read at all; format problems are in ``*_file_problems``.  ``tables``:
    how to read each file (system, gold) when it is a labelled text table
    (`scorer.labels.table`); paired items whose texts differ are then
    ``text-mismatch`` errors of the system file."""
    with gc_paused():
        gold, gold_problems = _read(gold_path, tables[1])
        system, system_problems = _read(system_path, tables[0])
        result = evaluate_label_files(gold, system, outcomes)
    result.gold_file_problems = gold_problems + gold.problems
    result.system_file_problems = system_problems + system.problems + \
        text_mismatches(gold, system, result.paired_by == BY_ID)
    return result


def _read(path: str | os.PathLike[str], table: TableSpec | None = None) -> tuple[LabelFile, list[Problem]]:
    with open_file(path) as f:
        text, problems = decode_text(f.read())
    return (parse_label_text(text) if table is None else parse_table_text(text, table)), problems


# --------------------------------------------------------------------------
# One item (for editors)
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemScore:
    """One item's share of the totals, its outcome and what to show.

    ``outcome`` is '1' or '0' for a gold item ('0' also when nothing was
    predicted for it) and '' for a predicted item gold does not have.
    ``problems`` are in the *predicted* line: ``label-mismatch`` (the label is not
    gold's; the message names gold's), ``unknown-label`` (gold never uses
    this label) and ``extra-item`` (no gold item for it).  A gold item
    without prediction has no place in the predicted file, so it has no
    problem here; its counts and outcome say it is missing.
    """

    counts: LabelCounts
    outcome: str
    problems: tuple[Problem, ...] = ()


def score_item(gold: LabelItem | None, predicted: LabelItem | None,
               gold_classes: Container[str]) -> ItemScore:
    """Score one item pair (one side may be None).  Pure: cache it by its arguments."""
    if gold is None and predicted is None:
        return ItemScore(LabelCounts(), "")
    if predicted is None:
        assert gold is not None
        return ItemScore(LabelCounts(unpredicted=Counter({gold.label: 1})), "0")
    if gold is None:
        where = (predicted.id_start, predicted.id_end) if predicted.id is not None else \
            (predicted.label_start, predicted.label_end)
        message = (f"no gold item has ID {quoted(predicted.id)}" if predicted.id is not None
                   else "gold has no item on this line")
        return ItemScore(LabelCounts(extra=1), "",
                         (Problem("extra-item", message, predicted.line, *where, Severity.WARNING),))
    problems = []
    span = (predicted.label_start, predicted.label_end)
    if predicted.label != gold.label:
        problems.append(Problem("label-mismatch", f"gold has {quoted(gold.label)}", predicted.line, *span,
                                Severity.WARNING))
    if predicted.label not in gold_classes:
        problems.append(Problem("unknown-label", f"gold never uses the label {quoted(predicted.label)}",
                                predicted.line, *span, Severity.WARNING))
    return ItemScore(LabelCounts(Counter({(gold.label, predicted.label): 1})),
                     "1" if predicted.label == gold.label else "0", tuple(problems))
