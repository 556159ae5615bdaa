"""Segmentation results as a table for people and as JSON for programs.

The JSON shape is a contract: ``{"metrics": {"Word": {...}, "Boundary":
{...}, "TaggedWord": {...}}, "sentences": N, "mismatched": [...],
"signature": {...}}``, each metric with ``precision, recall, f1, correct,
gold_total, system_total, precision_ci95, recall_ci95`` (proportions in
[0, 1], intervals as ``[low, high]`` or null), TaggedWord only with --pos.
Further keys say how lines were paired and what else was found: ``missing``,
``paired_by``, ``lines``, ``unknown_tags``, ``file_problems``.
"""

from __future__ import annotations

from typing import Any

from ..file_problems import file_problem_lines
from ..measures import PrecisionRecallF1
from ..problems import Problem
from ..report import Signature, percent, proportion, render_table
from .evaluate import MismatchedLine, SegmentationResult, TagProblems
from .score import describe_mismatch

LISTED = 10  # lines listed in the table beyond the counts (the JSON lists all)


def metric_names(result: SegmentationResult) -> tuple[str, ...]:
    return ("Word", "Boundary", "TaggedWord") if result.options.pos else ("Word", "Boundary")


def _interval(ci: tuple[float, float] | None) -> list[float | None] | None:
    return None if ci is None else [proportion(ci[0]), proportion(ci[1])]


def score_json(score: PrecisionRecallF1) -> dict[str, Any]:
    return {
        "precision": proportion(score.precision),
        "recall": proportion(score.recall),
        "f1": proportion(score.f1),
        "correct": score.correct,
        "gold_total": score.gold_total,
        "system_total": score.system_total,
        "precision_ci95": _interval(score.precision_ci95),
        "recall_ci95": _interval(score.recall_ci95),
    }


def _mismatch_json(m: MismatchedLine) -> dict[str, Any]:
    return {"line": m.line + 1, "gold_line": m.gold_line + 1, "offset": m.mismatch.offset,
            "column": m.mismatch.column + 1, "text": m.mismatch.text, "gold_text": m.mismatch.gold_text}


def _problem_json(p: Problem) -> dict[str, Any]:
    return {"code": p.code, "message": p.message, "line": p.line + 1, "column": p.start + 1}


def _tags_json(tags: TagProblems) -> dict[str, Any]:
    return {"count": tags.count, "first": [_problem_json(p) for p in tags.first]}


def segmentation_json(result: SegmentationResult, signature: Signature) -> dict[str, Any]:
    out: dict[str, Any] = {
        "metrics": {name: score_json(result.counts.score(name)) for name in metric_names(result)},
        "sentences": result.counts.sentences,
        "mismatched": [_mismatch_json(m) for m in result.mismatched],
        "missing": [{"gold_line": i + 1} for i in result.missing],
        "paired_by": result.paired_by,
        "lines": {"gold": result.gold_lines, "predicted": result.system_lines,
                  "gold_with_words": result.gold_sentences},
        "file_problems": {"prediction": [_problem_json(p) for p in result.system_file_problems],
                          "gold": [_problem_json(p) for p in result.gold_file_problems]},
        "signature": signature.as_dict(),
    }
    if result.options.pos:
        out["unknown_tags"] = {"prediction": _tags_json(result.system_tags),
                               "gold": _tags_json(result.gold_tags)}
    return out


def _range(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"{percent(ci[0])}-{percent(ci[1])}"


def metrics_table(result: SegmentationResult) -> str:
    rows = []
    for name in metric_names(result):
        s = result.counts.score(name)
        rows.append([name, percent(s.precision), percent(s.recall), percent(s.f1),
                     s.correct, s.gold_total, s.system_total,
                     _range(s.precision_ci95), _range(s.recall_ci95)])
    return render_table(["Metric", "Precision", "Recall", "F1", "Correct", "Gold", "Predicted",
                         "P 95% CI", "R 95% CI"], rows)


def _more(count: int) -> list[str]:
    return [f"  ... and {count - LISTED} more"] if count > LISTED else []


def segmentation_text(result: SegmentationResult, signature: Signature) -> str:
    lines = [metrics_table(result), ""]
    counts = result.counts
    lines.append(f"Sentences: {counts.sentences} scored, of {result.gold_sentences} gold lines with words.")
    if result.paired_by != "position":
        lines.append(f"Lines were paired by their text, not by position: the prediction has "
                     f"{result.system_lines} lines and gold {result.gold_lines}.")
    if result.missing:
        lines.append(f"Gold lines without a predicted line (their words count against recall): "
                     f"{len(result.missing)}")
        lines += [f"  gold line {i + 1}" for i in result.missing[:LISTED]] + _more(len(result.missing))
    if result.mismatched:
        lines.append(f"Predicted lines whose text is not gold's (left out of the scores): "
                     f"{len(result.mismatched)}")
        for m in result.mismatched[:LISTED]:
            where = f"line {m.line + 1}" + ("" if m.line == m.gold_line else f" (gold line {m.gold_line + 1})")
            lines.append(f"  {where}: {describe_mismatch(m.mismatch)}")
        lines += _more(len(result.mismatched))
        if len(result.mismatched) >= counts.sentences:
            lines.append(f"Most lines could not be scored: is --format {result.options.format}"
                         f"{' --pos' if result.options.pos else ''} right for these files? "
                         f"(labels files need --format labels)")
    for role, tags in (("prediction", result.system_tags), ("gold", result.gold_tags)):
        if tags.count:
            lines.append(f"Tags read as X in the {role} (not UD UPOS tags, or no /TAG): {tags.count}")
            lines += [f"  line {p.line + 1}, column {p.start + 1}: {p.message}" for p in tags.first]
            if tags.count > len(tags.first):
                lines.append(f"  ... and {tags.count - len(tags.first)} more")
    for role, key, problems in (("prediction", "pred", result.system_file_problems),
                                ("gold", "gold", result.gold_file_problems)):
        lines += file_problem_lines(role, problems, signature.files.get(key, {}).get("path"))
    lines += ["", f"Signature: {signature}"]
    return "\n".join(lines)
