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

CONFIG_FILES = ("annoscore.toml", "pyproject.toml")


def project_source(root: str | os.PathLike[str] | None) -> tuple[Path, str | ValueError | OSError] | None:
    """The project file at the root — annoscore.toml, or a pyproject.toml
    with [tool.annoscore] — and its text (or why it cannot be read), read once."""
    if root is None:
        return None
    own = Path(root) / CONFIG_FILES[0]
    for path in (own, Path(root) / CONFIG_FILES[1]):
        if not path.is_file():
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            if path is own:
                return path, error
            continue
        if path is own or b"[tool.annoscore" in data:
            try:
                return path, data.decode("utf-8")
            except UnicodeDecodeError as error:
                return path, error
    return None


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
