"""The CoNLL-U runner of ``annoscore evaluate``."""

from __future__ import annotations

import argparse
import json
import sys

from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files, unreadable_message
from annoscore.scorer.conllu.reader import BinaryFileError
from annoscore.scorer.conllu.report import conllu_json, conllu_signature, conllu_text
from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.outcomes import OutcomeList
from annoscore.scorer.report import Signature, file_sha256

from ..processes import PARALLEL_MIN_BYTES, default_jobs
from . import final
from .errors import InputError, UsageError
from .hints import conllu_swapped_hint, print_hints
from .inputs import InputFile
from .options import CONLLU_SAVE_METRICS, breakdown_kinds, save_outcomes
from .progress import Progress

SAVE_METRICS = CONLLU_SAVE_METRICS
BREAKDOWN_ROWS = 20  # rows of a long breakdown table (the JSON has them all)


def options_from(args: argparse.Namespace) -> ConlluOptions:
    metric = None
    if args.save_errors:
        metric = args.metric or "LAS"
        if metric not in SAVE_METRICS:
            raise UsageError(f"--metric {excerpt(metric)}: per-word lists exist for {', '.join(SAVE_METRICS)}")
    elif args.metric:
        raise UsageError("--metric only applies with --save-errors")
    if args.pos:
        raise UsageError("--pos applies to segmentation files, not CoNLL-U")
    return ConlluOptions(strict=args.strict, predicted_only=args.predicted_only,
                         annotated_only=args.annotated_only, calibration=args.calibration,
                         threshold=args.threshold, outcome_metric=metric)


def signature_for(pred: InputFile, gold: InputFile, options: ConlluOptions, result=None) -> Signature:
    return conllu_signature(pred.name, gold.name, options,
                            result.system_sha256 if result is not None else file_sha256(pred.path),
                            result.gold_sha256 if result is not None else file_sha256(gold.path))


def run(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> int:
    options = options_from(args)
    official = None
    if args.official:
        from ..official import OfficialRun, OfficialScriptError
        try:
            official = OfficialRun(args.official)
        except OfficialScriptError as error:
            raise InputError(str(error)) from None
    breakdown = None
    kinds = breakdown_kinds(args)
    if kinds or args.confusions:
        from annoscore.scorer.conllu.breakdown import BreakdownCollector
        breakdown = BreakdownCollector(kinds, args.confusions or 0)
    progress = Progress(f"Scoring {pred.name}", _size(pred.path))
    try:
        result = None
        jobs = args.jobs if args.jobs is not None else default_jobs()
        if (official is None and breakdown is None and jobs > 1
                and min(_size(pred.path), _size(gold.path)) >= PARALLEL_MIN_BYTES):
            from ..parallel import evaluate_in_parallel  # (multiprocessing: only when it runs)

            progress.note(f"(in {jobs} processes)")
            result = evaluate_in_parallel(pred.path, gold.path, options, jobs, progress=progress.update)
        if result is None:
            result = evaluate_files(pred.path, gold.path, options, progress.update, official,
                                    detail_sink=breakdown)
    except BinaryFileError as error:
        raise InputError(gold.shown(pred.shown(str(error)))) from None
    except UnicodeDecodeError as error:  # pragma: no cover - the reader reports these itself
        raise InputError(f"{error}") from None
    except OSError as error:
        raise InputError(gold.shown(pred.shown(f"{error.filename}: {error.strerror}"))) from None
    finally:
        progress.done()
    unreadable = result.unreadable_file()
    if unreadable is not None:
        side, problem = unreadable
        raise InputError(unreadable_message((pred if side == "system" else gold).name, problem))
    gold_unparsed = any(p.code == "unparsed" for ref in result.gold_refused.items for p in ref.reasons)
    print_hints("evaluate", conllu_swapped_hint(pred.path, gold.path, result.unparsed.count, gold_unparsed))
    signature = signature_for(pred, gold, options, result)
    final.mark(args, signature)
    official_table = official.run() if official is not None else None
    if args.save_errors:
        outcomes = OutcomeList.from_bools(
            result.outcomes or [], format="conllu", metric=options.outcome_metric,
            gold_path=gold.name, gold_sha256=signature.files["gold"]["sha256"],
            system_path=pred.name, system_sha256=signature.files["pred"]["sha256"])
        save_outcomes(outcomes, args.save_errors, "words")
    if args.json:
        out = conllu_json(result, signature)
        if breakdown is not None:
            out.update(breakdown.as_json())
        if official_table is not None:
            out["official"] = official_table.as_json()
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        text = conllu_text(result, signature, counts=args.counts)
        if breakdown is not None:
            from annoscore.scorer.conllu.breakdown import breakdown_text
            text += "\n\n" + breakdown_text(breakdown.as_json(), rows=BREAKDOWN_ROWS)
        if official_table is not None:
            text += "\n\n" + official_table.side_by_side(result)
        print(text)
    if official_table is not None and official_table.error:
        # Our scores stand, but what was asked for (the official figures) is missing.
        print(f"annoscore evaluate: --official: {official_table.error}", file=sys.stderr)
        return 1
    return 0


def _size(path: str) -> int:
    import os
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
