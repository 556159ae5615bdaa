"""The ledger of final runs: a test split is scored once per system.

Every look at a test set while choices are still being made turns it into
a second validation set.  So a gold file that ``[splits]`` declares a test
split is scored only with ``annoscore evaluate --final``, and each such run
is written down in ``.annoscore/final-runs.json`` at the project root::

    {"about": "...", "runs": [
      {"system": "parser-v2", "pred": {"path": "out/test.conllu", "sha256": "…"},
       "gold": {"path": "gold/test.conllu", "sha256": "…"}, "format": "conllu",
       "options": {"strict": false, …}, "time": "2025-06-01T12:00:00Z",
       "signature": "annoscore:0.1.0|format:conllu|…|final:yes|…", "overwrite": false}]}

A second final run for the same system and the same gold (its path, or
its content under another name) is refused unless ``--overwrite``, which
is recorded too (``"overwrite": true``): the ledger only grows.  It is
written whole to a temporary file and renamed over the old one, under a
lock where the system has ``fcntl``, so two runs at once cannot lose each
other's entry.  A ledger that cannot be read is never replaced: the run is
refused with what to do.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from annoscore.scorer.excerpt import excerpt, printable, quoted
from annoscore.scorer.reading import DATA_LIMIT, read_file

FOLDER = ".annoscore"
NAME = "final-runs.json"
ABOUT = ("annoscore's ledger of final runs: each scoring of a declared test split with "
         "`annoscore evaluate --final`. A second run for the same system and gold needs --overwrite. "
         "Do not edit by hand.")


class LedgerError(Exception):
    """The ledger cannot be read or written: the message says what and what to do."""


def ledger_path(root: str) -> str:
    return os.path.join(root, FOLDER, NAME)


@dataclass(frozen=True)
class Run:
    system: str
    pred_path: str
    pred_sha256: str
    gold_path: str
    gold_sha256: str
    format: str
    options: dict[str, Any]
    signature: str
    overwrite: bool = False
    time: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"system": self.system, "pred": {"path": self.pred_path, "sha256": self.pred_sha256},
                "gold": {"path": self.gold_path, "sha256": self.gold_sha256}, "format": self.format,
                "options": self.options, "time": self.time, "signature": self.signature,
                "overwrite": self.overwrite}


def ledger_folder(root: str) -> str:
    """The project's ``.annoscore`` folder, when it is a real folder inside
    the project (or not there yet).  Raises LedgerError when it is a symlink
    or not a folder: the ledger and its lock are never written elsewhere
    than where the messages say, however the workspace was made."""
    folder = os.path.join(root, FOLDER)
    try:
        status = os.lstat(folder)
    except FileNotFoundError:
        return folder
    except OSError as error:
        raise LedgerError(f"{printable(folder)}: cannot be read: {error.strerror or error}") from None
    if stat.S_ISLNK(status.st_mode):
        raise LedgerError(f"{printable(folder)} is a symlink (to {printable(os.path.realpath(folder))}): "
                          "annoscore keeps the ledger of final runs only in the project's own .annoscore "
                          "folder; make it a folder")
    if not stat.S_ISDIR(status.st_mode):
        raise LedgerError(f"{printable(folder)} is not a folder: annoscore keeps the ledger of final runs "
                          "in it; move it away")
    return folder


def read_runs(root: str) -> list[dict[str, Any]]:
    """The runs recorded so far ([] without a ledger).  Raises LedgerError
    when the file is there but is not a ledger (nor a regular file in the
    project's own .annoscore folder)."""
    folder = ledger_folder(root)
    lock = os.path.join(folder, ".lock")
    if os.path.islink(lock):
        raise LedgerError(f"{printable(lock)} is a symlink: annoscore does not follow it; remove it (the "
                          "lock is made again)")
    path = ledger_path(root)
    if os.path.islink(path):
        raise LedgerError(f"{printable(path)} is a symlink: the ledger of final runs is a file of the "
                          "project's own; restore it from version control, or move it away to start a new one")
    try:
        data = read_file(path, DATA_LIMIT)
    except FileNotFoundError:
        return []
    except OSError as error:
        raise LedgerError(f"{printable(path)}: cannot be read: {error.strerror or error}") from None
    try:
        ledger = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        what = "nested too deeply" if isinstance(error, RecursionError) else excerpt(str(error), 80)
        raise LedgerError(f"{printable(path)}: not a ledger of final runs ({what}); restore it "
                          "from version control, or move it away to start a new one") from None
    runs = ledger.get("runs") if isinstance(ledger, dict) else None
    if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
        raise LedgerError(f"{path}: not a ledger of final runs (no list of runs); restore it from "
                          "version control, or move it away to start a new one")
    return runs


def earlier_run(runs: list[dict[str, Any]], system: str, gold_path: str, gold_sha256: str) -> dict | None:
    """The latest recorded run of ``system`` on this gold (by path or by content)."""
    for run in reversed(runs):
        gold = run.get("gold") if isinstance(run.get("gold"), dict) else {}
        if run.get("system") == system and (gold.get("path") == gold_path or gold.get("sha256") == gold_sha256):
            return run
    return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def _locked(root: str) -> Iterator[None]:
    folder = ledger_folder(root)
    os.makedirs(folder, exist_ok=True)
    folder = ledger_folder(root)  # (made meanwhile by another, perhaps)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock, the rename is still atomic
        yield
        return
    lock_path = os.path.join(folder, ".lock")
    try:  # never through a symlink: O_NOFOLLOW refuses one (ELOOP) instead of creating its target
        fd = os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise LedgerError(f"{printable(lock_path)} is a symlink: annoscore does not follow it; remove "
                              "it (the lock is made again)") from None
        raise
    with os.fdopen(fd, "a") as lock:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LedgerError(f"{printable(lock_path)} is not a regular file; remove it (the lock is made again)")
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def record(root: str, run: Run) -> None:
    """Append ``run`` to the ledger.  Raises LedgerError when a run of the
    same system on the same gold is there and ``run.overwrite`` is not set
    (another process may have recorded one since the check), or when the
    ledger cannot be written."""
    try:
        with _locked(root):
            runs = read_runs(root)
            earlier = earlier_run(runs, run.system, run.gold_path, run.gold_sha256)
            if earlier is not None and not run.overwrite:
                raise LedgerError(refusal(run.system, run.gold_path, earlier))
            stamped = Run(**{**run.__dict__, "time": run.time or time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                                  time.gmtime())})
            runs.append(stamped.as_json())
            text = json.dumps({"about": ABOUT, "runs": runs}, indent=1, ensure_ascii=False) + "\n"
            folder = os.path.join(root, FOLDER)
            handle, temporary = tempfile.mkstemp(prefix=NAME + ".", dir=folder)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as f:
                    f.write(text)
                os.chmod(temporary, 0o666 & ~_umask())  # a project file (mkstemp made it private)
                os.replace(temporary, ledger_path(root))
            except BaseException:
                os.unlink(temporary)
                raise
    except OSError as error:
        raise LedgerError(f"{printable(ledger_path(root))}: cannot be written: {error.strerror or error}; the "
                          "final run was not recorded, so its result is not shown") from None


def refusal(system: str, gold_path: str, earlier: dict[str, Any]) -> str:
    """One line: why a second final run is refused, and what to do."""
    when = excerpt(str(earlier.get("time") or "at an unknown time"))
    return (f"{gold_path} was already scored for the system {quoted(system)} with --final ({when}, "
            f"recorded in {os.path.join(FOLDER, NAME)}): a test split is scored once per system; "
            "give --overwrite to score it again (that is recorded too)")
