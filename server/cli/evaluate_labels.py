"""The labels runner of ``annoscore evaluate`` (``--format labels``)."""

from __future__ import annotations

import argparse
import json
import sys

from annoscore.scorer.labels.evaluate import evaluate_files
from annoscore.scorer.labels.table import table_spec
from annoscore.scorer.labels.report import labels_json, labels_text
from annoscore.scorer.lines import errors
from annoscore.scorer.outcomes import OutcomeList
from annoscore.scorer.report import Signature, file_sha256

from . import final
from .errors import InputError, UsageError
from .inputs import InputFile
from .options import CONLLU_ONLY, LABELS_SAVE_METRICS, outcome_metric, refuse_options, save_outcomes

OUTCOME_METRICS = LABELS_SAVE_METRICS


def run(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> int:
    refuse_options(args, "labels", CONLLU_ONLY)
    if args.pos:
        raise UsageError("--pos applies to segmentation files, not to --format labels")
    metric = outcome_metric(args, OUTCOME_METRICS, "Accuracy")
    try:
        tables = tuple(table_spec(f.name, args.text_column, args.label_column, args.id_column)
                       for f in (pred, gold))
        result = evaluate_files(pred.path, gold.path, outcomes=metric is not None, tables=tables)
    except OSError as error:
        raise InputError(gold.shown(pred.shown(f"{error.filename}: {error.strerror}"))) from None
    for path, problems in ((pred.name, result.system_file_problems), (gold.name, result.gold_file_problems)):
        bad = errors(problems)
        if bad:
            more = f" (and {len(bad) - 1} more problems)" if len(bad) > 1 else ""
            raise InputError(f"{bad[0].location(path)}: {bad[0].message}{more}")
    if not result.gold_items:
        raise InputError(f"{gold.name}: no items (expected one ID<TAB>LABEL or LABEL per line, "
                         "or a table with --text-column / a .csv file)")

    signature = Signature("labels", {"paired_by": result.paired_by})
    signature.add_file("pred", pred.name, file_sha256(pred.path))
    signature.add_file("gold", gold.name, file_sha256(gold.path))
    final.mark(args, signature)
    if metric is not None:
        outcomes = OutcomeList(format="labels", metric=metric,
                               gold_path=gold.name, gold_sha256=signature.files["gold"]["sha256"],
                               system_path=pred.name, system_sha256=signature.files["pred"]["sha256"],
                               outcomes=result.outcomes or "")
        save_outcomes(outcomes, args.save_errors, "items")
    if args.json:
        json.dump(labels_json(result, signature), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(labels_text(result, signature))
    return 0
