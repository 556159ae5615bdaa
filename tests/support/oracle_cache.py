"""The official tools' results (the test oracles), remembered on disk.

Running udtools' validator or conll18_ud_eval.py on a whole treebank takes
seconds; the parity tests ask it the same questions on every run, and the
library's and ``annoscore check``'s parity tests ask the same ones twice
(on two pytest-xdist workers).  So each result is stored under a key made of
the tool, the oracle's own code (udtools' version and the bytes of every file
of its package, data included), the hash of every input file's bytes and the
arguments: any change to any of them is a new key, so the oracle runs again.

Only the oracle's answers are stored here, never annoscore's: a test always
computes annoscore's side afresh.  A cold cache (a clean checkout, CI) runs
the oracle; workers that want the same entry at the same time wait on a lock
for the one that computes it, and every entry is written to a temporary file
and renamed, so a reader never sees half an entry.

The folder is ``.pytest_cache/annoscore-oracle/`` (set by tests/conftest.py's pytest_configure;
``pytest --cache-clear`` empties it); ``ANNOSCORE_ORACLE_CACHE=0`` turns the
disk off (the results are then remembered per process only).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
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


def configure(folder: Path | None) -> None:
    """Where entries live (None: in memory only)."""
    global _folder
    if os.environ.get("ANNOSCORE_ORACLE_CACHE", "1") in ("0", "off", "no"):
        folder = None
    _folder = folder
    _memory.clear()


def folder() -> Path | None:
    return _folder


@functools.cache
def oracle_digest() -> str:
    """udtools' version and the hash of its installed files (code and data)."""
    import importlib.metadata
    import importlib.util

    spec = importlib.util.find_spec("udtools")
    assert spec is not None and spec.submodule_search_locations, "udtools is not installed"
    root = Path(list(spec.submodule_search_locations)[0])
    digest = hashlib.sha256(importlib.metadata.version("udtools").encode())
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


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
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
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
    entry.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=entry.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"value": value}, out)
        os.replace(temporary, entry)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
