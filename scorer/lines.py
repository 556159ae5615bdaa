"""Reading files of one item per line (segmentation, labels), the way litsea reads them.

A line ends at ``\\n``; a ``\\r`` right before it goes too, so a CRLF file
reads like an LF file.  Nothing else is trimmed: spaces, TABs and other
whitespace at either end stay in the line, because in segmentation files they
can be tokens.  A final ``\\n`` does not start an empty last line, and a last
line without ``\\n`` still counts.  This is what Rust's ``BufRead::lines``
does, which litsea's ``evaluate`` uses; Python's ``str.splitlines`` would
also split at form feeds, U+2028 and others, so it is not used.

Bytes that are not UTF-8 do not stop the reading: each one becomes a
surrogate escape (one character, so the rest of the line keeps its
columns), and the line gets a ``format-encoding`` problem naming the column.
A UTF-8 byte-order mark at the start is removed, with a warning, because it
is not part of the text.  A file that is not text at all (a NUL byte,
compressed, UTF-16: see `scorer.binary`) gives no lines and one
``format-binary`` error that says where and what to do.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterator

from .binary import binary_problem
from .problems import Problem, Severity
from .reading import open_file

_SURROGATE = re.compile("[\udc80-\udcff]")


@dataclass
class LineFile:
    """The lines of a file (without their line ends), and what was wrong with its bytes."""

    lines: list[str]
    problems: list[Problem] = field(default_factory=list)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as defined above."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ended with a line end (or was empty)
    return lines


def decode_text(data: bytes) -> tuple[str, list[Problem]]:
    """UTF-8 bytes as text, and what could not be decoded (one problem per
    line).  A file that is not text (`scorer.binary`) gives no text and one
    `format-binary` error."""
    binary = binary_problem(data)
    if binary is not None:
        return "", [binary]
    problems: list[Problem] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        problems.append(Problem("format-bom", "a byte-order mark at the start of the file was ignored",
                                0, 0, 1, Severity.WARNING))
    try:
        return data.decode("utf-8"), problems
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="surrogateescape")
    line, line_start, last_line = 0, 0, -1
    for match in _SURROGATE.finditer(text):
        position = match.start()
        line += text.count("\n", line_start, position)
        line_start = text.rfind("\n", 0, position) + 1
        if line != last_line:  # the first bad byte of each line
            last_line = line
            column = position - line_start
            problems.append(Problem(
                "format-encoding", f"not UTF-8: byte 0x{ord(match.group()) - 0xDC00:02X} at column {column + 1}",
                line, column, column + 1))
    return text, problems


def decode_lines(data: bytes) -> LineFile:
    """Decode UTF-8 bytes into lines, reporting what cannot be decoded."""
    text, problems = decode_text(data)
    return LineFile(split_lines(text), problems)


def line_blocks(text: str, size: int = 1 << 20) -> Iterator[tuple[int, list[str]]]:
    """The lines of ``text`` (as `split_lines` cuts them) in blocks of about
    ``size`` characters: (number of the block's first line, its lines).  For
    reading big files without a list of all their lines."""
    position, number = 0, 0
    while position < len(text):
        end = text.find("\n", position + size)
        end = len(text) if end < 0 else end + 1
        lines = split_lines(text[position:end])
        yield number, lines
        number += len(lines)
        position = end


def read_lines(path: str | os.PathLike[str]) -> LineFile:
    """Read a file's lines.  Raises OSError when the file cannot be read at all."""
    with open_file(path) as f:
        return decode_lines(f.read())


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems that make a file unusable for scoring (not warnings)."""
    return [p for p in problems if p.severity == Severity.ERROR]
