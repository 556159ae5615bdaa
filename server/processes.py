"""Helper processes: how many there are to be, and the forkserver they come from.

Helpers (a large document's first scoring, `server.engine.conllu.parts`;
its first validation, `server.engine.conllu.validation_parts`) are forked
from a *forkserver*: a clean process started once, with the engine
imported.  Forking the language server itself, which runs several threads,
could leave a lock held in the child.

This module imports nothing of the engine, so that a command can start the
forkserver before its own imports: the two processes then import the
engine at once, on two cores, rather than one after the other.
"""

from __future__ import annotations

import os

# (multiprocessing and threading are imported by the functions that start
# processes: a small command that starts none should not load them.)

# What every process from the forkserver has imported before it starts.
# "__main__": an editor starts the `annoscore` script, which each process
# would otherwise run again (importing the whole command line) first.
PRELOAD = ["__main__", "annoscore.server.engine.conllu.parts", "annoscore.server.engine.conllu.validation_parts"]
# Enough for validation helpers alone (a tenth of a second's imports, not half a second's).
VALIDATION_PRELOAD = ["__main__", "annoscore.server.engine.conllu.validation_parts"]

# Below this size (of each file of a pair), starting processes to score it
# costs more than it saves: `server.parallel` is not even imported.
PARALLEL_MIN_BYTES = 16 << 20

_context = None


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


# How many cores must be idle (by the 1-minute load average) for helpers to gain.
IDLE_FOR_HELPERS = 1.25


def helpers_gain() -> bool:
    """Whether a one-off job (``annoscore check``) gains from helper
    processes now: more than a core is idle beside this process.  On a
    machine whose cores are all busy, two helpers get no more CPU than this
    process alone would, and they cost their start, their imports and the
    handing over of the blocks (a 200k-word ``check`` on this project's
    2-core machine under load: 0.5-1.5 s more CPU, no wall time gained).
    ``ANNOSCORE_HELPERS=1`` (or ``0``) decides instead of the load."""
    forced = os.environ.get("ANNOSCORE_HELPERS", "")
    if forced in ("0", "1"):
        return forced == "1"
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average (Windows)
        return True
    return default_jobs() - load >= IDLE_FOR_HELPERS


def forkserver_context(preload: list[str] = PRELOAD):
    """The multiprocessing context of the engine's forkserver (``preload``:
    what it imports, for the first caller to choose)."""
    global _context
    if _context is None:
        import multiprocessing

        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(preload)
    return _context


def start_forkserver(preload: list[str] = PRELOAD) -> None:
    """Start the forkserver in the background (it takes a second to import
    the engine), when helpers will be wanted soon."""
    if default_jobs() < 2:
        return

    def start() -> None:
        try:
            from multiprocessing import forkserver
            forkserver_context(preload)
            forkserver.ensure_running()
        except Exception:  # then the helpers' first start tries again, and reports
            pass

    import threading

    threading.Thread(target=start, name="annoscore-forkserver", daemon=True).start()
