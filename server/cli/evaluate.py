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

# The runner module of each format, imported only when used (a command
# should not wait for the scorers of formats it does not read).
RUNNERS = {"conllu": "evaluate_conllu", "space": "evaluate_segmentation",
           "tsv": "evaluate_segmentation", "labels": "evaluate_labels"}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "evaluate", help="score a prediction against gold (prediction first, gold second)",
        description="Score PRED against GOLD. CoNLL-U is scored with the CoNLL 2018 metrics, "
                    "equal to the official conll18_ud_eval.py.")
    p.add_argument("pred", metavar="PRED", help="the system's output (- for standard input)")
    p.add_argument("gold", metavar="GOLD", help="the gold standard (- for standard input)")
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


def run(args: argparse.Namespace) -> int:
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
