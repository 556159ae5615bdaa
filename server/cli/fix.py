"""``annoscore fix FILE… [--select CODES] [--diff] [--statistics]``: the certain fixes, on the command line.

The quick fixes the editor offers whose mend is certain, made as a linter
makes them (`server.engine.autofix`, the same code that computes the
editor's quick fixes): FEATS order, ``# text`` from the FORMs, SpaceAfter,
whitespace, blank lines, CR line ends, and renumbering where every
reference maps.  ``--select`` chooses them by diagnostic code
(comma-separated, repeatable; default: all).  ``--diff`` prints a unified
diff and writes nothing.  A file is written atomically (a temporary file
beside it, renamed over it) and only if it did not change while the fixes
were made.

Exit status: 0 when none of the selected findings is left, 1 when some
are (no certain fix for them, a file changed while it was fixed, or with
``--diff`` fixes to make), 2 for a wrong command line or a file that
cannot be read.
"""

from __future__ import annotations

import argparse
import difflib
import os
import stat
import sys
import tempfile
from collections import Counter

from annoscore.scorer.excerpt import printable_name

from .commands import SUMMARIES
from .errors import UsageError


def _fixable() -> tuple[str, ...]:
    from ..engine.autofix import FIXABLE  # (the engine: imported when the command runs)

    return tuple(sorted(FIXABLE))


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("fix", help=SUMMARIES["fix"], description=__doc__.split("\n\n")[1])
    p.add_argument("files", nargs="+", metavar="FILE", help="CoNLL-U files")
    p.add_argument("--select", action="append", metavar="CODE[,CODE…]",
                   help="make only the fixes of these diagnostic codes (comma-separated, repeatable; default: "
                        "every certain fix, see docs/editing.md)")
    p.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    p.add_argument("--statistics", action="store_true",
                   help="print how many findings of each code were fixed and how many are left")
    p.set_defaults(run=run)


def selected_codes(given: list[str] | None, fixable: tuple[str, ...]) -> frozenset[str]:
    """``--select`` values (each comma-separated) as codes; UsageError for one with no certain fix."""
    if not given:
        return frozenset(fixable)
    codes = {code.strip() for value in given for code in value.split(",") if code.strip()}
    if not codes:
        raise UsageError("--select needs at least one code")
    unknown = sorted(codes - set(fixable))
    if unknown:
        raise UsageError(f"--select: no certain fix for {', '.join(unknown)} (fixable: {', '.join(fixable)})")
    return frozenset(codes)


class Changed(Exception):
    """The file changed on disk while it was being fixed."""


def write_atomically(path: str, original: bytes, new: bytes) -> None:
    """``new`` in place of ``path``: written to a temporary file beside it and
    renamed over it, so that a reader sees the old file or the new one, never
    a part; refused (Changed) when the file is no longer ``original``."""
    folder = os.path.dirname(os.path.abspath(path))
    mode = stat.S_IMODE(os.stat(path).st_mode)
    fd, temporary = tempfile.mkstemp(prefix=".annoscore-fix-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)  # (mkstemp makes it private; the file keeps its own mode)
        with open(path, "rb") as handle:
            if handle.read() != original:
                raise Changed(path)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _read(path: str) -> tuple[bytes, str]:
    """The file's bytes and text; OSError, or ValueError naming the line and column of bytes not UTF-8."""
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        return raw, raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[:error.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise ValueError(f"{line}:{column}: not UTF-8 (byte 0x{raw[error.start]:02x}); nothing fixed") from None


def _lines(text: str) -> list[str]:
    """Lines as CoNLL-U has them: ended by LF only (a CR stays in its line, shown as ``\\u000d``)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    return out + [lines[-1]] if lines[-1] else out


def unified_diff(old: str, new: str, path: str) -> list[str]:
    out = []
    for line in difflib.unified_diff(_lines(old), _lines(new), path, path):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return out


def run(args: argparse.Namespace) -> int:
    fixable = _fixable()
    selected = selected_codes(args.select, fixable)
    from dataclasses import replace

    from ..daemon import DiskWorkspace, shown, shown_path
    from ..engine.autofix import fix_document
    from ..engine.presentation import FIXING
    from .check import project_folder

    workspace = DiskWorkspace(project_folder())  # (the project file's validation settings, as check has them)
    engine = workspace.engine
    engine.settings = replace(engine.settings, max_diagnostics=sys.maxsize, max_diagnostics_per_document=sys.maxsize)
    engine.presentation = FIXING  # as in the editor: one finding, and its fix, for IDs out of sequence
    report = sys.stderr if args.diff else sys.stdout  # (the diff alone on stdout, for patch)
    status = 0
    fixed: Counter = Counter()
    remaining: Counter = Counter()
    for path in args.files:
        name = printable_name(path)
        try:
            raw, text = _read(path)
        except (OSError, ValueError) as error:
            print(f"annoscore fix: {name}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
            status = 2
            continue
        key = os.path.abspath(path)
        outcome = fix_document(engine, key, key, text, selected)
        engine.close(key)
        if outcome.refused is not None:
            print(f"annoscore fix: {name}: {outcome.refused}", file=sys.stderr)
            status = 2
            continue
        new = outcome.text
        for problem in outcome.remaining:
            print(shown(shown_path(key), problem).text(), file=report)
        remaining.update(p.code for p in outcome.remaining)
        if outcome.remaining:
            status = max(status, 1)
        if new == text:
            continue
        made = sum(outcome.fixed.values())
        if args.diff:
            sys.stdout.writelines(unified_diff(text, new, path))
            print(f"{name}: would fix {made}", file=report)
            fixed.update(outcome.fixed)
            status = max(status, 1)
            continue
        try:
            write_atomically(path, raw, new.encode("utf-8"))
        except Changed:
            print(f"annoscore fix: {name} changed while it was being fixed; left as it is", file=sys.stderr)
            remaining.update(outcome.fixed)
            status = max(status, 1)
            continue
        except OSError as error:
            print(f"annoscore fix: {name}: {error.strerror or error}; left as it is", file=sys.stderr)
            status = 2
            continue
        fixed.update(outcome.fixed)
        print(f"{name}: fixed {made} ({', '.join(f'{c} {n}' for c, n in sorted(outcome.fixed.items()))})",
              file=report)
    if args.statistics:
        for code in sorted(set(fixed) | set(remaining), key=lambda c: (-fixed[c] - remaining[c], c)):
            print(f"{fixed[code] + remaining[code]:6}  {code}  ({fixed[code]} fixed, {remaining[code]} left)",
                  file=report)
    found, done, left = sum(fixed.values()) + sum(remaining.values()), sum(fixed.values()), sum(remaining.values())
    if found:
        verb = "would be fixed" if args.diff else "fixed"
        print(f"Found {found} fixable finding{'s' if found != 1 else ''} ({done} {verb}, {left} remaining).",
              file=report)
    return status
