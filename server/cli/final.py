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

from annoscore.scorer.report import Signature, file_sha256

from ..project import project_root
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
    from ..config import declared_files, declared_split, load_project  # (only inside a project)
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


def _declared(gold: InputFile) -> tuple[str, str] | None:
    """(project root, the gold's path there) when a project declares
    ``gold`` a test split: the gold's own project, then the current folder's."""
    roots = []
    if gold.path == gold.name:
        roots.append(project_root(os.path.dirname(os.path.abspath(gold.path))))
    roots.append(project_root(os.getcwd()))
    for root in dict.fromkeys(r for r in roots if r):
        declared = _declared_test(gold, root)
        if declared is not None:
            return root, declared
    return None


# (`server.ledger` is imported where a test split is met: most runs score no
# declared test split, and should not load the ledger's code to find that out.)


def _refused_without_final(gold_name: str, root: str, more: str = "") -> UsageError:
    from ..ledger import FOLDER, NAME

    return UsageError(
        f"{gold_name} is a test split ([splits] test in {_project_file(root)}){more}: it is scored once "
        "per system, after every choice is made on dev; add --final when yours are made (the run "
        f"is recorded in {os.path.join(FOLDER, NAME)}, and a second one refused)")


def _final_run(args: argparse.Namespace, root: str, declared: str, system: str, pred_name: str,
               gold_path: str) -> FinalRun:
    """The final run of ``system`` on the declared test file, or UsageError
    when one was recorded before and --overwrite is not given."""
    from ..ledger import LedgerError, earlier_run, read_runs, refusal

    gold_sha256 = file_sha256(gold_path)
    try:
        earlier = earlier_run(read_runs(root), system, declared, gold_sha256)
    except LedgerError as error:
        raise UsageError(str(error)) from None
    if earlier is not None and not args.overwrite:
        raise UsageError(refusal(system, declared, earlier))
    return FinalRun(root, system, _relative(pred_name, root) or pred_name, declared, gold_sha256,
                    args.overwrite)


def _check_flags(args: argparse.Namespace) -> None:
    if not args.final:
        if args.overwrite:
            raise UsageError("--overwrite goes with --final (scoring a declared test split)")
        if system_name(args):
            raise UsageError("--system NAME goes with --final (scoring a declared test split); runs of a "
                             "system are --system NAME=GLOB")


def gate(args: argparse.Namespace, pred: InputFile, gold: InputFile) -> FinalRun | None:
    """Refuse to score a declared test split without --final (UsageError),
    or a second time for one system without --overwrite; else the final run
    to record (None: not a final run)."""
    _check_flags(args)
    found = _declared(gold)
    if found is None:
        if args.final:
            raise UsageError(f"--final is for a declared test split, and {gold.name} is not one "
                             "(declare it in annoscore.toml: [splits] test = [\"path\"])")
        return None
    root, declared = found
    if not args.final:
        raise _refused_without_final(gold.name, root)
    system = system_name(args) or _relative(pred.name, root) or pred.name
    return _final_run(args, root, declared, system, pred.name, gold.path)


@dataclass(frozen=True)
class ManyPair:
    """One pair of a many-pairs run, as the gate of test splits sees it."""

    system: str | None  # NAME of --system NAME=GLOB, or None
    run: str | None     # the run (seed) of that system, or None
    pred: str
    gold: str


def gate_many(args: argparse.Namespace, pairs: list[ManyPair]) -> list[FinalRun | None]:
    """`gate` for many pairs at once: refused (UsageError) when any pair's
    gold is a declared test split and --final is not given, or when any was
    scored before for its system without --overwrite; else, per pair, the
    final run to record (None for the pairs that are not on a test split).
    The system of a pair is ``--system NAME``, else NAME of ``NAME=GLOB``
    with its run (``NAME:RUN``: each seed is one system's look), else the
    prediction's path."""
    _check_flags(args)
    found = [_declared(InputFile(p.gold, p.gold)) for p in pairs]
    tests = [(p, f) for p, f in zip(pairs, found) if f is not None]
    if tests and not args.final:
        (first, (root, _)), more = tests[0], len(tests) - 1
        raise _refused_without_final(first.gold, root, f" (and {more} more of the pairs)" if more else "")
    if args.final and not tests:
        raise UsageError("--final is for declared test splits, and none of these gold files is one "
                         "(declare them in annoscore.toml: [splits] test = [\"path\", ...])")
    out: list[FinalRun | None] = []
    seen: set[tuple[str, str, str]] = set()
    for pair, where in zip(pairs, found):
        if where is None:
            out.append(None)
            continue
        root, declared = where
        system = system_name(args) or (f"{pair.system}:{pair.run}" if pair.system and pair.run else
                                       pair.system) or _relative(pair.pred, root) or pair.pred
        if (root, system, declared) in seen:
            raise UsageError(f"{declared} comes twice for the system {system} in this run: a test split is "
                             "scored once per system")
        seen.add((root, system, declared))
        out.append(_final_run(args, root, declared, system, pair.pred, pair.gold))
    return out


def mark_many(final_runs: list[FinalRun | None], results: list[dict]) -> None:
    """Record the final runs of the pairs that were scored (their JSON's
    signature already says ``final:yes``: `scorer.batch.score_pair`)."""
    from ..ledger import FOLDER, NAME, LedgerError, Run, record

    for final, result in zip(final_runs, results):
        if final is None or "result" not in result:
            continue
        signature = result["result"]["signature"]
        run = Run(final.system, final.pred_path, signature["files"]["pred"]["sha256"], final.gold_path,
                  final.gold_sha256, signature["format"], dict(signature["options"]), signature["text"],
                  final.overwrite)
        try:
            record(final.root, run)
        except LedgerError as error:
            raise InputError(str(error)) from None
        print(f"annoscore evaluate: final run of {run.system} on {final.gold_path} recorded in "
              f"{os.path.join(final.root, FOLDER, NAME)}", file=sys.stderr)


def mark(args: argparse.Namespace, signature: Signature) -> None:
    """On a final run: ``final:yes`` in the signature, and the run recorded
    (InputError when the ledger cannot be written: the result is then not shown)."""
    final: FinalRun | None = getattr(args, "final_run", None)
    if final is None:
        return
    from ..ledger import FOLDER, NAME, LedgerError, Run, record

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
