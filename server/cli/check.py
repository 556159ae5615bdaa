"""``annoscore check FILE… [--gold G] [--output-format F] [--statistics] [--select/--ignore CODE…] [--lang L] …``: diagnostics once, for CI and pre-commit.

Every diagnostic of a file, with the UD validator's findings among them
(`server.engine.conllu.validation`; ``--lang``, ``--level``,
``--ud-data`` choose what is validated, over the project file's settings).
Nothing is capped: every diagnostic is listed, in the format CI reads
(`server.cli.output_formats`), or counted per code (``--statistics``);
``--select`` / ``--ignore`` choose what is reported (`server.cli.selection`).

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
import os
import sys
from typing import TYPE_CHECKING

from annoscore.scorer.excerpt import printable, printable_name
from annoscore.scorer.problems import Severity

from . import output_formats
from .errors import InputError, UsageError
from .inputs import check_input_file
from .output_formats import CheckedFile, shown_text
from .selection import Selection, names_in
from .commands import SUMMARIES

if TYPE_CHECKING:
    from ..daemon import DiskWorkspace

FAIL_ON = {"error": Severity.ERROR, "warning": Severity.WARNING,
           "information": Severity.INFORMATION, "hint": Severity.HINT}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("check", help=SUMMARIES["check"],
                              description="Diagnostics for FILEs (or every file in a folder): format "
                                          "problems, refused trees, unparsed sentences, low confidence, "
                                          "and with gold, mismatches and the score. Text output closes on stderr with "
                                          "the files checked, the UD validation level that ran and the "
                                          "diagnostics per severity.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="files to check, or folders to search for files annoscore reads (.conllu, .conll, "
                        ".txt, .tsv and those annoscore.toml pairs)")
    p.add_argument("--gold", metavar="G", help="score every FILE against G (default: NAME.gold.EXT or annoscore.toml)")
    p.add_argument("--output-format", choices=output_formats.FORMATS, default=None, metavar="FORMAT",
                   help=f"how diagnostics are written: {', '.join(output_formats.FORMATS)} (default: text; "
                        "see docs/ci.md)")
    p.add_argument("--json", action="store_true", help="the same as --output-format json")
    p.add_argument("--statistics", action="store_true",
                   help="print how many diagnostics of each code there are, the most frequent first, instead "
                        "of the diagnostics (text, or --output-format json)")
    p.add_argument("--select", action="append", metavar="CODE[,CODE…]",
                   help="report only diagnostics with these codes, validator test ids or classes (FORMAT, "
                        "MORPHO, SYNTAX, ENHANCED, METADATA, UNICODE), comma-separated; the same as --include-only")
    p.add_argument("--ignore", action="append", metavar="CODE[,CODE…]",
                   help="do not report these codes, test ids or classes (comma-separated); the same as --exclude")
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
    # One value each, comma-separated and repeatable (as --select/--ignore): a
    # list of any length would take the FILE after it for a name.
    v.add_argument("--exclude", action="append", metavar="ID[,ID…]",
                   help="test ids, classes or codes not to report, comma-separated or repeated "
                        "(the same as --ignore)")
    v.add_argument("--include-only", action="append", metavar="ID[,ID…]",
                   help="report only these test ids, classes or codes, comma-separated or repeated "
                        "(the same as --select)")
    v.add_argument("--no-cache", action="store_true",
                   help="validate every block again: do not use, nor keep, the cache of large files' "
                        "validation (in $XDG_CACHE_HOME/annoscore; also ANNOSCORE_NO_CACHE=1)")
    v.add_argument("--ud-data", metavar="DIR", help="the data/ folder of the UD tools (default: the installed "
                                                    "udtools package's)")
    p.set_defaults(run=run)


def validation_config(args: argparse.Namespace, base):
    """The project's validation settings with the command line's over them."""
    from dataclasses import replace

    from ..config import read_setting

    changes = {}
    if args.level is not None:
        changes["level"] = args.level
    if args.lang is not None:
        lang, problems = read_setting("validation.lang", args.lang, "--lang")
        if problems:
            raise UsageError(f"--lang {args.lang}: a UD language code is letters, such as en or cop")
        changes["lang"] = lang
    selection = selection_of(args)
    if args.exclude or args.ignore:  # added to the project file's (as ruff's --ignore is to its configuration)
        changes["exclude"] = tuple(dict.fromkeys((*base.exclude, *selection.validator_names(selection.ignore))))
    if args.include_only or args.select:
        changes["include_only"] = selection.validator_names(selection.select)
    if args.ud_data is not None:
        changes["data_dir"] = os.path.abspath(os.path.expanduser(args.ud_data))
    return replace(base, **changes)


def selection_of(args: argparse.Namespace) -> Selection:
    """``--select``/``--include-only`` and ``--ignore``/``--exclude`` (usage error: a name unknown)."""
    return Selection.from_options(
        [(o, n) for o, given in (("--select", args.select), ("--include-only", args.include_only))
         for n in names_in(given)],
        [(o, n) for o, given in (("--ignore", args.ignore), ("--exclude", args.exclude)) for n in names_in(given)])


def output_format_of(args: argparse.Namespace) -> str:
    """``--output-format``, ``--json`` its alias for json; with ``--statistics`` a table or JSON only."""
    if args.json and args.output_format not in (None, "json"):
        raise UsageError(f"--json is --output-format json: it cannot go with --output-format {args.output_format}")
    chosen = "json" if args.json else args.output_format or "text"
    if args.statistics and chosen not in output_formats.STATISTICS_FORMATS:
        raise UsageError(f"--statistics is written as text or json, not {chosen}")
    return chosen


def project_folder() -> str:
    """The project's root: the nearest folder from the current one upwards
    with a project file (annoscore.toml, or pyproject.toml with
    [tool.annoscore]), as linters find theirs; else the current folder."""
    from ..project import project_root

    return project_root(os.getcwd()) or os.getcwd()


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

    if not large:
        return
    from ..engine.conllu import validation_parts

    if not gold and validation_parts.helpers() < 2:  # validated here (`run`): no helpers wanted
        return
    if not gold:
        from ..engine.conllu import validation_cache

        # Files validated before, unchanged: their validation comes from the cache.
        large = [path for path in large if not validation_cache.probably_cached(path)]
    if large:
        start_forkserver(PRELOAD if gold else VALIDATION_PRELOAD)


def _validate_early(args: argparse.Namespace, large: list[str], settings) -> dict[str, tuple]:
    """Give the helpers a head start (`validation_parts.start_early`): each
    large CoNLL-U file is read and cut into the validator's blocks, handed
    over with the settings the engine will have, before the rest of the
    engine is imported.  Returns what was read and cut (path: (`DiskText`,
    `TextStore`)), which the workspace takes rather than doing it again."""
    from annoscore.scorer.gcpause import gc_paused

    from ..config import load_project, setup_for
    from ..engine.conllu import validation_parts
    from ..engine.conllu.validator_input import document_blocks, settings_for
    from ..engine.disk import read_disk_file
    from ..textstore import TextStore

    texts: dict[str, tuple] = {}
    if not large or validation_parts.helpers() < 2:
        return texts
    root = project_folder()
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
        if len(blocks) >= validation_parts.MIN_BLOCKS and not _cached(blocks, vsettings):
            validation_parts.start_early(blocks, vsettings)
    return texts


def _cached(blocks: list[tuple[str, bool, bool]], vsettings) -> bool:
    """The cache has these blocks' validations (then no helper is given
    them; the engine takes them from the cache, loaded once)."""
    from annoscore.scorer.validation import prepare

    from ..engine.conllu import validation_cache

    if not validation_cache.enabled():
        return False
    prepared = prepare(vsettings)
    return validation_cache.load(validation_cache.document_key(blocks, prepared), blocks) is not None


def _list_hint(path: str) -> None:
    """A usage error for a missing FILE that is a check's name, as the old
    space-separated ``--exclude A B FILE`` gives: name the comma form."""
    from .selection import VALIDATION_CLASSES, CODES, VALIDATION_TESTS

    if path in VALIDATION_TESTS or path in CODES or path.upper() in VALIDATION_CLASSES:
        raise UsageError(f"{path} is a check's name, not a file: option lists are comma-separated "
                         f"(--exclude A,{path}) or repeated (--exclude A --exclude {path})")


def run(args: argparse.Namespace) -> int:
    if args.threshold is not None and not 0.0 <= args.threshold <= 1.0:
        raise UsageError(f"--threshold must be between 0 and 1, not {args.threshold}")
    output_format = output_format_of(args)
    selection = selection_of(args)
    for path in args.files:
        if not os.path.exists(path):
            _list_hint(path)
            raise InputError(f"{path}: no such file")
    if args.gold:
        check_input_file(args.gold, "gold")
    if args.no_cache:
        from ..engine.conllu import validation_cache

        validation_cache.set_enabled(False)
    large = _large_files(args.files)
    if not large:
        return _check(args, output_format, selection, large)
    from ..engine.conllu import validation_parts
    from ..processes import helpers_gain

    with validation_parts.validate_here(not helpers_gain()):
        return _check(args, output_format, selection, large)


def _check(args: argparse.Namespace, output_format: str, selection: Selection, large: list[str]) -> int:
    """`run` after the command line is checked (``large``: the files large
    enough for helper processes, which are used only where they gain)."""
    _prepare_helpers(large, bool(args.gold))
    from ..config import Settings

    settings = Settings() if args.threshold is None else Settings(threshold=args.threshold)
    read = _validate_early(args, large, settings)
    from ..daemon import DiskWorkspace, files_under, shown_path  # (the engine: imported by the commands using it)

    workspace = DiskWorkspace(project_folder(), settings)
    from dataclasses import replace
    engine_settings = replace(workspace.engine.settings, max_diagnostics=sys.maxsize,
                              max_diagnostics_per_document=sys.maxsize,
                              validation=validation_config(args, workspace.engine.settings.validation))
    if args.threshold is not None:
        engine_settings = replace(engine_settings, threshold=args.threshold)
    workspace.engine.settings = engine_settings
    workspace.gold_override = args.gold
    skipped: list[str] = []
    keys = [os.path.abspath(p) for p in files_under(args.files, skipped)
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
        diagnostics = [d for d in workspace.diagnostics(key) if selection.keeps(d)]
        fails = [_fails(d, threshold, args.fail_on is None) for d in diagnostics]
        failing += sum(fails)
        failing += _is_empty_file(key)  # (as every command: an empty file cannot be checked)
        report.append(CheckedFile(shown_path(key), diagnostics, fails, workspace.score(key), workspace.status(key)))
    for problem in workspace.config_problems:
        print(f"annoscore check: {problem.text()}", file=sys.stderr)
    for note in skipped:  # (not regular files, symlinks out of the project: docs/reliability.md)
        print(f"annoscore check: {note}", file=sys.stderr)
    if args.statistics:
        output_formats.write_statistics(output_format, report, sys.stdout)
    elif output_format != "text":
        output_formats.write(output_format, report, failing, sys.stdout)
    else:
        for checked in report:
            for d in checked.diagnostics:
                print(shown_text(d.text()))
            print(f"{printable_name(checked.path)}: {shown_text(checked.status)}", file=sys.stderr)
    for key in keys:  # (after the rest: what did not run, once)
        for note in workspace.engine.new_notes(key):
            print(f"annoscore check: UD validation: {note}", file=sys.stderr)
    if output_format == "text" and not args.statistics:
        print(f"annoscore check: {summary(report, [_validation_level(workspace, k) for k in keys])}",
              file=sys.stderr)
    return 1 if failing else 0


SEVERITY_NAMES = (("error", "errors"), ("warning", "warnings"), ("information", "information"),
                  ("hint", "hints"))


def summary(report: list[CheckedFile], levels: list[int | None]) -> str:
    """The closing line: files checked, the UD validation level that ran,
    and the reported diagnostics per severity (``2 errors, 1 warning``)."""
    from collections import Counter

    counts = Counter(d.severity for checked in report for d in checked.diagnostics)
    ran = sorted({level for level in levels if level is not None})
    validated = ("no UD validation" if not ran else
                 f"UD validation at level {ran[0]}" if len(ran) == 1 else
                 f"UD validation at levels {', '.join(map(str, ran[:-1]))} and {ran[-1]}")
    found = ", ".join(f"{counts[one]} {one if counts[one] == 1 else many}" for one, many in SEVERITY_NAMES)
    return f"{len(report)} file{'s' if len(report) != 1 else ''}, {validated}: {found}"


def _validation_level(workspace: DiskWorkspace, key: str) -> int | None:
    """The validation level that ran for a document (after any fall-back), None if none did."""
    document = workspace.engine.documents.get(key)
    state = getattr(getattr(document, "results", None), "validation", None)
    prepared = getattr(state, "prepared", None)
    return None if prepared is None else prepared.level


def _fails(diagnostic, threshold: Severity, validator_rule: bool) -> bool:
    """Whether a diagnostic fails the check: at or above ``threshold``; a
    finding of the UD validator's, by default, only when it is an error
    (the validator passes a file with warnings)."""
    if validator_rule and diagnostic.test_id is not None:
        return diagnostic.severity == "error"
    return FAIL_ON[diagnostic.severity] <= threshold


def _unreadable(workspace: DiskWorkspace, path: str) -> bool:
    """A file named on the command line that could not be added: say why,
    as every command says it (compressed, not text, refused ...), else that
    annoscore does not read files of its kind."""
    check_input_file(path)  # raises: empty, unreadable, compressed, not text
    raise InputError(f"{printable(path)}: annoscore does not read this file (use .conllu, .txt, .tsv, "
                     "or pair it in annoscore.toml)")


def _is_empty_file(path: str) -> bool:
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False
