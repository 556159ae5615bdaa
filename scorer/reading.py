"""Opening files: every file annoscore reads is opened here.

A workspace is often someone else's (a cloned treebank, a pull request that
CI checks), so a name in it may lead anywhere: a symlink to ``/dev/zero``
(endless), to ``/dev/stdin`` or a FIFO (an open or a read that never
returns), to a socket.  Every reader — predictions, gold, splits, the UD
language data, the ledger, the settings files — therefore opens its file
with `open_file` (or reads it whole with `read_file`), which

1. opens it without blocking (``O_NONBLOCK``: opening a FIFO with no writer
   returns at once instead of waiting for one), then asks the open
   descriptor what it is (``fstat``, so nothing can be swapped in between):
   anything but a regular file — a FIFO, a device, a socket, a folder — is
   refused with `ReadRefused`, whose message names the path and what it is.
   A symlink is followed, so it is only accepted when it leads to a regular
   file;
2. refuses a file larger than the size bound (`size_limit`, 4 GiB unless
   the user sets it: ``--max-file-size`` on the command line,
   ``annoscore.maxFileSize`` in an editor, or ``ANNOSCORE_MAX_FILE_SIZE``
   in the environment) before reading any of it; reading stops at the bound
   too, should the file grow meanwhile.  A 2 GB treebank is read; a
   sparse file of a terabyte is not.  Settings files and the language data
   have smaller bounds of their own (`SETTINGS_LIMIT`, `DATA_LIMIT`).

`ReadRefused` is an `OSError`, so every caller's existing "cannot be read"
path reports it (``error.strerror`` is the reason).  A stream that the user
names on the command line (``-``, ``<(…)``) is not read here but copied once
by the command (`server.cli.inputs`), with the same bound.
"""

from __future__ import annotations

import io
import os
import re
import stat

DEFAULT_LIMIT = 4 << 30
SETTINGS_LIMIT = 16 << 20   # annoscore.toml, pyproject.toml, a manifest
DATA_LIMIT = 256 << 20      # one file of the UD language data, the ledger
ENVIRONMENT = "ANNOSCORE_MAX_FILE_SIZE"
# What every command says of a file of no bytes (and exits 1 for).
EMPTY = "the file is empty: nothing to score or check"

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
          "tib": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*")


def parse_size(text: str) -> int:
    """``4G``, ``500M``, ``123456`` (bytes; K, M, G, T are powers of 1024).
    Raises ValueError with a message for anything else."""
    match = _SIZE.fullmatch(str(text))
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _UNITS:
        raise ValueError(f"a size is a number of bytes, optionally with K, M, G or T (such as 4G), "
                         f"not {str(text)[:40]!r}")
    size = int(float(match.group(1)) * _UNITS[unit])
    if size < 1:
        raise ValueError("a size must be at least 1 byte")
    return size


def shown_size(size: int) -> str:
    for unit, name in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit:
            return f"{size / unit:.1f}".rstrip("0").rstrip(".") + f" {name}"
    return f"{size} bytes"


def _from_environment() -> int:
    value = os.environ.get(ENVIRONMENT)
    if not value:
        return DEFAULT_LIMIT
    try:
        return parse_size(value)
    except ValueError:
        return DEFAULT_LIMIT


_limit = _from_environment()


def size_limit() -> int:
    """The largest file annoscore reads, in bytes."""
    return _limit


def set_size_limit(size: int | None) -> None:
    """Set the bound (None: back to the environment's, or the default)."""
    global _limit
    _limit = _from_environment() if size is None else int(size)


class ReadRefused(OSError):
    """A file annoscore will not read: not a regular file, or too large.
    ``strerror`` says why (``is a FIFO, not a regular file``)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(reason)
        self.filename = os.fspath(path)
        self.strerror = reason

    def __str__(self) -> str:
        from .excerpt import printable

        return f"{printable(os.fspath(self.filename))}: {self.strerror}"


_KINDS = ((stat.S_ISFIFO, "a FIFO (a named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def what_it_is(mode: int) -> str | None:
    """What a file of this mode is when it is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def not_regular(mode: int) -> str | None:
    """The reason a file of this mode is refused, or None for a regular file."""
    kind = what_it_is(mode)
    if kind is None:
        return None
    return f"is {kind}, not a regular file: annoscore reads regular files only" if kind != "not a regular file" \
        else "is not a regular file: annoscore reads regular files only"


def too_large(size: int, limit: int) -> str:
    return (f"is {shown_size(size)}, over annoscore's limit of {shown_size(limit)} for one file "
            f"(raise it with --max-file-size, annoscore.maxFileSize or {ENVIRONMENT})")


def refusal(path: str | os.PathLike[str], limit: int | None = None) -> str | None:
    """Why ``path`` would be refused (by its status, without opening it), or
    None when it is a regular file within the bound.  A missing file is None
    too: opening it says so."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    reason = not_regular(status.st_mode)
    if reason is None and status.st_size > (size_limit() if limit is None else limit):
        reason = too_large(status.st_size, size_limit() if limit is None else limit)
    return reason


class _Bounded(io.RawIOBase):
    """A regular file's descriptor that reads at most ``limit`` bytes (one
    more is an error: the file grew past the bound after it was opened)."""

    def __init__(self, fd: int, path: str, limit: int) -> None:
        super().__init__()
        self._file = io.FileIO(fd, "rb", closefd=True)
        self.name = path
        self._left = limit
        self._limit = limit

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        position = self._file.seek(offset, whence)
        self._left = self._limit - position
        return position

    def tell(self) -> int:
        return self._file.tell()

    def fileno(self) -> int:
        return self._file.fileno()

    def readinto(self, buffer) -> int:
        view = memoryview(buffer)
        n = self._file.readinto(view[:max(self._left, 0) + 1])
        self._left -= n
        if self._left < 0:
            raise ReadRefused(self.name, too_large(self._limit + 1, self._limit))
        return n

    def close(self) -> None:
        if not self.closed:
            self._file.close()
        super().close()


def open_file(path: str | os.PathLike[str], limit: int | None = None) -> io.BufferedReader:
    """``path`` opened for reading bytes, when it is a regular file (a
    symlink to one included) within the bound; else `ReadRefused`.  Other
    `OSError` as ``open`` raises them (missing, no permission)."""
    limit = size_limit() if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        status = os.fstat(fd)
        reason = not_regular(status.st_mode)
        if reason is None and status.st_size > limit:
            reason = too_large(status.st_size, limit)
        if reason is not None:
            raise ReadRefused(path, reason)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        raw = _Bounded(fd, os.fspath(path), limit)
    except BaseException:
        os.close(fd)
        raise
    return io.BufferedReader(raw, 1 << 20)


def read_file(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The whole of a regular file, read once (see `open_file`)."""
    with open_file(path, limit) as f:
        return f.read()


def is_regular_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file (a symlink followed), by its status."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def read_named(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """A file the user named on the command line, read whole: a regular file
    as `read_file` reads it, or a pipe (``<(…)``, a FIFO, ``/dev/stdin``
    when it is one), which only the user can have meant, read to its end
    within the bound.  Devices and sockets are refused as everywhere."""
    limit = size_limit() if limit is None else limit
    try:
        status = os.stat(path)
    except OSError:
        status = None
    if status is None or not stat.S_ISFIFO(status.st_mode):
        return read_file(path, limit)
    with open(path, "rb") as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise ReadRefused(path, f"gives more than annoscore's limit of {shown_size(limit)} for one file "
                                f"(raise it with --max-file-size, annoscore.maxFileSize or {ENVIRONMENT})")
    return data
