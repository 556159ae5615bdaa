"""User text in messages: a short excerpt, always one printable line.

Messages quote what a file says (an ID, a HEAD, a label, a word, the place
where two texts part) so that the reader sees what is wrong.  But a file can
hold anything: a 50 MB line without a TAB, NUL bytes, terminal escapes,
bytes that are not UTF-8.  Every message that embeds user text goes through
`excerpt` (or `quoted`, the same in quotes), which

- keeps the first `LIMIT` characters and says how long the whole was:
  ``'aaaa…' (50,000,000 characters)``;
- writes control characters (C0, DEL, C1) as escapes (``\\t``, ``\\n``,
  ``\\x00``), so a message is one line and never a raw NUL or escape
  sequence in a terminal;
- writes a byte that was not UTF-8 (read as a lone surrogate, see
  `scorer.lines`) as ``\\xE9``, so printing the message cannot fail.

Other characters, invisible ones included (no-break spaces, ZWNJ), are kept:
they belong to the words of many languages.
"""

from __future__ import annotations

import re

LIMIT = 40  # characters of user text in one message: enough to recognise it
# Identifiers (sent_ids) are searched for, so they are quoted whole up to
# this length (UD's run to 70 and more).
ID_LIMIT = 120

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_CONTROLS = {c: _NAMED.get(chr(c), f"\\x{c:02x}") for c in [*range(0x20), *range(0x7F, 0xA0)]}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate(match: re.Match) -> str:
    code = ord(match.group())
    # surrogateescape maps an undecodable byte B to U+DC00 + B.
    return f"\\x{code - 0xDC00:02X}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with control characters and undecodable bytes escaped (not cut)."""
    if text.isprintable():
        return text
    text = text.translate(_CONTROLS)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub(_surrogate, text)
    return text


def one_line(text: str) -> str:
    """A message for one line of output: `printable` (a file name with a
    newline in it cannot start a line of its own)."""
    return printable(text)


# Bidirectional formatting characters: in a file name they can make a
# terminal show the name (and what follows it) in another order.  Words of
# right-to-left languages keep them in text; names are escaped.
_BIDI = {c: f"\\u{c:04x}" for c in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def printable_name(name: str) -> str:
    """A file name (or a path) made safe to print in any output format:
    `printable`, and bidirectional controls escaped too.  Every command
    shows paths through this (and so should every output format): a file
    named ``a\x1b[31mRED\x1b[0m\nfake.conllu`` is shown as
    ``a\\x1b[31mRED\\x1b[0m\\nfake.conllu``, one line, no colour."""
    text = printable(name)
    if not text.isascii():
        text = text.translate(_BIDI)
    return text


# What may never reach a terminal raw: C0 controls but TAB and LF, DEL, C1
# (CSI 0x9B starts an escape in some terminals), lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def terminal_safe(text: str) -> str:
    """Output text with every control character but TAB and LF escaped, as
    ``\\u001b``: the last guard of the command line's output, whatever a
    message quotes.  (That form is also a valid escape inside a JSON string,
    so JSON written with ``ensure_ascii=False`` stays JSON.)"""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def excerpt(text: str, limit: int = LIMIT) -> str:
    """``text`` made safe to print, cut to ``limit`` characters (saying how
    many there were)."""
    if len(text) <= limit:
        return printable(text)
    return f"{printable(text[:limit])}… ({len(text):,} characters)"


def quoted(text: str, limit: int = LIMIT) -> str:
    """`excerpt` in single quotes, the length after them when cut:
    ``'abc…' (1,000 characters)``."""
    if len(text) <= limit:
        return f"'{printable(text)}'"
    return f"'{printable(text[:limit])}…' ({len(text):,} characters)"


def identifier(text: str) -> str:
    """A sent_id (or another name a user searches for) in a message: whole
    unless it is absurdly long."""
    return excerpt(text, ID_LIMIT)
