"""The segmentation runner of ``annoscore evaluate`` (``--format space|tsv``, ``--pos``)."""

from __future__ import annotations

import argparse
import json
import sys

from annoscore.scorer.lines import errors
from annoscore.scorer.outcomes import OutcomeList
from annoscore.scorer.report import Signature, file_sha256
from annoscore.scorer.segmentation.evaluate import OUTCOME_METRICS, evaluate_files
from annoscore.scorer.segmentation.report import segmentation_json, segmentation_text
from annoscore.scorer.segmentation.tokens import SegmentationOptions

from . import final
from .errors import InputError, UsageError
from .hints import print_hints, segmentation_hints
from .inputs import InputFile
from .inputs import infer_format
from .options import CONLLU_ONLY, outcome_metric, refuse_options, save_outcomes


def segmentation_format(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> str:
    """The format asked for; when it was inferred from PRED's name, gold's
    name must not suggest another one."""
    fmt = infer_format(pred.name, args.format, pred.path)
    if args.format is None:
        try:
            gold_fmt = infer_format(gold.name, None, gold.path)
        except UsageError:
            return fmt
        if gold_fmt != fmt:
            raise UsageError(f"{pred.name} looks like '{fmt}' but {gold.name} like '{gold_fmt}'; "
                             f"give --format")
    return fmt


def run(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> int:
    fmt = segmentation_format(args, pred, gold)
    refuse_options(args, fmt, CONLLU_ONLY)
    metric = outcome_metric(args, OUTCOME_METRICS, "Word")
    if metric == "TaggedWord" and not args.pos:
        raise UsageError("--metric TaggedWord needs --pos")
    options = SegmentationOptions(fmt, args.pos)
    try:
        result = evaluate_files(pred.path, gold.path, options, metric)
    except OSError as error:
        raise InputError(gold.shown(pred.shown(f"{error.filename}: {error.strerror}"))) from None
    print_hints("evaluate", segmentation_hints(pred.path, gold.path, fmt, args.pos,
                                               bool(result.mismatched) or result.pairing_error is not None))
    for path, problems in ((pred.name, result.system_file_problems), (gold.name, result.gold_file_problems)):
        bad = errors(problems)
        if bad:
            more = f" (and {len(bad) - 1} more lines)" if len(bad) > 1 else ""
            raise InputError(f"{bad[0].location(path)}: {bad[0].message}{more}")
    if result.pairing_error is not None:
        raise InputError(f"{pred.name}:{result.pairing_error.line + 1}: {result.pairing_error.message}")

    signature = Signature(fmt, {"pos": args.pos, "paired_by": result.paired_by})
    signature.add_file("pred", pred.name, file_sha256(pred.path))
    signature.add_file("gold", gold.name, file_sha256(gold.path))
    final.mark(args, signature)
    if metric is not None:
        outcomes = OutcomeList(format=fmt + ("+pos" if args.pos else ""), metric=metric,
                               gold_path=gold.name, gold_sha256=signature.files["gold"]["sha256"],
                               system_path=pred.name, system_sha256=signature.files["pred"]["sha256"],
                               outcomes=result.outcomes or "")
        save_outcomes(outcomes, args.save_errors, "words")
    if args.json:
        json.dump(segmentation_json(result, signature), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(segmentation_text(result, signature))
    return 0
