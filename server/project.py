"""Where a project is: the nearest folder upwards with a project file.

A project file is ``annoscore.toml``, or a ``pyproject.toml`` with a
``[tool.annoscore]`` table.  Kept apart from `server.config` (which reads
and checks what the file says) so that a command can tell whether there is
a project at all without loading the settings' machinery: ``annoscore
evaluate`` outside a project starts faster.
"""

from __future__ import annotations

import os
from pathlib import Path

from annoscore.scorer.reading import SETTINGS_LIMIT, read_file

CONFIG_FILES = ("annoscore.toml", "pyproject.toml")


def project_source(root: str | os.PathLike[str] | None) -> tuple[Path, str | ValueError | OSError] | None:
    """The project file at the root — annoscore.toml, or a pyproject.toml
    with [tool.annoscore] — and its text (or why it cannot be read), read once."""
    if root is None:
        return None
    own = Path(root) / CONFIG_FILES[0]
    for path in (own, Path(root) / CONFIG_FILES[1]):
        if not os.path.lexists(path):
            continue
        try:
            data = read_file(path, SETTINGS_LIMIT)
        except OSError as error:
            if path is own:
                return path, error
            continue
        if path is own or _has_table(data):
            try:
                return path, data.decode("utf-8")
            except UnicodeDecodeError as error:
                return path, error
    return None


def shadowed_pyproject(root: str | os.PathLike[str] | None) -> tuple[Path, str] | None:
    """A pyproject.toml with [tool.annoscore] beside an annoscore.toml (which
    is the one read), and its text; None otherwise."""
    if root is None or not (Path(root) / CONFIG_FILES[0]).is_file():
        return None
    path = Path(root) / CONFIG_FILES[1]
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError:
        return None
    return (path, data.decode("utf-8", "replace")) if _has_table(data) else None


def _has_table(data: bytes) -> bool:
    """Whether pyproject.toml's bytes have a [tool.annoscore] table (or its
    sub-tables, or dotted keys): looked for in the text, not parsed, to
    stay cheap; a false hit is parsed and found empty."""
    return b"tool.annoscore" in data or b"[tool]" in data and b"annoscore" in data


def project_root(start: str | os.PathLike[str]) -> str | None:
    """The nearest folder from ``start`` (a folder or a file) upwards that
    holds a project file (annoscore.toml, or pyproject.toml with
    [tool.annoscore]); None when there is none."""
    folder = Path(os.path.abspath(start))
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        if project_source(candidate) is not None:
            return str(candidate)
    return None
