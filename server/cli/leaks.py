"""``annoscore leaks FILE… [--json] [--near RULES]``: items of later splits found in earlier ones.

Each file's split comes from ``--train/--dev/--test``, else from
``[splits]`` in the project file, else from its name (``*-train.*``,
``*-dev.*``/``*-valid*``, ``*-test.*``: `scorer.hygiene.splits`).  With
no file at all, the files ``[splits]`` declares are checked.  Exit status:
0 when nothing was found, 1 when something was, 2 when no check could be
made (a wrong command line, a file that cannot be read or whose split
cannot be told).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from annoscore.scorer.hygiene.splits import SPLITS, split_from_name

from . import hygiene_options as common
from .errors import UsageError
from .commands import SUMMARIES


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "leaks", help=SUMMARIES["leaks"],
        description="Report every item of a later split (dev, test) that also occurs in an earlier one "
                    "(train; test against dev too) — exactly, or nearly under the --near rules — and the "
                    "same text with different labels or annotations. Exit 0: nothing found; 1: found; "
                    "2: no check was possible.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="files whose split their name tells (*-train.*, *-dev.*, *-valid*, *-test.*) or "
                        "[splits] in annoscore.toml declares; none: the files [splits] declares")
    for split in SPLITS:
        p.add_argument(f"--{split}", action="append", default=[], metavar="FILE",
                       help=f"a {split} file, whatever its name (repeat for more)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--all", action="store_true", help="list every finding (default: the first "
                   "10 of each pair of splits)")
    common.add_rule_arguments(p)
    common.add_reading_arguments(p)
    p.set_defaults(run=run)


def _splits_of(args: argparse.Namespace, root: str | None, settings) -> list[tuple[str, str]]:
    """(path, split) of every file to check, in the order given."""
    from ..config import declared_files, declared_split

    named: list[tuple[str, str]] = []
    for path in args.files:
        split = declared_split(path, settings, root) or split_from_name(path)
        if split is None:
            raise UsageError(f"{path}: cannot tell its split from its name (no -train, -dev, -valid or -test): "
                             "give it with --train, --dev or --test, or declare it in [splits]")
        named.append((path, split))
    for split in SPLITS:
        named += [(path, split) for path in getattr(args, split)]
    if not named and root is not None:
        left_out: list[str] = []
        declared = declared_files(settings, root, left_out)
        for problem in left_out:  # (outside the project, or a glob stopped: docs/reliability.md)
            print(f"annoscore leaks: {problem}", file=sys.stderr)
        named = [(os.path.relpath(path), split) for split in SPLITS for path in declared[split]]
    if not named:
        raise UsageError("no files to check: name them (FILE…, or --train/--dev/--test), or declare them "
                         "in annoscore.toml ([splits] train = …, dev = …, test = …)")
    seen: dict[str, str] = {}
    for path, split in named:
        key = os.path.realpath(path)
        if key in seen:
            raise UsageError(f"{path} is given twice ({seen[key]} and {split}): a file is in one split")
        seen[key] = split
    return named


def run(args: argparse.Namespace) -> int:
    from annoscore.scorer.hygiene.leaks import find_leaks
    from annoscore.scorer.hygiene.report import leaks_json, leaks_text
    root, settings = common.project("leaks")
    normalization, near, min_words = common.rules(args, settings)
    options = common.read_options(args)
    files = [(common.read(path, options, "leaks"), split) for path, split in _splits_of(args, root, settings)]
    formats = {items.format for items, _ in files}
    if len(formats) > 1:
        raise UsageError(f"the files are of different formats ({', '.join(sorted(formats))}): their items "
                         "cannot be compared; give files of one format (or --format)")
    report = find_leaks(files, normalization, near, min_words)
    if args.json:
        json.dump(leaks_json(report), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(leaks_text(report, show_all=args.all))
    return 1 if report.findings else 0
