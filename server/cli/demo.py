"""``annoscore demo``: the main job on bundled sample files.

Scores a small prediction (with a tokenization difference, label errors, a
cycle, an unparsed sentence and per-cell confidences) against its gold, so a
new user sees every part of the report in one run.
"""

from __future__ import annotations

import argparse
from importlib import resources

from . import evaluate


def sample_path(name: str) -> str:
    return str(resources.files("server.demo").joinpath(name))


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("demo", help="score the bundled sample files (shows what the report looks like)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    pred, gold = sample_path("sample.conllu"), sample_path("sample.gold.conllu")
    print(f"$ annoscore evaluate {pred} {gold} --threshold 0.8" + (" --json" if args.json else ""))
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    evaluate.add_parser(subparsers)
    argv = ["evaluate", pred, gold, "--threshold", "0.8"] + (["--json"] if args.json else [])
    evaluate_args = parser.parse_args(argv)
    return evaluate_args.run(evaluate_args)
