"""Character classes and small text helpers shared by the checks.

The official validator matches whitespace with the ``regex`` module's
``\\s`` (Unicode White_Space) in some places and Python's ``str.isspace``
in others; the two differ on U+001C-U+001F (isspace only).  ``WS`` is the
first, written for the standard ``re`` (whose ``\\s`` is isspace), so each
check can use exactly the one the validator uses; a test compares ``WS``
with ``regex`` over every code point.
"""

from __future__ import annotations

import re

WS_CLASS = r"[^\S\x1c-\x1f]"
NON_WS_CLASS = r"[\S\x1c-\x1f]"              # regex's \S
WS = re.compile(WS_CLASS)                       # one White_Space character (regex's \s)
WS2 = re.compile(WS_CLASS + WS_CLASS)           # two in a row
WS_ONLY = re.compile(WS_CLASS + "+")            # use with fullmatch: a whitespace-only line
# Any whitespace but the tab (either kind): lines without it pass every
# whitespace check of level 1 whatever their columns hold.
NON_TAB_SPACE = re.compile(r"[^\S\t]")

WORD_ID = re.compile(r"[1-9][0-9]*")
MWT_ID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
EMPTY_ID = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
HEAD_RE = re.compile(r"0|[1-9][0-9]*")
EHEAD_RE = re.compile(r"(0|[1-9][0-9]*)(\.[1-9][0-9]*)?")



def _regex_syntax(pattern: str) -> "re.Pattern[str]":
    """A pattern written with regex's \\s and \\S, compiled for re."""
    classes = {r"\s": WS_CLASS, r"\S": NON_WS_CLASS}
    return re.compile(re.sub(r"\\[sS]", lambda m: classes[m.group(0)], pattern))


# The validator's comment-line expressions (used with fullmatch).
SENT_ID = _regex_syntax(r"#\s*sent_id\s*=\s*(\S+)")
NEWDOC = _regex_syntax(r"#\s*newdoc(?:\s+(\S+))?")
NEWPAR = _regex_syntax(r"#\s*newpar(?:\s+(\S+))?")
TEXT = _regex_syntax(r"#\s*text\s*=\s*(.*)")
PARALLEL_ID = _regex_syntax(r"#\s*parallel_id\s*=\s*(([a-z]+)/([-0-9a-z]+)(?:/(alt[1-9][0-9]*|"
                            r"part[1-9][0-9]*|alt[1-9][0-9]*part[1-9][0-9]*))?)")


def is_whitespace_line(line: str) -> bool:
    return WS_ONLY.fullmatch(line) is not None


def cell_span(text: str, column: int) -> tuple[int, int]:
    """Code-point span of cell ``column`` (0-9) of a token line; the whole
    line when it has fewer cells."""
    start = 0
    for _ in range(column):
        tab = text.find("\t", start)
        if tab < 0:
            return 0, len(text)
        start = tab + 1
    end = text.find("\t", start)
    return start, len(text) if end < 0 else end


def item_span(text: str, column: int, index: int, separator: str = "|") -> tuple[int, int]:
    """Span of the ``index``-th ``separator``-separated item of a cell."""
    start, end = cell_span(text, column)
    for _ in range(index):
        bar = text.find(separator, start, end)
        if bar < 0:
            return cell_span(text, column)
        start = bar + 1
    stop = text.find(separator, start, end)
    return start, end if stop < 0 else stop


def shorten(text: str) -> str:
    """The validator's own 25-character cut (used in one message)."""
    return text if len(text) < 25 else text[:20] + "[...]"
