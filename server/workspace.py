"""Where a workspace may point: inside its project folder, unless the user allows more.

A workspace is often a stranger's: a cloned treebank, a pull request that
CI checks.  Its project file (``annoscore.toml``, ``[tool.annoscore]``) and
its symlinks could name any file on the machine — ``gold = "/etc/passwd"``
would have diagnostics quote it into a public CI log, ``train =
"../../../**/*.conllu"`` would walk the whole disk.  So a path that the
workspace names is used only when it stays inside the project folder:

- paths and globs of the project file (``[[pair]] gold``, ``[splits]``,
  ``[validation] data_dir``) are resolved against the project folder and
  refused — with a message, and the default instead — when they leave it
  (an absolute path, ``..``), and so is a file whose real path (symlinks
  followed) is outside;
- a gold found by the ``NAME.gold.EXT`` convention, and a file met while
  walking a folder, are used when their real path is inside the project
  folder or the folder of the file (or the folder walked) — the places the
  user chose;
- globs walk inside the project only, never into a symlinked folder, and
  visit at most `MAX_GLOB_ENTRIES` entries.

The user, and only the user, may allow paths outside: ``--allow-outside-project``
on the command line, or the editor setting ``annoscore.allowOutsideProject``
(a machine-level setting: VS Code does not take it from a workspace's
settings).  The project file cannot set it.  A refused path is never read,
so no text of it is ever quoted.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from annoscore.scorer.excerpt import printable

FLAG = "--allow-outside-project"
EDITOR_SETTING = "annoscore.allowOutsideProject"
MAX_GLOB_ENTRIES = 100_000
HOW_TO_ALLOW = f"allow it with {FLAG} or the editor setting {EDITOR_SETTING}"
# Set by the command line's FLAG for the whole process (the default of
# `server.config.Settings.allow_outside_project`).
allowed_by_command_line = False


def _real(folder: str) -> str:
    return os.path.realpath(folder)


def is_inside(path: str, folders) -> bool:
    """Whether the real path of ``path`` (symlinks followed) is inside one of ``folders``."""
    real = os.path.realpath(path)
    for folder in folders:
        if not folder:
            continue
        base = _real(folder)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return True
    return False


def leaves(pattern: str) -> bool:
    """Whether a path or glob of the project file leaves its folder by its
    text alone: absolute (``/etc/passwd``, ``~/x``, ``C:\\x``), or ``..``
    above it (``../../x``)."""
    text = pattern.replace("\\", "/")
    if text.startswith(("/", "~")) or os.path.isabs(pattern) or (len(text) > 1 and text[1] == ":"):
        return True
    depth = 0
    for part in text.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def outside_message(shown: str, real: str | None = None) -> str:
    """The words of a refusal: what was named, where it really is."""
    where = f" (it is {printable(real)})" if real and real != shown else ""
    return f"{printable(shown)} is outside the project folder{where}: not read; {HOW_TO_ALLOW}"


@dataclass
class GlobResult:
    files: list[str] = field(default_factory=list)
    problem: str | None = None  # why files were left out (outside, too many entries)


def has_magic(text: str) -> bool:
    return any(c in text for c in "*?[")


def walk_glob(root: str, pattern: str, allow_outside: bool = False,
              limit: int = MAX_GLOB_ENTRIES) -> GlobResult:
    """The regular files under ``root`` that ``pattern`` (``*`` within a name,
    ``**`` any depth, as pathlib's glob) names, sorted; at most ``limit``
    entries visited.  A pattern that leaves the root, or a match whose real
    path does, is left out and said (unless ``allow_outside``)."""
    out = GlobResult()
    if leaves(pattern) and not allow_outside:
        out.problem = outside_message(pattern)
        return out
    text = pattern.replace("\\", "/")
    base = root
    if os.path.isabs(os.path.expanduser(text)):
        base, text = os.sep, os.path.expanduser(text).lstrip("/")
    parts = [p for p in PurePosixPath(text).parts if p not in ("", ".")]
    # The fixed folders before the first magic part are walked to directly.
    while parts and not has_magic(parts[0]) and len(parts) > 1:
        base = os.path.join(base, parts.pop(0))
    if not parts:
        return out
    outside: list[str] = []
    visited = [0]
    found: set[str] = set()

    def admit(path: str) -> None:
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return
        except OSError:
            return
        if not allow_outside and not is_inside(path, [root]):
            outside.append(path)
            return
        found.add(os.path.normpath(path))

    def walk(folder: str, k: int) -> None:
        if visited[0] > limit:
            return
        part = parts[k]
        last = k == len(parts) - 1
        if part == "**":
            if last:  # (pathlib: '**' at the end names folders; no files)
                return
            walk(folder, k + 1)
            for entry in _entries(folder, visited):
                if visited[0] > limit:
                    return
                if _is_real_folder(entry):
                    walk(entry.path, k)
            return
        if not has_magic(part):
            path = os.path.join(folder, part)
            visited[0] += 1
            if last:
                admit(path)
            elif os.path.isdir(path) and not os.path.islink(path):
                walk(path, k + 1)
            return
        for entry in _entries(folder, visited):
            if visited[0] > limit:
                return
            if not fnmatch.fnmatchcase(entry.name, part):
                continue
            if last:
                admit(entry.path)
            elif _is_real_folder(entry):
                walk(entry.path, k + 1)

    walk(base, 0)
    out.files = sorted(found)
    if visited[0] > limit:
        out.problem = (f"{printable(pattern)}: stopped after {limit:,} files and folders (a glob visits at "
                       "most that many); name the files more narrowly")
    elif outside:
        out.problem = (f"{printable(pattern)}: {len(outside)} file{'s' if len(outside) > 1 else ''} "
                       f"outside the project folder (such as {printable(outside[0])}, really "
                       f"{printable(os.path.realpath(outside[0]))}) left out; {HOW_TO_ALLOW}")
    return out


def _entries(folder: str, visited: list[int]) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return []
    visited[0] += len(entries)
    return entries


def _is_real_folder(entry: os.DirEntry) -> bool:
    """A folder that is not a symlink (so a walk never leaves by one, nor loops)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
