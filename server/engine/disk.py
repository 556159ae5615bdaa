"""Files read from disk for `check` and `watch`: their text, and what their bytes say.

An editor sends text; a file on disk is bytes.  `read_disk_file` turns them
into the text the engine keeps and the problems the text cannot show:

- a file that is not text (`scorer.binary`: compressed, UTF-16)
  gets an empty text and its one ``format-binary`` problem; a NUL in text
  stays in the text (the document notes it: `scorer.binary.nul_note`);
- a byte that is not UTF-8 becomes one U+FFFD (one character per byte, so
  columns after it are those `annoscore evaluate` reports) and a
  ``format-encoding`` problem, worded as that format's reader words it.

The engine shows those problems on the document (``Document.byte_problems``);
`read_disk_text` is the text alone, for gold files read behind the scenes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from annoscore.scorer.binary import binary_problem, is_stray_nul
from annoscore.scorer.conllu.blocks import encoding_problems
from annoscore.scorer.lines import decode_text
from annoscore.scorer.problems import Problem
from annoscore.scorer.reading import read_file

_UNDECODED = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, read by surrogateescape


@dataclass(frozen=True)
class DiskText:
    """A file's text as the readers see it (each byte that is not UTF-8 read
    as U+FFFD), and what its bytes had that the text cannot show: bytes that
    are not UTF-8 (``format-encoding``), or no text at all (``format-binary``,
    with an empty text)."""

    text: str
    problems: tuple[Problem, ...] = ()


def read_disk_file(path: str, format: str = "conllu") -> DiskText | None:
    """`DiskText` of a file, or None when it cannot be read (missing, or
    refused by `scorer.reading`: see `disk_refusal` for why)."""
    try:
        data = read_file(path)
    except OSError:
        return None
    binary = binary_problem(data)
    if binary is not None and not is_stray_nul(binary):
        return DiskText("", (binary,))
    try:
        return DiskText(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    # One character per bad byte, so that columns are those `evaluate` gives.
    if format == "conllu":
        text = data.decode("utf-8", errors="surrogateescape")
        bom = 1 if text.startswith("\ufeff") else 0  # columns count after it
        rest, problems = encoding_problems(0, text[bom:])
        return DiskText(text[:bom] + rest, tuple(problems))
    text, problems = decode_text(data)
    text = ("\ufeff" if data.startswith(b"\xef\xbb\xbf") else "") + _UNDECODED.sub("\ufffd", text)
    return DiskText(text, tuple(p for p in problems if p.code == "format-encoding"))


def read_disk_text(path: str) -> str | None:
    """A file's text (see `read_disk_file`), or None when it cannot be read
    or is not text."""
    disk = read_disk_file(path)
    if disk is None or any(p.code == "format-binary" for p in disk.problems):
        return None
    return disk.text
