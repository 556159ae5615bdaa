"""What ``annoscore leaks`` and ``annoscore split`` share: how files are read and compared.

The rules come from the command line, else from ``[splits]`` in the
project file (the nearest folder upwards from the current one that has
one), else the defaults (``nfc,casefold,space``; ``digits``; every item
compared).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from annoscore.scorer.formats import FORMATS
from annoscore.scorer.problems import Severity

if TYPE_CHECKING:  # the readers and settings are imported when a command runs (the CLI starts faster)
    from annoscore.scorer.hygiene.items import ItemFile, ReadOptions
    from annoscore.scorer.hygiene.near import NearRules
    from annoscore.scorer.hygiene.normalize import Normalization

    from ..config import Settings

from ..project import project_root
from annoscore.scorer.excerpt import one_line, printable_name
from .errors import UsageError

SHOWN_PROBLEMS = 10  # per file, on stderr


def add_reading_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("reading files")
    g.add_argument("--format", choices=FORMATS,
                   help="the files' format (default: from the name: .conllu/.conll, .txt = space, .tsv = tsv, "
                        ".csv = labels; labels: TEXT<TAB>LABEL or CSV)")
    g.add_argument("--pos", action="store_true", help="segmentation tokens are word/UPOS")
    for role, default in (("text", "column 1, or 'text' in a header"), ("label", "column 2, or 'label'"),
                          ("id", "'id' when the header has it")):
        g.add_argument(f"--{role}-column", metavar="C",
                       help=f"labelled text: the {role} column by header name or 1-based number (default: {default})")


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("when two items are the same")
    g.add_argument("--normalize", metavar="STEPS",
                   help="normalization before comparing: nfc|nfkc, casefold, punct, space|nospace, or none "
                        "(default: [splits] normalize, else nfc,casefold,space)")
    g.add_argument("--near", metavar="RULES",
                   help="near-duplicate rules: digits, weekdays, months, NAME=WORD|WORD|..., jaccard=T, or none "
                        "(default: [splits] near, else digits)")
    g.add_argument("--min-words", type=int, metavar="N",
                   help="items with fewer words are not compared (default: [splits] min_words, else 0)")


def project(command: str) -> tuple[str | None, Settings]:
    """The project root and its settings; problems in the project file on stderr."""
    from ..config import Settings, load_project
    root = project_root(os.getcwd())
    if root is None:
        return None, Settings()
    settings, problems = load_project(root)
    for problem in problems:
        print(f"annoscore {command}: {problem.text()}", file=sys.stderr)
    return root, settings


def rules(args: argparse.Namespace, settings: Settings) -> tuple[Normalization, NearRules, int]:
    from annoscore.scorer.hygiene.near import parse_near
    from annoscore.scorer.hygiene.normalize import parse_normalization
    normalize = args.normalize if args.normalize is not None else settings.splits.normalize
    near = args.near if args.near is not None else settings.splits.near
    try:
        normalization = parse_normalization(normalize)
    except ValueError as error:
        raise UsageError(f"--normalize: {error}") from None
    try:
        near_rules = parse_near(near, normalization)
    except ValueError as error:
        raise UsageError(f"--near: {error}") from None
    min_words = args.min_words if args.min_words is not None else settings.splits.min_words
    if min_words < 0:
        raise UsageError(f"--min-words must be at least 0, not {min_words}")
    return normalization, near_rules, min_words


def read_options(args: argparse.Namespace) -> ReadOptions:
    from annoscore.scorer.hygiene.items import ReadOptions
    return ReadOptions(args.format, args.pos, args.text_column, args.label_column, args.id_column)


def read(path: str, options: ReadOptions, command: str) -> ItemFile:
    """A file's items, its problems printed on stderr (the first few).
    UsageError when it cannot be read at all (no check is possible)."""
    from annoscore.scorer.hygiene.items import format_of, read_items
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory, not a file")
    fmt = format_of(path, options)
    if fmt is None:
        raise UsageError(f"{path}: cannot tell the format from the name; give --format ({', '.join(FORMATS)})")
    if options.pos and fmt not in ("space", "tsv"):
        raise UsageError(f"--pos applies to segmentation files, not to {path} ({fmt})")
    try:
        items = read_items(path, options)
    except OSError as error:
        raise UsageError(f"{path}: cannot be read: {error.strerror or error}") from None
    unusable = items.unusable()
    if unusable is None and not items.items:  # e.g. a table without the columns asked for
        unusable = next((p for p in items.problems if p.severity == Severity.ERROR), None)
    if unusable is not None:
        raise UsageError(f"{unusable.location(path)}: {unusable.message}")
    for problem in items.problems[:SHOWN_PROBLEMS]:
        print(f"annoscore {command}: {problem.location(printable_name(path))}: {problem.severity.label}: "
              f"{one_line(problem.message)}",
              file=sys.stderr)
    if len(items.problems) > SHOWN_PROBLEMS:
        print(f"annoscore {command}: {printable_name(path)}: {len(items.problems) - SHOWN_PROBLEMS} more problems",
              file=sys.stderr)
    return items


def errors(items: ItemFile) -> list:
    return [p for p in items.problems if p.severity == Severity.ERROR]
