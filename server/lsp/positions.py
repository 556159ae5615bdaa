"""Columns between our code points and the client's position encoding.

The engine counts columns in code points (Python string indices).  LSP
clients count in UTF-16 code units unless both sides agreed on UTF-8 or
UTF-32 at initialization.  Only lines with characters outside ASCII (UTF-8)
or outside the Basic Multilingual Plane (UTF-16) differ.
"""

from __future__ import annotations

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(ch: str, encoding: str) -> int:
    code = ord(ch)
    if encoding == UTF16:
        return 2 if code > 0xFFFF else 1
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    return 3 if code < 0x10000 else 4


def to_client(line: str, column: int, encoding: str) -> int:
    """Code point column -> client units."""
    if encoding == UTF32 or column <= 0:
        return max(column, 0)
    prefix = line[:column]
    if prefix.isascii():
        return column
    if encoding == UTF16 and max(prefix) <= "\uffff":
        return column
    return sum(_units(ch, encoding) for ch in prefix) + max(0, column - len(line))


def from_client(line: str, units: int, encoding: str) -> int:
    """Client units -> code point column (a column inside a character rounds down)."""
    if encoding == UTF32 or units <= 0:
        return max(units, 0)
    if line.isascii() or (encoding == UTF16 and (not line or max(line) <= "\uffff")):
        return units
    seen = 0
    for column, ch in enumerate(line):
        width = _units(ch, encoding)
        if seen + width > units:
            return column
        seen += width
    return len(line) + (units - seen)
