"""``evaluate``'s guard of test splits: refused without ``--final``, recorded with it.

A gold file that ``[splits]`` in the project file declares a test split
(by its path, or by its content under another name or on standard input)
is scored only with ``--final``, once per system; see `server.ledger`.
The project is the one the gold file is in (the nearest folder upwards
with a project file), or the current folder's.

`gate` runs before anything is read for scoring: it refuses (exit 2, one
line saying why and what to do) or says which final run this is.  Each
runner calls `mark` once its result's signature is made, before anything
is printed: the signature then says ``final:yes`` and the run is recorded,
so a result that could not be recorded is never shown.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from scorer.report import Signature, file_sha256

from ..config import declared_files, declared_split, load_project, project_root
from ..ledger import FOLDER, NAME, LedgerError, Run, earlier_run, read_runs, record, refusal
from .errors import InputError, UsageError
from .inputs import InputFile


@dataclass(frozen=True)
class FinalRun:
    root: str
    system: str
    pred_path: str
    gold_path: str   # the declared test file, relative to the root
    gold_sha256: str
    overwrite: bool


def system_name(args: argparse.Namespace) -> str | None:
    """The system's name for the ledger: ``--system NAME`` (a value without
    ``=``; ``--system NAME=GLOB`` gives runs of a system, see evaluate)."""
    names = [value for value in getattr(args, "system", None) or () if "=" not in value]
    return names[-1] if names else None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("test splits (declared in [splits] of annoscore.toml)")
    g.add_argument("--final", action="store_true",
                   help="score a declared test split: once per system, recorded in .annoscore/final-runs.json")
    g.add_argument("--overwrite", action="store_true",
                   help="with --final: score the test split again for a system scored before (recorded too)")


def _relative(path: str, root: str) -> str | None:
    try:
        relative = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    except ValueError:  # another drive (Windows)
        return None
    return None if relative.startswith("..") else relative.replace(os.sep, "/")


def _project_file(root: str) -> str:
    """The project file, as a path from the current folder when it is under it."""
    own = os.path.join(root, "annoscore.toml")
    path = own if os.path.exists(own) else os.path.join(root, "pyproject.toml")
    return _relative(path, os.getcwd()) or path


def _declared_test(gold: InputFile, root: str) -> str | None:
    """The gold's path relative to ``root`` when the project there declares
    it a test split, by path or by content; None otherwise."""
    settings, problems = load_project(root)
    for problem in problems:
        print(f"annoscore evaluate: {problem.text()}", file=sys.stderr)
    if gold.path == gold.name and declared_split(gold.path, settings, root) == "test":
        return _relative(gold.path, root)
    tests = declared_files(settings, root)["test"]
    if not tests:
        return None
    size = os.path.getsize(gold.path)
    candidates = [t for t in tests if os.path.getsize(t) == size]
    if candidates:
        digest = file_sha256(gold.path)
        for test in candidates:
            if file_sha256(test) == digest:
                return _relative(test, root)
    return None


def gate(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> FinalRun | None:
    """Refuse to score a declared test split without --final (UsageError),
    or a second time for one system without --overwrite; else the final run
    to record (None: not a final run)."""
    if not args.final:
        if args.overwrite:
            raise UsageError("--overwrite goes with --final (scoring a declared test split)")
        if system_name(args):
            raise UsageError("--system NAME goes with --final (scoring a declared test split); runs of a "
                             "system are --system NAME=GLOB")
    roots = []
    if gold.path == gold.name:
        roots.append(project_root(os.path.dirname(os.path.abspath(gold.path))))
    roots.append(project_root(os.getcwd()))
    for root in dict.fromkeys(r for r in roots if r):
        declared = _declared_test(gold, root)
        if declared is None:
            continue
        if not args.final:
            raise UsageError(
                f"{gold.name} is a test split ([splits] test in {_project_file(root)}): it is scored once "
                "per system, after every choice is made on dev; add --final when yours are made (the run "
                f"is recorded in {os.path.join(FOLDER, NAME)}, and a second one refused)")
        system = system_name(args) or _relative(pred.name, root) or pred.name
        gold_sha256 = file_sha256(gold.path)
        try:
            earlier = earlier_run(read_runs(root), system, declared, gold_sha256)
        except LedgerError as error:
            raise UsageError(str(error)) from None
        if earlier is not None and not args.overwrite:
            raise UsageError(refusal(system, declared, earlier))
        return FinalRun(root, system, _relative(pred.name, root) or pred.name, declared, gold_sha256,
                        args.overwrite)
    if args.final:
        raise UsageError(f"--final is for a declared test split, and {gold.name} is not one "
                         "(declare it in annoscore.toml: [splits] test = [\"path\"])")
    return None


def mark(args: argparse.Namespace, signature: Signature) -> None:
    """On a final run: ``final:yes`` in the signature, and the run recorded
    (InputError when the ledger cannot be written: the result is then not shown)."""
    final: FinalRun | None = getattr(args, "final_run", None)
    if final is None:
        return
    signature.options["final"] = True
    pred = signature.files.get("pred", {})
    run = Run(final.system, final.pred_path, pred.get("sha256", ""), final.gold_path, final.gold_sha256,
              signature.format, {k: v for k, v in signature.options.items()}, str(signature), final.overwrite)
    try:
        record(final.root, run)
    except LedgerError as error:
        raise InputError(str(error)) from None
    print(f"annoscore evaluate: final run of {run.system} on {final.gold_path} recorded in "
          f"{os.path.join(final.root, FOLDER, NAME)}", file=sys.stderr)
