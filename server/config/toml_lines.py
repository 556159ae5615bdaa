"""Where a key stands in a project file's text, for the line of a problem
(tomllib gives values, not lines)."""

from __future__ import annotations

import re


# Where a key is, for the line of a problem.  The project file's tables are
# at the top of annoscore.toml and under ``tool.annoscore`` in pyproject.toml
# (``[[tool.annoscore.pair]]``, ``[tool.annoscore.validation]``): ``prefix``
# is that path, () or ("tool", "annoscore").


def header_pattern(parts: tuple[str, ...], array: bool = False) -> re.Pattern:
    """A TOML table header ``[a.b]`` (``[[a.b]]`` for an array of tables),
    spaces allowed around the brackets and dots, as TOML allows."""
    dotted = r"\s*\.\s*".join(re.escape(p) for p in parts)
    return re.compile(rf"(?m)^[ \t]*\[\[[ \t]*{dotted}[ \t]*\]\]" if array
                      else rf"(?m)^[ \t]*\[[ \t]*{dotted}[ \t]*\]")


_ANY_HEADER = re.compile(r"(?m)^[ \t]*\[")


def _section(text: str, header: int | None) -> tuple[int, int]:
    """The text of a table: from its header (an offset; None for the keys
    before the first header) to the next header."""
    if header is None:
        start = 0
    else:
        start = text.find("\n", header) + 1 or len(text)
    following = _ANY_HEADER.search(text, start)
    return (start if header is None else header), following.start() if following else len(text)


def _key_line(text: str, start: int, end: int, key: str | None) -> int:
    if key:
        match = re.compile(rf"(?m)^\s*{re.escape(key)}\s*=").search(text, start, end)
        if match:
            return text.count("\n", 0, match.start())
    return text.count("\n", 0, start)


def top_key_line(text: str, key: str, prefix: tuple[str, ...] = ()) -> int:
    """Line of a top-level key of the project's table (else of its header)."""
    if prefix:
        header = header_pattern(prefix).search(text)
        if header is None:
            return 0
        return _key_line(text, *_section(text, header.start()), key)
    return _key_line(text, *_section(text, None), key)


def array_table_line(text: str, name: str, nth: int, key: str | None, prefix: tuple[str, ...] = ()) -> int:
    """Line of the nth ``[[name]]`` table (or of ``key`` inside it)."""
    headers = [m.start() for m in header_pattern((*prefix, name), array=True).finditer(text)]
    if len(headers) < nth:
        return 0
    start = headers[nth - 1]
    return _key_line(text, *_section(text, start), key)


def table_key_line(text: str, table: str, key: str | None, prefix: tuple[str, ...] = ()) -> int:
    """Line of ``[table]`` (or of ``key`` inside it, before the next table)."""
    header = header_pattern((*prefix, table)).search(text)
    if header is None:
        return top_key_line(text, table, prefix)  # an inline table: the key's line
    return _key_line(text, *_section(text, header.start()), key)
