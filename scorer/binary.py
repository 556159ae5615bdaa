"""Files that are not UTF-8 text: what they are, and where it shows.

annoscore reads UTF-8 text.  Something else gets one `format-binary`
problem saying what the file is and what to do, with a place:

- a compressed file or an archive (gzip, bzip2, xz, zstd, zip), known by the
  magic number it starts with: decompress it first;
- UTF-16 or UTF-32 text, known by its byte-order mark, or without one by a
  NUL at every other byte of its start: convert it to UTF-8;
- otherwise the first NUL byte, wherever it is, with its line and column
  (counted as the readers count them: lines end at LF, columns are
  characters, a byte that is not UTF-8 is one character).  A text file has
  no NUL bytes, so the file is binary, or damaged there.

A file with such a problem is not scored by `evaluate`, `compare`, `leaks`
and the other commands that read a file whole (there is no text to score, or
a damaged one that a person must look at).  `check`, `watch` and the editor
tell the two kinds apart: a file that is not text at all (compressed, an
archive, UTF-16/32) is that one error; a NUL inside text that is otherwise
UTF-8 is `nul_note` — information at the NUL — and the text is checked and
validated as it is, because the UD validator reads such a file and its
findings (and its verdict) must stay its own.
"""

from __future__ import annotations

import os

from .problems import Problem, Severity
from .reading import open_file

CODE = "format-binary"
HEAD_BYTES = 8192  # how much of a file tells what it is
_READ = 1 << 20

_CONVERT = "annoscore reads UTF-8: convert it, e.g. with iconv -f {0} -t UTF-8"
# Longest first: the UTF-32 LE mark starts with the UTF-16 LE one.
_MARKS = [
    (b"\xff\xfe\x00\x00", "UTF-32 (it starts with a UTF-32 byte-order mark)", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32 (it starts with a UTF-32 byte-order mark)", "UTF-32"),
    (b"\xff\xfe", "UTF-16 (it starts with a UTF-16 byte-order mark)", "UTF-16"),
    (b"\xfe\xff", "UTF-16 (it starts with a UTF-16 byte-order mark)", "UTF-16"),
]
_MAGIC = [
    (b"\x1f\x8b", "gzip-compressed (it starts with gzip's magic number)", "gunzip -k"),
    (b"BZh", "bzip2-compressed (it starts with bzip2's magic number)", "bunzip2 -k"),
    (b"\xfd7zXZ\x00", "xz-compressed (it starts with xz's magic number)", "unxz -k"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed (it starts with zstd's magic number)", "unzstd"),
    (b"PK\x03\x04", "a zip archive (it starts with zip's magic number)", "unzip"),
]
NUL_MESSAGE = "a NUL byte: this is not a text file, or it is damaged here (text has no NUL bytes)"


def what_it_is(head: bytes) -> str | None:
    """The message for a file that its first bytes show is not UTF-8 text
    (compressed, an archive, UTF-16/32), or None."""
    for mark, what, encoding in _MARKS:
        if head.startswith(mark):
            return f"this file is {what}; {_CONVERT.format(encoding)}"
    for magic, what, tool in _MAGIC:
        if head.startswith(magic) and (magic != b"BZh" or head[3:4].isdigit()):
            return f"this file is {what}; decompress it first, e.g. with {tool}"
    sample = head[:512]
    if len(sample) >= 8:
        odd, even = sample[1::2].count(0), sample[0::2].count(0)
        half = len(sample) // 2
        if odd > 0.4 * half and even < 0.05 * half:
            return f"this file looks like UTF-16 (little-endian, without a byte-order mark); {_CONVERT.format('UTF-16LE')}"
        if even > 0.4 * half and odd < 0.05 * half:
            return f"this file looks like UTF-16 (big-endian, without a byte-order mark); {_CONVERT.format('UTF-16BE')}"
    return None


def _column(line_bytes: bytes) -> int:
    """Characters before the end of ``line_bytes`` (bad bytes count one each)."""
    return len(line_bytes.decode("utf-8", errors="surrogateescape"))


def binary_problem(data: bytes) -> Problem | None:
    """The `format-binary` problem of a whole file's bytes, or None for text."""
    what = what_it_is(data[:HEAD_BYTES])
    if what is not None:
        return Problem(CODE, what, 0, 0, 0)
    nul = data.find(b"\x00")
    if nul < 0:
        return None
    line_start = data.rfind(b"\n", 0, nul) + 1
    column = _column(data[line_start:nul])
    return Problem(CODE, NUL_MESSAGE, data.count(b"\n", 0, nul), column, column + 1)


def text_binary_problem(text: str) -> Problem | None:
    """The same for a text already decoded (an editor's buffer): where its
    first NUL is, or None."""
    nul = text.find("\x00")
    if nul < 0:
        return None
    line_start = text.rfind("\n", 0, nul) + 1
    column = nul - line_start
    return Problem(CODE, NUL_MESSAGE, text.count("\n", 0, nul), column, column + 1)


def file_binary_problem(path: str | os.PathLike[str]) -> Problem | None:
    """`binary_problem` of a file, read a megabyte at a time (a large file
    is never held whole).  Raises OSError when it cannot be read."""
    with open_file(path) as f:
        head = f.read(HEAD_BYTES)
        what = what_it_is(head)
        if what is not None:
            return Problem(CODE, what, 0, 0, 0)
        lines, offset, line_start = 0, 0, 0  # line ends so far, where this block and the line start
        block = head
        while block:
            nul = block.find(b"\x00")
            end = nul if nul >= 0 else len(block)
            newlines = block.count(b"\n", 0, end)
            if newlines:
                lines += newlines
                line_start = offset + block.rfind(b"\n", 0, end) + 1
            if nul >= 0:
                f.seek(line_start)
                column = _column(f.read(offset + nul - line_start))
                return Problem(CODE, NUL_MESSAGE, lines, column, column + 1)
            offset += len(block)
            block = f.read(_READ)
    return None


NUL_NOTE = ("a NUL byte: text has no NUL bytes, so the file may be damaged here "
            "(checked and validated as it is; evaluate does not score it)")


def nul_note(text: str) -> Problem | None:
    """The information diagnostic of the first NUL in a text that is
    otherwise text (see the module's docstring), or None."""
    nul = text_binary_problem(text)
    if nul is None:
        return None
    return Problem(CODE, NUL_NOTE, nul.line, nul.start, nul.end, Severity.INFORMATION)


def is_stray_nul(problem: Problem) -> bool:
    """Whether a `binary_problem` is a NUL in text (not a compressed or UTF-16 file)."""
    return problem.message == NUL_MESSAGE
