"""``annoscore check FILE… [--gold G] [--json]``: diagnostics once, for CI and pre-commit.

Exit status as linters have it: 0 when nothing at or above ``--fail-on``
(default: warning) was found, 1 when something was, 2 for a wrong command
line.  Information (low confidence, sentences not parsed yet) and hints do
not fail a check unless asked.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from scorer.problems import Severity

from .errors import InputError, UsageError
from .inputs import check_input_file

if TYPE_CHECKING:
    from ..daemon import DiskWorkspace

FAIL_ON = {"error": Severity.ERROR, "warning": Severity.WARNING,
           "information": Severity.INFORMATION, "hint": Severity.HINT}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("check", help="show diagnostics for files (exit 1 when there are problems)",
                              description="Diagnostics for FILEs (or every file in a folder): format "
                                          "problems, refused trees, unparsed sentences, low confidence, "
                                          "and with gold, mismatches and the score.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="files to check, or folders to search for files annoscore reads (.conllu, .conll, "
                        ".txt, .tsv and those annoscore.toml pairs)")
    p.add_argument("--gold", metavar="G", help="score every FILE against G (default: NAME.gold.EXT or annoscore.toml)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--threshold", type=float, metavar="T",
                   help="cells with a confidence (Conf= in MISC) below T are shown (default 0.8)")
    p.add_argument("--fail-on", choices=FAIL_ON, default="warning",
                   help="the least severe diagnostic that makes the exit status 1 (default: warning)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..config import Settings  # the engine, imported only by the commands that use it
    from ..daemon import DiskWorkspace, files_under, shown_path

    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold must be between 0 and 1, not {args.threshold}")
    for path in args.files:
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file")
    if args.gold:
        check_input_file(args.gold, "gold")
    settings = Settings() if args.threshold is None else Settings(threshold=args.threshold)
    workspace = DiskWorkspace(os.getcwd(), settings)
    if args.threshold is not None:
        from dataclasses import replace
        workspace.engine.settings = replace(workspace.engine.settings, threshold=args.threshold)
    workspace.gold_override = args.gold
    keys = [os.path.abspath(p) for p in files_under(args.files)
            if workspace.add(p) or (os.path.isfile(p) and p in args.files and _unreadable(workspace, p))]
    if not keys:  # a mistyped folder must not pass a CI job
        raise InputError(f"{', '.join(args.files)}: no file annoscore reads here (it reads .conllu, .conll, "
                         ".txt and .tsv files, and the files annoscore.toml pairs)")
    workspace.rescore(keys)
    threshold = FAIL_ON[args.fail_on]
    failing = 0
    report = []
    for key in keys:
        diagnostics = workspace.diagnostics(key)
        failing += sum(1 for d in diagnostics if FAIL_ON[d.severity] <= threshold)
        report.append((key, diagnostics, workspace.score(key), workspace.status(key)))
    for problem in workspace.config_problems:
        print(f"annoscore check: {problem.text()}", file=sys.stderr)
    if args.json:
        json.dump({"files": [{"path": shown_path(k), "diagnostics": [d.as_json() for d in ds],
                              "score": score} for k, ds, score, _ in report],
                   "failing": failing}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        for key, diagnostics, _, status in report:
            for d in diagnostics:
                print(d.text())
            print(f"{shown_path(key)}: {status}", file=sys.stderr)
    return 1 if failing else 0


def _unreadable(workspace: DiskWorkspace, path: str) -> bool:
    """A file named on the command line that could not be added: say why."""
    if workspace.relevant(path):
        check_input_file(path)  # raises: empty, unreadable
    raise InputError(f"{path}: annoscore does not read this file (use .conllu, .txt, .tsv, "
                     "or pair it in annoscore.toml)")
