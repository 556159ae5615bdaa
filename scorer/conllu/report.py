"""CoNLL-U results as a table for people and as JSON for programs.

The JSON shape is a contract (see the README): ``{"metrics": {NAME: {...}},
"sentences": {...}, "signature": {...}}`` with proportions in [0, 1] and raw
counts beside them.
"""

from __future__ import annotations

from typing import Any

from ..file_problems import file_problem_lines
from ..excerpt import identifier, quoted
from ..problems import Problem
from ..report import Signature, percent, proportion, render_table
from ..stats import CalibrationTable, ThresholdReport, wilson_interval
from .counts import METRICS, STRICT_METRICS, Score
from .evaluate import ConlluOptions, ConlluResult, RefList, SentenceRef


def conllu_signature(pred_name: str, gold_name: str, options: ConlluOptions,
                     pred_sha256: str, gold_sha256: str) -> Signature:
    """The signature of one pair's result: the options that change numbers
    and both files' SHA-256."""
    signature = Signature("conllu", {
        "strict": options.strict,
        "predicted_only": options.predicted_only,
        "annotated_only": options.annotated_only,
    })
    if options.threshold is not None:
        signature.options["threshold"] = options.threshold
    signature.add_file("pred", pred_name, pred_sha256)
    signature.add_file("gold", gold_name, gold_sha256)
    return signature


def metric_names(strict: bool) -> tuple[str, ...]:
    return METRICS + STRICT_METRICS if strict else METRICS


def score_json(score: Score) -> dict[str, Any]:
    precision_ci = wilson_interval(score.correct, score.system_total)
    recall_ci = wilson_interval(score.correct, score.gold_total)
    return {
        "precision": proportion(score.precision),
        "recall": proportion(score.recall),
        "f1": proportion(score.f1),
        "aligned_accuracy": proportion(score.aligned_accuracy),
        "correct": score.correct,
        "gold_total": score.gold_total,
        "system_total": score.system_total,
        "aligned_total": score.aligned_total,
        "precision_ci95": None if precision_ci is None else [proportion(x) for x in precision_ci],
        "recall_ci95": None if recall_ci is None else [proportion(x) for x in recall_ci],
    }


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {"code": problem.code, "message": problem.message, "line": problem.line + 1,
            "column": problem.start + 1}


def _ref_json(ref: SentenceRef) -> dict[str, Any]:
    out: dict[str, Any] = {"sent_id": ref.sent_id, "line": ref.line + 1}
    if ref.reasons:
        out["reasons"] = [_problem_json(p) for p in ref.reasons]
    if ref.mismatch is not None:
        out["text"] = ref.mismatch.system_text
        out["gold_text"] = ref.mismatch.gold_text
        out["offset"] = ref.mismatch.offset
    return out


def _list_json(refs: RefList) -> dict[str, Any]:
    return {"count": refs.count, "first": [_ref_json(r) for r in refs.items]}


def calibration_json(table: CalibrationTable) -> dict[str, Any]:
    def bins_json(bins):
        return [{"range": [table.edges[i], table.edges[i + 1]], "cells": b.cells,
                 "accuracy": proportion(b.accuracy), "mean_confidence": proportion(b.mean_confidence)}
                for i, b in enumerate(bins)]

    pooled = table.pooled()
    return {
        "bins": bins_json(pooled),
        "ece": proportion(table.expected_calibration_error(pooled)),
        "columns": {column: {"bins": bins_json(bins), "ece": proportion(table.expected_calibration_error(bins))}
                    for column, bins in table.columns.items()},
    }


def threshold_json(report: ThresholdReport) -> dict[str, Any]:
    return {
        "threshold": report.threshold,
        "below": report.below,
        "below_accuracy": proportion(report.below_correct / report.below if report.below else None),
        "above": report.above,
        "above_accuracy": proportion(report.above_correct / report.above if report.above else None),
        "errors_below": report.errors_below,
        "errors_total": report.errors_total,
    }


NO_CONFIDENCES = "the prediction has no confidences (no Conf= in MISC)"


def notes(result: ConlluResult) -> list[str]:
    """What a reader must know to read the figures right: metrics with
    nothing to score, options with nothing to work on."""
    out = []
    elas = result.counts.score("ELAS")
    if not elas.gold_total:
        out.append("ELAS and EULAS: gold has no enhanced dependencies (DEPS is _ everywhere), so there is "
                   "nothing to score; they are 0 as in the official script")
    elif not elas.system_total:
        out.append("ELAS and EULAS: the prediction has no enhanced dependencies (DEPS is _ everywhere)")
    threshold = result.threshold
    if result.calibration is not None and not any(b.cells for b in result.calibration.pooled()) \
            or threshold is not None and not threshold.below + threshold.above:
        option = "--calibration" if result.calibration is not None else "--threshold"
        if result.calibration is not None and threshold is not None:
            option = "--calibration and --threshold"
        out.append(f"{option}: {NO_CONFIDENCES}, so there is nothing to measure")
    return out


def conllu_json(result: ConlluResult, signature: Signature) -> dict[str, Any]:
    names = metric_names(result.options.strict)
    out: dict[str, Any] = {
        "metrics": {name: score_json(result.counts.score(name)) for name in names},
        "sentences": {
            "gold": result.gold_sentences,
            "system": result.system_sentences,
            "scored_gold": result.scored_gold_sentences,
            "scored_system": result.scored_system_sentences,
            "missing": _list_json(result.missing),
            "unparsed": _list_json(result.unparsed),
            "refused": _list_json(result.refused),
            "unmatched": _list_json(result.unmatched),
            "excluded": _list_json(result.excluded),
            "gold_refused": _list_json(result.gold_refused),
        },
        "official_would_refuse": result.official_would_refuse,
        "file_problems": {
            "system": [_problem_json(p) for p in result.system_file_problems],
            "gold": [_problem_json(p) for p in result.gold_file_problems],
        },
        "notes": notes(result),
        "signature": signature.as_dict(),
    }
    if result.calibration is not None:
        out["calibration"] = calibration_json(result.calibration)
    if result.threshold is not None:
        out["threshold"] = threshold_json(result.threshold)
    return out


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------


def _range(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"{percent(ci[0])}-{percent(ci[1])}"


def metrics_table(result: ConlluResult, counts: bool = False) -> str:
    """The official script's table; with ``counts``, also the raw counts and
    the 95% Wilson intervals of precision and recall (as in the JSON)."""
    headers = ["Metric", "Precision", "Recall", "F1", "AlignedAcc"]
    if counts:
        headers += ["Correct", "Gold", "Predicted", "Aligned", "P 95% CI", "R 95% CI"]
    rows = []
    for name in metric_names(result.options.strict):
        score = result.counts.score(name)
        row = [name, percent(score.precision), percent(score.recall), percent(score.f1),
               percent(score.aligned_accuracy)]
        if counts:
            row += [score.correct, score.gold_total, score.system_total,
                    "" if score.aligned_total is None else score.aligned_total,
                    _range(wilson_interval(score.correct, score.system_total)),
                    _range(wilson_interval(score.correct, score.gold_total))]
        rows.append(row)
    return render_table(headers, rows)


def _describe(ref: SentenceRef) -> str:
    where = f"line {ref.line + 1}"
    if ref.sent_id is not None:
        where += f" ({identifier(ref.sent_id)})"
    return where


def _list_lines(title: str, refs: RefList, detail=None, count_in_title: bool = False) -> list[str]:
    if not refs.count:
        return []
    lines = [f"{title}:" if count_in_title else f"{title}: {refs.count}"]
    for ref in refs.items:
        text = "  " + _describe(ref)
        if detail is not None:
            text += ": " + detail(ref)
        lines.append(text)
    if refs.count > len(refs.items):
        lines.append(f"  ... and {refs.count - len(refs.items)} more")
    return lines


def _reasons(ref: SentenceRef) -> str:
    seen = []
    for p in ref.reasons:
        text = f"{p.code} (line {p.line + 1})"
        if text not in seen:
            seen.append(text)
    return ", ".join(seen[:4]) + (" ..." if len(seen) > 4 else "")


def _mismatch(ref: SentenceRef) -> str:
    m = ref.mismatch
    if m is None:
        return "text differs from gold"
    if m.gold_text is None:
        return f"no gold text left for {quoted(m.system_text)}"
    return (f"text differs from gold at character {m.offset + 1}: {quoted(m.system_text)} "
            f"vs gold {quoted(m.gold_text)}")


def calibration_table(table: CalibrationTable) -> str:
    pooled = table.pooled()
    if not any(b.cells for b in pooled):
        return f"Calibration: {NO_CONFIDENCES}."
    labels = table.bin_labels()
    columns = [c for c in ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL") if c in table.columns]
    headers = ["Confidence", "Cells", "Accuracy", "MeanConf"] + columns
    rows = []
    for i, label in enumerate(labels):
        b = pooled[i]
        row = [label, b.cells, percent(b.accuracy, 1), percent(b.mean_confidence, 1)]
        for column in columns:
            cb = table.columns[column][i]
            row.append(f"{percent(cb.accuracy, 1)} ({cb.cells})" if cb.cells else "")
        rows.append(row)
    ece = table.expected_calibration_error(pooled)
    per_column = ", ".join(f"{c} {percent(table.expected_calibration_error(table.columns[c]), 2)}"
                           for c in columns)
    return (render_table(headers, rows) + "\n"
            + f"Expected calibration error: {percent(ece, 2)} points (pooled); {per_column}")


def threshold_lines(report: ThresholdReport) -> list[str]:
    total = report.below + report.above
    if not total:
        return [f"Cells below confidence {report.threshold:g}: none counted, {NO_CONFIDENCES}."]
    lines = [f"Cells below confidence {report.threshold:g}: {report.below} of {total}"]
    if report.below:
        lines.append(f"  right {percent(report.below_correct / report.below, 1)}% of the time; "
                     f"checking them finds {report.errors_below} of the {report.errors_total} wrong cells"
                     + (f" ({percent(report.errors_below / report.errors_total, 1)}%)" if report.errors_total else ""))
    if report.above:
        lines.append(f"Cells at or above it: right {percent(report.above_correct / report.above, 1)}% of the time")
    return lines


def conllu_text(result: ConlluResult, signature: Signature, counts: bool = False) -> str:
    lines = [metrics_table(result, counts), ""]
    enhanced = [f"Note: {note}." for note in notes(result) if note.startswith("ELAS")]
    lines += enhanced + ([""] if enhanced else [])
    lines.append(f"Sentences: {result.gold_sentences} in gold, {result.system_sentences} predicted, "
                 f"{result.scored_system_sentences} predicted sentences scored against "
                 f"{result.scored_gold_sentences} gold sentences.")
    if result.options.ignore_missing and result.missing.count:
        lines.append(f"Left out: {result.missing.count} gold sentences not in the prediction.")
    lines += _list_lines("Gold sentences missing from the prediction"
                         + ("" if result.options.ignore_missing else " (counted against recall)"),
                         result.missing)
    lines += _list_lines("Predicted sentences not parsed yet"
                         + (" (left out)" if result.options.annotated_only else
                            " (their attachments count as wrong)"), result.unparsed)
    if result.excluded.count and not result.unparsed.count:
        lines += _list_lines("Left out as not fully parsed", result.excluded)
    lines += _list_lines("Predicted sentences whose text is not gold's (scored as unaligned)",
                         result.unmatched, _mismatch)
    if result.refused.count:
        n = result.refused.count
        lines += _list_lines(f"The official scorer would refuse {n} sentence{'s' if n != 1 else ''}",
                             result.refused, _reasons, count_in_title=True)
    if result.gold_refused.count:
        lines += _list_lines("The official scorer would refuse these gold sentences",
                             result.gold_refused, _reasons)
    for role, key, problems in (("prediction", "pred", result.system_file_problems),
                                ("gold", "gold", result.gold_file_problems)):
        lines += file_problem_lines(role, problems, signature.files.get(key, {}).get("path"))
    if result.conf_problems.count:
        lines += _list_lines("Malformed Conf values", result.conf_problems,
                             lambda ref: ref.reasons[0].message)
    if result.calibration is not None:
        lines += ["", calibration_table(result.calibration)]
    if result.threshold is not None:
        lines += [""] + threshold_lines(result.threshold)
    lines += ["", f"Signature: {signature}"]
    return "\n".join(lines)
