"""Checking input files before reading them, and guessing their format."""

from __future__ import annotations

import os

from scorer.binary import HEAD_BYTES, binary_problem

from .errors import InputError, UsageError

FORMATS = ("conllu", "space", "tsv", "labels")
_EXTENSIONS = {".conllu": "conllu", ".conll": "conllu", ".txt": "space", ".tsv": "tsv"}


def check_input_file(path: str, role: str) -> None:
    """Raise InputError, naming the file, unless it is a readable, non-empty text file."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file ({role})")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a file ({role})")
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError as error:
        raise InputError(f"{path}: cannot be read: {error.strerror or error}") from None
    if not head:
        raise InputError(f"{path}: the file is empty ({role})")
    # What the start shows; a NUL further on is found by the readers.
    binary = binary_problem(head)
    if binary is not None:
        raise InputError(f"{binary.location(path)}: {binary.message} ({role})")


def infer_format(path: str, requested: str | None) -> str:
    """The format asked for, or the one the file name (or, failing that, the
    first lines) suggests."""
    if requested:
        if requested not in FORMATS:
            raise UsageError(f"unknown format '{requested}' (use one of: {', '.join(FORMATS)})")
        return requested
    extension = os.path.splitext(path)[1].lower()
    if extension in _EXTENSIONS:
        return _EXTENSIONS[extension]
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
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
    raise UsageError(f"{path}: cannot tell the format from the name; give --format "
                     f"({', '.join(FORMATS)})")
