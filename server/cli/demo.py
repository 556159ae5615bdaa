"""``annoscore demo``: the main job on bundled sample files.

Scores a small prediction (with a tokenization difference, label errors, a
cycle, an unparsed sentence and per-cell confidences) against its gold, so a
new user sees every part of the report in one run.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources

from . import evaluate
from .commands import SUMMARIES


def sample_path(name: str) -> str:
    return str(resources.files("annoscore.server.demo").joinpath(name))


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "demo", help=SUMMARIES["demo"],
        description="Score a bundled sample prediction against its gold with `annoscore evaluate "
                    "--threshold 0.8`: a tokenization difference, label errors, a cycle, an unparsed "
                    "sentence and per-cell confidences, so every part of the report shows.")
    p.add_argument("--json", action="store_true",
                   help="print evaluate's JSON instead of tables (only the JSON goes to stdout)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    pred, gold = sample_path("sample.conllu"), sample_path("sample.gold.conllu")
    # The command it runs, for the reader; with --json on stderr, so that
    # stdout is one JSON object that parses.
    print(f"$ annoscore evaluate {pred} {gold} --threshold 0.8" + (" --json" if args.json else ""),
          file=sys.stderr if args.json else sys.stdout, flush=True)
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    evaluate.add_parser(subparsers)
    argv = ["evaluate", pred, gold, "--threshold", "0.8"] + (["--json"] if args.json else [])
    evaluate_args = parser.parse_args(argv)
    return evaluate_args.run(evaluate_args)
