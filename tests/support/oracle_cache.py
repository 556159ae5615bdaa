"""The official tools' results (the test oracles), remembered on disk.

Running udtools' validator or conll18_ud_eval.py on a whole treebank takes
seconds; the parity tests ask it the same questions on every run, and the
library's and ``annoscore check``'s parity tests ask the same ones twice
(on two pytest-xdist workers).  So each result is stored under a key made of
the tool, the oracle's own code (udtools' version and the bytes of every file
of its package, data included), the hash of every input file's bytes and the
arguments: any change to any of them is a new key, so the oracle runs again.

The key is complete on purpose: the folder outlives the checkout (below),
so an entry must be right for whatever asks for it, whoever ran it first.
Besides udtools' own files, its dependencies' versions and Python's (the
validator's character classes come from ``unicodedata``) are in it.

Only the oracle's answers are stored here, never annoscore's: a test always
computes annoscore's side afresh.  A cold cache (a clean checkout, CI) runs
the oracle; workers that want the same entry at the same time wait on a lock
for the one that computes it, and every entry is written to a temporary file
and renamed, so a reader never sees half an entry.

The folder is the user's, outside the checkout, so that a fresh clone (a
CI checkout, a second worktree) does not run every oracle cold:
``$XDG_CACHE_HOME/annoscore-tests/oracle/`` (``~/.cache/...`` without it;
`default_folder`, set by tests/conftest.py's pytest_configure).  It is
private: made 0700, its entries and locks 0600, and a folder another user
owns or others may write is not used (a planted entry would be a wrong
oracle).  ``ANNOSCORE_ORACLE_CACHE=off`` (or 0, no) turns the disk off (the
results are then remembered per process only: what a run that must not
depend on an earlier one wants); ``ANNOSCORE_ORACLE_CACHE=/a/folder`` puts
it there (a CI cache step).  To empty it: ``rm -r ~/.cache/annoscore-tests``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

try:  # POSIX; elsewhere workers may both compute, the rename still keeps entries whole
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

# Raise when the stored form of an entry changes.
FORMAT = 1

_folder: Path | None = None
_MISSING = object()
_memory: dict[str, Any] = {}


_OFF = ("0", "off", "no")


def default_folder() -> Path | None:
    """The folder ``ANNOSCORE_ORACLE_CACHE`` and ``XDG_CACHE_HOME`` say (None: off)."""
    chosen = os.environ.get("ANNOSCORE_ORACLE_CACHE", "")
    if chosen.lower() in _OFF:
        return None
    if chosen and chosen.lower() not in ("1", "on", "yes"):
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "annoscore-tests" / "oracle"


def configure(folder: Path | None) -> None:
    """Where entries live (None: in memory only; also when
    ``ANNOSCORE_ORACLE_CACHE`` is off, or the folder is not private)."""
    global _folder
    if os.environ.get("ANNOSCORE_ORACLE_CACHE", "").lower() in _OFF:
        folder = None
    _folder = folder if folder is None or _private(folder) else None
    _memory.clear()


def _private(folder: Path) -> bool:
    """The folder made (0700) or found ours and closed to others (then made 0700)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = folder.stat()
        if found.st_uid != os.getuid() or not stat.S_ISDIR(found.st_mode):
            return False
        os.chmod(folder, 0o700)
        return True
    except OSError:
        return False


def folder() -> Path | None:
    return _folder


@functools.cache
def oracle_digest() -> str:
    """udtools' version and the hash of its installed files (code and data),
    with Python's version and those of the libraries udtools requires."""
    import importlib.metadata
    import importlib.util

    spec = importlib.util.find_spec("udtools")
    assert spec is not None and spec.submodule_search_locations, "udtools is not installed"
    root = Path(list(spec.submodule_search_locations)[0])
    digest = hashlib.sha256(importlib.metadata.version("udtools").encode())
    digest.update(sys.version.encode())
    for requirement in sorted(importlib.metadata.requires("udtools") or ()):
        name = _requirement_name(requirement)
        try:
            digest.update(f"{name}=={importlib.metadata.version(name)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{name} absent".encode())
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _requirement_name(requirement: str) -> str:
    """The distribution a requirement names ("regex>=2022; extra == 'x'": "regex")."""
    name = requirement.split(";")[0].split("[")[0]
    for cut in "<>=!~ (":
        name = name.split(cut)[0]
    return name.strip()


def key(tool: str, inputs: Sequence[str | Path], arguments: Sequence[Any]) -> str:
    files = [hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in inputs]
    text = json.dumps([FORMAT, tool, oracle_digest(), files, list(arguments)])
    return hashlib.sha256(text.encode()).hexdigest()


def remembered(tool: str, inputs: Sequence[str | Path], arguments: Sequence[Any],
               compute: Callable[[], Any]) -> Any:
    """``compute()``'s JSON-able result, from the cache when this tool, its
    code, these files' bytes and these arguments have been seen before.
    An exception from ``compute`` is raised and nothing is stored."""
    name = key(tool, inputs, arguments)
    if name in _memory:
        return _memory[name]
    if _folder is None:
        value = compute()
    else:
        entry = _folder / f"{tool}-{name}.json"
        with _locked(_folder / f"{tool}-{name}.lock"):
            value = _read(entry)
            if value is _MISSING:
                value = compute()
                _write(entry, value)
    _memory[name] = value
    return value


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    if fcntl is None:  # pragma: no cover
        yield
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o600), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _read(entry: Path) -> Any:
    try:
        return json.loads(entry.read_text(encoding="utf-8"))["value"]
    except (OSError, ValueError, KeyError, TypeError):
        return _MISSING  # absent or unreadable: computed again and rewritten


def _write(entry: Path, value: Any) -> None:
    entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=entry.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"value": value}, out)
        os.replace(temporary, entry)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
