"""Label results as a table for people and as JSON for programs.

The JSON shape is a contract::

    {"metrics": {"Accuracy": {"value", "correct", "total", "ci95"},
                 "MacroRecall": {"value"}, "MacroF1": {"value"}},
     "per_class": {LABEL: {"precision", "recall", "f1", "support"}},
     "confusion": {GOLD: {PRED: count}},
     "baselines": {"majority": {"label", "accuracy", "macro_recall"}, "uniform": 1/C},
     "missing": [...], "signature": {...}}

Proportions are in [0, 1].  Per class there is also ``predicted`` and
``correct`` (the counts behind the proportions) and the Wilson intervals
``precision_ci95`` and ``recall_ci95``.  The confusion matrix has the paired
items only (gold rows; cells that are 0 left out).  ``missing`` lists
``{"missing_from": "prediction"|"gold", "id": ID or null, "line": N}``;
``unknown_labels`` lists predicted labels gold never uses.
"""

from __future__ import annotations

from typing import Any

from ..file_problems import file_problem_lines
from ..excerpt import excerpt, quoted
from ..problems import Problem
from ..report import Signature, percent, proportion, render_table
from .counts import LabelScores
from .evaluate import BY_ID, MISSING_FROM_PREDICTION, LabelResult, MissingItem

LISTED = 10          # missing items listed in the table (the JSON lists all)
MATRIX_COLUMNS = 12  # larger confusion matrices are shown as a list of the top confusions


def _interval(ci: tuple[float, float] | None) -> list[float | None] | None:
    return None if ci is None else [proportion(ci[0]), proportion(ci[1])]


def _missing_json(m: MissingItem) -> dict[str, Any]:
    return {"missing_from": m.missing_from, "id": m.id, "line": m.line + 1}


def _problem_json(p: Problem) -> dict[str, Any]:
    return {"code": p.code, "message": p.message, "line": p.line + 1, "column": p.start + 1}


def confusion(result: LabelResult) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (gold, predicted), n in sorted(result.counts.pairs.items()):
        out.setdefault(gold, {})[predicted] = n
    return out


def labels_json(result: LabelResult, signature: Signature) -> dict[str, Any]:
    scores = result.counts.scores()
    b = scores.baselines
    return {
        "metrics": {
            "Accuracy": {"value": proportion(scores.accuracy), "correct": scores.correct,
                         "total": scores.total, "ci95": _interval(scores.accuracy_ci95)},
            "MacroRecall": {"value": proportion(scores.macro_recall)},
            "MacroF1": {"value": proportion(scores.macro_f1)},
        },
        "per_class": {label: {"precision": proportion(s.precision), "recall": proportion(s.recall),
                              "f1": proportion(s.f1), "support": s.gold_total,
                              "predicted": s.system_total, "correct": s.correct,
                              "precision_ci95": _interval(s.precision_ci95),
                              "recall_ci95": _interval(s.recall_ci95)}
                      for label, s in scores.per_class.items()},
        "confusion": confusion(result),
        "baselines": {"majority": {"label": b.majority_label, "accuracy": proportion(b.majority_accuracy),
                                   "macro_recall": proportion(b.majority_macro_recall)},
                      "uniform": proportion(b.uniform)},
        "missing": [_missing_json(m) for m in result.missing],
        "unknown_labels": [{"label": label, "count": n, "line": result.unknown_first_line.get(label, -1) + 1}
                           for label, n in scores.unknown.items()],
        "items": {"gold": result.gold_items, "predicted": result.predicted_items,
                  "paired_by": result.paired_by},
        "file_problems": {"prediction": [_problem_json(p) for p in result.system_file_problems],
                          "gold": [_problem_json(p) for p in result.gold_file_problems]},
        "signature": signature.as_dict(),
    }


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------


def _range(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"{percent(ci[0])}-{percent(ci[1])}"


def summary_table(scores: LabelScores) -> str:
    b = scores.baselines
    majority = "" if b.majority_label is None else f"{percent(b.majority_accuracy)} ({quoted(b.majority_label)})"
    rows = [
        ["Accuracy", percent(scores.accuracy), _range(scores.accuracy_ci95), scores.correct, scores.total,
         majority, percent(b.uniform)],
        ["MacroRecall", percent(scores.macro_recall), "", "", "",
         percent(b.majority_macro_recall), percent(b.uniform)],
        ["MacroF1", percent(scores.macro_f1), "", "", "", "", ""],
    ]
    return render_table(["Metric", "Value", "95% CI", "Correct", "Total", "Majority class", "Uniform 1/C"],
                        rows)


def class_table(scores: LabelScores) -> str:
    rows = [[excerpt(label), percent(s.precision), percent(s.recall), percent(s.f1), s.gold_total, s.system_total,
             s.correct] for label, s in scores.per_class.items()]
    for label, n in scores.unknown.items():
        rows.append([excerpt(label) + " (not in gold)", "", "", "", 0, n, 0])
    return render_table(["Class", "Precision", "Recall", "F1", "Support", "Predicted", "Correct"], rows)


def confusion_lines(result: LabelResult, scores: LabelScores) -> list[str]:
    rows_labels = list(scores.per_class)
    columns = rows_labels + list(scores.unknown)
    pairs = result.counts.pairs
    if not columns:
        return []
    if len(columns) <= MATRIX_COLUMNS:
        rows = [[excerpt(gold)] + [pairs.get((gold, predicted), 0) or "." for predicted in columns]
                for gold in rows_labels]
        note = "; gold items without a prediction are not in it" if result.counts.unpredicted else ""
        return [f"Confusion matrix (rows: gold, columns: predicted{note}):",
                render_table(["gold \\ predicted"] + [excerpt(c) for c in columns], rows)]
    errors = sorted(((n, gold, predicted) for (gold, predicted), n in pairs.items() if gold != predicted),
                    key=lambda t: (-t[0], t[1], t[2]))
    lines = [f"Most frequent confusions ({len(columns)} labels, too many for a matrix; --json has it all):"]
    lines += [f"  {excerpt(gold)} -> {excerpt(predicted)}: {n}" for n, gold, predicted in errors[:2 * LISTED]]
    return lines


def labels_text(result: LabelResult, signature: Signature) -> str:
    scores = result.counts.scores()
    lines = [summary_table(scores), ""]
    lines.append(f"Items: {result.gold_items} in gold, {result.predicted_items} predicted, paired by "
                 + ("ID" if result.paired_by == BY_ID else "order (line by line)")
                 + f"; {len(scores.per_class)} gold classes.")
    unpredicted = [m for m in result.missing if m.missing_from == MISSING_FROM_PREDICTION]
    extra = [m for m in result.missing if m.missing_from != MISSING_FROM_PREDICTION]
    for title, items in (("Gold items without a prediction (counted as wrong)", unpredicted),
                         ("Predicted items gold does not have (not scored)", extra)):
        if items:
            lines.append(f"{title}: {len(items)}")
            lines += [f"  line {m.line + 1}" + (f" (ID {excerpt(m.id)})" if m.id is not None else "")
                      for m in items[:LISTED]]
            if len(items) > LISTED:
                lines.append(f"  ... and {len(items) - LISTED} more")
    if scores.unknown:
        lines.append("Predicted labels gold never uses (counted as wrong): "
                     + ", ".join(f"{quoted(label)} x{n} (first on line {result.unknown_first_line.get(label, -1) + 1})"
                                 for label, n in scores.unknown.items()))
    for role, key, problems in (("prediction", "pred", result.system_file_problems),
                                ("gold", "gold", result.gold_file_problems)):
        lines += file_problem_lines(role, problems, signature.files.get(key, {}).get("path"))
    lines += ["", class_table(scores), ""]
    lines += confusion_lines(result, scores)
    lines += ["", f"Signature: {signature}"]
    return "\n".join(lines)
