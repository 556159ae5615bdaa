"""``annoscore check FILE… [--gold G] [--json] [--lang L] [--level N] …``: diagnostics once, for CI and pre-commit.

Every diagnostic of a file, with the UD validator's findings among them
(`server.engine.conllu.validation`; ``--lang``, ``--level``,
``--exclude``, ``--include-only``, ``--ud-data`` choose what is validated,
over the project file's settings).  Nothing is capped: every diagnostic is
listed.

Exit status as linters have it: 0 when nothing at or above ``--fail-on``
was found, 1 when something was, 2 for a wrong command line.  Without
``--fail-on``, annoscore's own warnings fail the check and the validator's
do not, as the validator itself passes a file with warnings only.
Information (low confidence, sentences not parsed yet) and hints do not
fail a check unless asked.  Why some validation could not run (no language
for levels 4-5, no UD data) is said once on stderr.
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
    p.add_argument("--fail-on", choices=FAIL_ON, default=None,
                   help="the least severe diagnostic that makes the exit status 1 (default: warning, and "
                        "error for the UD validator's findings)")
    v = p.add_argument_group("UD validation", "the official UD validator's checks (levels 1-5), with the same "
                                              "test ids as codes")
    v.add_argument("--level", type=int, choices=range(0, 6), metavar="N",
                   help="validation level 1-5, 0 for none (default: 5 when a language and the UD data are at "
                        "hand, else 3)")
    v.add_argument("--lang", metavar="L", help="the language for levels 4-5 (default: from a UD file name such "
                                               "as en_ewt-ud-dev.conllu, else lang in annoscore.toml)")
    v.add_argument("--exclude", nargs="+", action="extend", metavar="ID",
                   help="test ids or classes (FORMAT, MORPHO, SYNTAX, ENHANCED, METADATA, UNICODE) not to report")
    v.add_argument("--include-only", nargs="+", action="extend", metavar="ID",
                   help="report only these test ids or classes")
    v.add_argument("--ud-data", metavar="DIR", help="the data/ folder of the UD tools (default: the installed "
                                                    "udtools package's)")
    p.set_defaults(run=run)


def validation_config(args: argparse.Namespace, base):
    """The project's validation settings with the command line's over them."""
    from dataclasses import replace

    from ..config import _Reader

    reader = _Reader("check")
    changes = {}
    if args.level is not None:
        changes["level"] = args.level
    if args.lang is not None:
        lang = reader.language({"--lang": args.lang}, "--lang", None)
        if reader.problems:
            raise UsageError(f"--lang {args.lang}: a UD language code is letters, such as en or cop")
        changes["lang"] = lang
    for option, name in (("exclude", "--exclude"), ("include_only", "--include-only")):
        names = getattr(args, option)
        if names:
            names = [n for given in names for n in given.replace(",", " ").split()]
            known = reader.test_ids({name: names}, name, ())
            if reader.problems:
                raise UsageError(reader.problems[0].message.split(": ", 2)[-1].replace("; left out", ""))
            changes[option] = known
    if args.ud_data is not None:
        changes["data_dir"] = os.path.abspath(os.path.expanduser(args.ud_data))
    return replace(base, **changes)


# About the size of a file whose first validation goes to helpers (600 blocks).
HELPED_BYTES = 1 << 20


def _large_files(paths: list[str]) -> list[str]:
    return [os.path.abspath(p) for p in paths if os.path.isfile(p) and os.path.getsize(p) >= HELPED_BYTES]


def _prepare_helpers(large: list[str], gold: bool) -> None:
    """Files large enough to be validated (and, with gold, scored) in helper
    processes: start their forkserver before this process imports the
    engine, so that both import at once on two cores.  Without ``--gold``
    the helpers need the validator alone (a pair found by its name and
    scored in two processes imports the rest in its helper)."""
    from ..processes import PRELOAD, VALIDATION_PRELOAD, start_forkserver

    if large:
        start_forkserver(PRELOAD if gold else VALIDATION_PRELOAD)


def _validate_early(args: argparse.Namespace, large: list[str], settings) -> dict[str, tuple]:
    """Give the helpers a head start (`validation_parts.start_early`): each
    large CoNLL-U file is read and cut into the validator's blocks, handed
    over with the settings the engine will have, before the rest of the
    engine is imported.  Returns what was read and cut (path: (`DiskText`,
    `TextStore`)), which the workspace takes rather than doing it again."""
    from scorer.gcpause import gc_paused

    from ..config import load_project, setup_for
    from ..engine.conllu import validation_parts
    from ..engine.conllu.validator_input import document_blocks, settings_for
    from ..engine.disk import read_disk_file
    from ..textstore import TextStore

    texts: dict[str, tuple] = {}
    if not large or validation_parts.helpers() < 2:
        return texts
    root = os.getcwd()
    project, _ = load_project(root, settings)  # (its problems are told once, by the workspace)
    config = validation_config(args, project.validation)
    for path in large:
        setup = setup_for(path, project, root)
        vsettings = settings_for(config, path)
        if setup is None or setup.format != "conllu" or vsettings is None:
            continue
        disk = read_disk_file(path, setup.format)
        if disk is None:
            continue
        with gc_paused():
            store = TextStore(disk.text, lone_cr_ends_lines=True)  # (the engine's default; else not taken)
        texts[path] = (disk, store)
        blocks = document_blocks(store.segments)
        if len(blocks) >= validation_parts.MIN_BLOCKS:
            validation_parts.start_early(blocks, vsettings)
    return texts


def run(args: argparse.Namespace) -> int:
    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold must be between 0 and 1, not {args.threshold}")
    for path in args.files:
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file")
    if args.gold:
        check_input_file(args.gold, "gold")
    large = _large_files(args.files)
    _prepare_helpers(large, bool(args.gold))
    from ..config import Settings

    settings = Settings() if args.threshold is None else Settings(threshold=args.threshold)
    read = _validate_early(args, large, settings)
    from ..daemon import DiskWorkspace, files_under, shown_path  # (the engine: imported by the commands using it)

    workspace = DiskWorkspace(os.getcwd(), settings)
    from dataclasses import replace
    engine_settings = replace(workspace.engine.settings, max_diagnostics=sys.maxsize,
                              max_diagnostics_per_document=sys.maxsize,
                              validation=validation_config(args, workspace.engine.settings.validation))
    if args.threshold is not None:
        engine_settings = replace(engine_settings, threshold=args.threshold)
    workspace.engine.settings = engine_settings
    workspace.gold_override = args.gold
    keys = [os.path.abspath(p) for p in files_under(args.files)
            if workspace.add(p, *read.pop(os.path.abspath(p), ()))
            or (os.path.isfile(p) and p in args.files and _unreadable(workspace, p))]
    if not keys:  # a mistyped folder must not pass a CI job
        raise InputError(f"{', '.join(args.files)}: no file annoscore reads here (it reads .conllu, .conll, "
                         ".txt and .tsv files, and the files annoscore.toml pairs)")
    workspace.rescore(keys)
    from ..engine.conllu.validation_parts import drop_early
    drop_early()
    threshold = FAIL_ON[args.fail_on or "warning"]
    failing = 0
    report = []
    for key in keys:
        diagnostics = workspace.diagnostics(key)
        failing += sum(1 for d in diagnostics if _fails(d, threshold, args.fail_on is None))
        report.append((key, diagnostics, workspace.score(key), workspace.status(key)))
    for problem in workspace.config_problems:
        print(f"annoscore check: {problem.text()}", file=sys.stderr)
    if args.json:
        _write_json([(shown_path(k), ds, score) for k, ds, score, _ in report], failing, sys.stdout)
    else:
        for key, diagnostics, _, status in report:
            for d in diagnostics:
                print(d.text())
            print(f"{shown_path(key)}: {status}", file=sys.stderr)
    for key in keys:  # (after the rest: what did not run, once)
        for note in workspace.engine.new_notes(key):
            print(f"annoscore check: UD validation: {note}", file=sys.stderr)
    return 1 if failing else 0


def _write_json(files: list[tuple[str, list, object]], failing: int, out) -> None:
    """The report as one JSON object, one diagnostic per line: readable and
    diffable, and written by the C encoder (``json.dump`` with an indent
    encodes in Python, a fifth of a second for a treebank's findings)."""
    out.write('{"files": [')
    for i, (path, diagnostics, score) in enumerate(files):
        out.write(f'{"," if i else ""}\n {{"path": {json.dumps(path)}, "diagnostics": [')
        out.write(",".join("\n  " + json.dumps(d.as_json()) for d in diagnostics))
        out.write(f'],\n  "score": {json.dumps(score)}}}')
    out.write(f'],\n "failing": {failing}}}\n')


def _fails(diagnostic, threshold: Severity, validator_rule: bool) -> bool:
    """Whether a diagnostic fails the check: at or above ``threshold``; a
    finding of the UD validator's, by default, only when it is an error
    (the validator passes a file with warnings)."""
    if validator_rule and diagnostic.test_id is not None:
        return diagnostic.severity == "error"
    return FAIL_ON[diagnostic.severity] <= threshold


def _unreadable(workspace: DiskWorkspace, path: str) -> bool:
    """A file named on the command line that could not be added: say why."""
    if workspace.relevant(path):
        check_input_file(path)  # raises: empty, unreadable
    raise InputError(f"{path}: annoscore does not read this file (use .conllu, .txt, .tsv, "
                     "or pair it in annoscore.toml)")
