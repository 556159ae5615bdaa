"""``annoscore evaluate PRED GOLD``: score a prediction against gold.

The format decides the scorer (CoNLL-U, segmentation, labels); this module
only reads the command line and hands over to the runner for that format.
"""

from __future__ import annotations

import argparse
import importlib

from . import final
from .errors import UsageError
from .inputs import FORMATS, check_input_file, infer_format, read_once
from .options import CONLLU_SAVE_METRICS, LABELS_SAVE_METRICS, SEGMENTATION_SAVE_METRICS
from .commands import SUMMARIES

# The runner module of each format, imported only when used (a command
# should not wait for the scorers of formats it does not read).
RUNNERS = {"conllu": "evaluate_conllu", "space": "evaluate_segmentation",
           "tsv": "evaluate_segmentation", "labels": "evaluate_labels"}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "evaluate", help=SUMMARIES["evaluate"],
        description="Score PRED against GOLD. CoNLL-U is scored with the CoNLL 2018 metrics, "
                    "equal to the official conll18_ud_eval.py. PRED_DIR GOLD_DIR scores every pair "
                    "of CoNLL-U files the two folders hold, with macro- and micro-averages.")
    p.add_argument("pred", metavar="PRED", nargs="?",
                   help="the system's output (- for standard input), or a folder of them")
    p.add_argument("gold", metavar="GOLD", nargs="?",
                   help="the gold standard (- for standard input), or a folder of gold files")
    p.add_argument("--format", choices=FORMATS,
                   help="input format (default: from the file name: .conllu/.conll, .txt = space, .tsv = tsv)")
    p.add_argument("--pos", action="store_true", help="segmentation tokens are word/UPOS")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    g = p.add_argument_group("CoNLL-U")
    g.add_argument("--counts", action="store_true",
                   help="the table also shows the raw counts and the 95%% Wilson intervals of precision "
                        "and recall (the JSON always has them)")
    g.add_argument("--strict", action="store_true",
                   help="also UFeatsAll, AllTagsAll and LASFull (all features, the full relation)")
    g.add_argument("--predicted-only", action="store_true",
                   help="ignore gold sentences missing from the prediction")
    g.add_argument("--annotated-only", action="store_true",
                   help="also leave out predicted sentences not parsed yet (some HEAD is _)")
    g.add_argument("--calibration", action="store_true",
                   help="cell accuracy by the confidence in MISC (Conf=), with the calibration error")
    g.add_argument("--threshold", type=float, metavar="T",
                   help="how many cells have confidence below T, and how often they are right")
    g.add_argument("--jobs", type=int, metavar="N",
                   help="processes for large files (default: one per core; 1 to turn off)")
    g.add_argument("--official", metavar="PATH",
                   help="also run the official conll18_ud_eval.py at PATH, or a command on PATH such as "
                        "udeval (refused trees repaired for that run only), and print its table beside "
                        "ours; exit 1 when it fails")
    g.add_argument("--breakdown", action="append", metavar="KIND",
                   help="scores per category: upos, deprel, feats, length, distance (repeat, or "
                        "separate with commas)")
    g.add_argument("--confusions", type=int, metavar="N",
                   help="the N most frequent confusions of relation and UPOS, with examples")
    g = p.add_argument_group("many treebanks (PRED_DIR GOLD_DIR, --manifest, --system)")
    g.add_argument("--manifest", metavar="FILE",
                   help="pairs listed in FILE, one a line: PRED GOLD [NAME] (paths relative to FILE's folder, or to "
                        "the working folder when FILE is no regular file, as <(…) is)")
    g.add_argument("--system", action="append", metavar="NAME=GLOB",
                   help="runs of a system (seeds): files against the GOLD file, or folders against "
                        "GOLD_DIR; repeat for more runs or systems. Without '=' (--system NAME): the "
                        "system's name in the ledger of a --final run")
    g.add_argument("--split", default="test", metavar="SPLIT",
                   help="which split of UD-named gold files (xx_tb-ud-SPLIT.conllu) to take: "
                        "test (default), dev, or all")
    g.add_argument("--shared-task", action="store_true",
                   help="as the CoNLL 2018 ranking: a file the official scorer would refuse scores 0")
    g = p.add_argument_group("labelled text files (TEXT<TAB>LABEL, or CSV with a header)")
    for role, default in (("text", "text"), ("label", "label"), ("id", "id, when the header has it")):
        g.add_argument(f"--{role}-column", metavar="C",
                       help=f"the {role} column, by header name or 1-based number (default: {default}; "
                            "a TSV file with a named column has a header)")
    final.add_arguments(p)
    g = p.add_argument_group("comparing systems")
    g.add_argument("--save-errors", metavar="FILE",
                   help="write the per-item right/wrong list for `annoscore compare`")
    g.add_argument("--metric", default=None, metavar="M",
                   help=f"the metric for --save-errors: CoNLL-U {', '.join(CONLLU_SAVE_METRICS)} "
                        f"(default LAS); segmentation {', '.join(SEGMENTATION_SAVE_METRICS)} (default Word; "
                        f"TaggedWord needs --pos); labels {', '.join(LABELS_SAVE_METRICS)}")
    p.set_defaults(run=run)


def _many(args: argparse.Namespace) -> bool:
    """Whether the command scores many pairs (folders, a manifest, runs)."""
    if args.manifest or any("=" in value for value in args.system or ()):
        return True
    import os
    return bool(args.pred and args.gold and os.path.isdir(args.pred) and os.path.isdir(args.gold))


def run(args: argparse.Namespace) -> int:
    if args.confusions is not None and args.confusions < 1:
        raise UsageError(f"--confusions must be at least 1, not {args.confusions}")
    if _many(args):
        from . import evaluate_many
        return evaluate_many.run(args)
    if args.pred is None or args.gold is None:
        raise UsageError("give PRED and GOLD (files, or folders), or --manifest FILE, or --system NAME=GLOB GOLD")
    for flag, value in (("--split", args.split != "test"), ("--shared-task", args.shared_task)):
        if value:
            raise UsageError(f"{flag} applies to many pairs (PRED_DIR GOLD_DIR, --manifest, --system)")
    if getattr(args, "jobs", None) is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold must be between 0 and 1, not {args.threshold}")
    # Each input is read once when it is a stream (-, a FIFO): see inputs.py.
    with read_once([args.pred, args.gold]) as (pred, gold):
        check_input_file(pred.path, "prediction", pred.name)
        check_input_file(gold.path, "gold", gold.name)
        fmt = infer_format(pred.name, args.format, pred.path)
        if fmt != "labels":
            named = [f"--{role}-column" for role in ("text", "label", "id") if getattr(args, f"{role}_column")]
            if named:
                raise UsageError(f"{named[0]} applies to labelled text files (--format labels, .csv), "
                                 f"not to --format {fmt}")
        runner = RUNNERS.get(fmt)
        if runner is None:
            raise UsageError(f"format '{fmt}' cannot be evaluated yet")
        # A declared test split: refused without --final; the runner records a final run (final.mark).
        args.final_run = final.gate(args, pred, gold)
        return importlib.import_module(f"{__package__}.{runner}").run(args, pred, gold)
