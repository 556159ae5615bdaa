"""Input files: read streams once, check files before reading them, guess their format.

A command reads each input more than once (a look at its start, the
scoring, its SHA-256, the parts of a parallel run).  A pipe cannot be read
twice: ``-`` (standard input), a FIFO or ``<(process substitution)`` is
therefore copied once into a temporary file, which the command reads as
often as it needs; messages and signatures still name the input as the
user wrote it (`InputFile`).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from annoscore.scorer.binary import HEAD_BYTES, binary_problem
from annoscore.scorer.excerpt import printable
from annoscore.scorer.formats import EXTENSIONS, FORMATS
from annoscore.scorer.reading import EMPTY, open_file, shown_size, size_limit

from .errors import InputError, UsageError



STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class InputFile:
    """An input as the user named it (``name``: what messages and signatures
    show) and where to read it (``path``: the file itself, or a copy of a
    stream)."""

    name: str
    path: str

    def shown(self, text: str) -> str:
        """``text`` (an error's message) with the path read named as the user named it."""
        return text.replace(self.path, self.name) if self.path != self.name else text


def _is_stream(name: str) -> bool:
    """A pipe the user named (``<(…)``, a FIFO): copied once.  Devices and
    sockets are not streams to copy: `check_input_file` refuses them."""
    try:
        return stat.S_ISFIFO(os.stat(name).st_mode)
    except OSError:
        return False  # missing: check_input_file says so


def _copy(stream, out, name: str) -> None:
    """Copy a stream, at most the size bound of one file (`scorer.reading`)."""
    limit, copied = size_limit(), 0
    while chunk := stream.read(1 << 20):
        copied += len(chunk)
        if copied > limit:
            raise InputError(f"{printable(name)}: gives more than annoscore's limit of {shown_size(limit)} for one "
                             "file (raise it with --max-file-size or ANNOSCORE_MAX_FILE_SIZE)")
        out.write(chunk)


@contextmanager
def read_once(names: list[str]) -> Iterator[list[InputFile]]:
    """The inputs, each stream among them copied once into a temporary
    folder that is removed afterwards.  ``-`` may stand for one of them."""
    if names.count(STDIN) > 1:
        raise UsageError("only one input can be - (standard input)")
    folder = None
    try:
        inputs = []
        for k, name in enumerate(names):
            if name != STDIN and not _is_stream(name):
                inputs.append(InputFile(name, name))
                continue
            if folder is None:
                import tempfile  # (only for a stream: tempfile loads random and more)

                folder = tempfile.mkdtemp(prefix="annoscore-input-")
            copy = os.path.join(folder, f"{k}-{os.path.basename(name) if name != STDIN else 'stdin'}")
            try:
                with open(copy, "wb") as out:
                    if name == STDIN:
                        _copy(sys.stdin.buffer, out, STDIN_NAME)
                    else:
                        with open(name, "rb") as stream:
                            _copy(stream, out, name)
            except OSError as error:
                raise InputError(f"{printable(name)}: cannot be read: {error.strerror or error}") from None
            inputs.append(InputFile(STDIN_NAME if name == STDIN else name, copy))
        yield inputs
    finally:
        if folder is not None:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


def input_problem(path: str, role: str | None = None, name: str | None = None) -> str | None:
    """Why a file named on the command line cannot be used, in one line
    naming it (as ``name``, default ``path``), or None.  Every command says
    the same of the same file, and exits 1 for it: missing, a folder, not a
    regular file, unreadable, empty, or not text (compressed, UTF-16, NUL
    bytes at its start: what `scorer.binary` says, with what to do)."""
    name = printable(name or path)
    what = f" ({role})" if role else ""
    if not os.path.exists(path):
        return f"{name}: no such file{what}"
    if os.path.isdir(path):
        return f"{name}: is a directory, not a file{what}"
    try:
        with open_file(path) as f:
            head = f.read(HEAD_BYTES)
    except OSError as error:
        return f"{name}: cannot be read: {error.strerror or error}{what}"
    if not head:
        return f"{name}: {EMPTY}{what}"
    # What the start shows; a NUL further on is found by the readers.
    binary = binary_problem(head)
    if binary is not None:
        return f"{binary.location(name)}: {binary.message}{what}"
    return None


def check_input_file(path: str, role: str | None = None, name: str | None = None) -> None:
    """Raise InputError with `input_problem`'s line unless the file can be used."""
    problem = input_problem(path, role, name)
    if problem is not None:
        raise InputError(problem)


def infer_format(name: str, requested: str | None, path: str | None = None) -> str:
    """The format asked for, or the one the file name (or, failing that, the
    first lines of the file at ``path``, default ``name``) suggests."""
    if requested:
        if requested not in FORMATS:
            raise UsageError(f"unknown format '{requested}' (use one of: {', '.join(FORMATS)})")
        return requested
    extension = os.path.splitext(name)[1].lower()
    if extension in EXTENSIONS:
        return EXTENSIONS[extension]
    try:
        with io.TextIOWrapper(open_file(path or name), encoding="utf-8", errors="replace") as f:
            for _ in range(50):
                line = f.readline()
                if not line:
                    break
                if line.strip() and not line.startswith("#"):
                    if line.count("\t") >= 9:
                        return "conllu"
                    break
    except OSError:
        pass
    raise UsageError(f"{printable(name)}: cannot tell the format from the name or the first lines; give --format "
                     f"({', '.join(FORMATS)})")
