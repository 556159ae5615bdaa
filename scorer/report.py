"""What every report shares: signatures, tables, number formatting.

A signature ties a number to what produced it (as sacrebleu's do): the
annoscore version, the options that change numbers, and the SHA-256 of each
input file.  Reports print it under the table and put it in the JSON.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from . import __version__
from .reading import open_file


def file_sha256(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open_file(path) as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class Signature:
    format: str
    options: dict[str, Any] = field(default_factory=dict)
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # role -> {path, sha256}
    version: str = __version__

    def add_file(self, role: str, path: str | os.PathLike[str], sha256: str | None = None) -> None:
        self.files[role] = {"path": os.fspath(path), "sha256": sha256 or file_sha256(path)}

    def as_dict(self) -> dict[str, Any]:
        return {"annoscore": self.version, "format": self.format, "options": dict(self.options),
                "files": {role: dict(info) for role, info in self.files.items()},
                "text": str(self)}

    def __str__(self) -> str:
        parts = [f"annoscore:{self.version}", f"format:{self.format}"]
        for key, value in self.options.items():
            if isinstance(value, bool):
                value = "yes" if value else "no"
            elif value is None:
                value = "none"
            parts.append(f"{key}:{value}")
        for role, info in self.files.items():
            parts.append(f"{role}:sha256={info['sha256'][:16]}")
        return "|".join(parts)


def percent(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{100 * value:.{digits}f}"


def proportion(value: float | None, digits: int = 6) -> float | None:
    """A proportion for JSON: rounded to ``digits`` places (enough to tell
    counts apart) so output is stable, None kept as null."""
    return None if value is None else round(value, digits)


def render_table(headers: Sequence[str], rows: Iterable[Sequence[Any]],
                 align: str | None = None) -> str:
    """A plain table in the official scorer's style: ``name | a | b``.

    ``align`` has one letter per column, ``l`` or ``r`` (default: the first
    column left, the others right).
    """
    rows = [[str(cell) for cell in row] for row in rows]
    align = align or "l" + "r" * (len(headers) - 1)
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            out.append(cell.ljust(widths[i]) if align[i] == "l" else cell.rjust(widths[i]))
        return " | ".join(out).rstrip()

    separator = "-+-".join("-" * w for w in widths)
    return "\n".join([line(headers), separator] + [line(row) for row in rows])
