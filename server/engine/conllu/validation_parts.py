"""Validating many blocks in helper processes: a document's first validation.

Validating a block takes the UD validator's checks a few times longer than
annoscore's own reading of it, so the first validation of a large document
(opening it, `annoscore check`) is handed to helper processes while this
one does annoscore's own pass; later edits validate their few blocks here.

The helpers are a pool of processes started once from the engine's
forkserver (`server.processes`), kept for later documents so that their
caches of values known to pass stay warm.  The blocks go through a
temporary file that only the user can read, removed once every helper has
read its part (sent through a pipe, a large text would wait on this
process's own work for every write); each helper gets a range of it and
sends back the blocks' `BlockValidation`s.  Validating a block depends on
its text and the settings alone, so where it is done changes nothing.  When
a helper cannot be started or fails, `BlockJob.results` says so (None) and
the caller validates the blocks itself.

``annoscore check`` gives the helpers a head start: it cuts a large file
into blocks and hands them over (`start_early`) before it imports the rest
of the engine and reads the file into it; the engine's first validation of
that document then takes the job (`take_early`) when its blocks and
settings are the same, and starts its own otherwise.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import gc
import os
import tempfile
import threading
from typing import Iterator, Sequence

from annoscore.scorer.validation import BlockValidation, ValidationSettings, prepare, validate_block

from ...processes import default_jobs, forkserver_context
from annoscore.scorer.reading import open_file

# Below this many blocks, validating them here costs less than handing them over.
MIN_BLOCKS = 600
# Blocks per task: small enough that the helpers end close together.
TASK_BLOCKS = 4000

_pool: concurrent.futures.ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
_failures = 0   # pools that broke (a helper died)
_broken = False  # helpers cannot be had here: blocks are validated in this process
_stopped = False  # the program ends: no new helpers (see `shutdown`)
_here_only = False  # this program validates in its own process (`validate_here`)
_handing_over: set[threading.Thread] = set()  # the threads of `BlockJob._submit` at work


def helpers() -> int:
    """How many helper processes there are to be (0: none, do it here)."""
    return 0 if _broken or _stopped or _here_only else default_jobs()


@contextlib.contextmanager
def validate_here(here: bool = True) -> Iterator[None]:
    """Within it, no helpers (``here``): every block is validated in this
    process (``annoscore check`` when helpers would not gain,
    `server.processes.helpers_gain`)."""
    global _here_only
    before, _here_only = _here_only, here
    try:
        yield
    finally:
        _here_only = before


# How much lower the helpers' priority is than this process's: on a machine
# with as many cores as helpers, they would otherwise take the CPU from the
# pass whose results the editor waits for (the validator's findings follow
# in a second publication).
HELPER_NICENESS = 5


def _start_helper() -> None:
    # Anything printed must not reach the language server's stdout.
    os.dup2(2, 1)
    try:
        os.nice(HELPER_NICENESS)
    except (AttributeError, OSError):  # (no nice on Windows)
        pass


def _get_pool() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _stopped:
            raise OSError("the helpers are stopped: the program ends")
        if _pool is None:
            _pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=default_jobs(), mp_context=forkserver_context(), initializer=_start_helper)
            # Stopped before the interpreter tears its modules down (else its
            # own clean-up can run without them and print a traceback).
            atexit.register(shutdown, True)
        return _pool


def _forget_pool() -> None:
    """A helper died: the next job starts new ones (once; then none)."""
    global _pool, _broken, _failures
    with _pool_lock:
        _failures += 1
        _broken = _failures >= 2
        _pool = None


def shutdown(wait: bool = False, final: bool = False) -> None:
    """Stop the helpers (the server shuts down; ``wait``: until they have
    ended).  ``final``: the program ends, so none are started again (a
    rescore still running in another thread would start a pool that nothing
    stops, and its semaphores would be reported leaked on stderr)."""
    global _pool, _stopped
    with _pool_lock:
        _stopped = _stopped or final
        if _pool is not None:
            _pool.shutdown(wait=wait, cancel_futures=True)
            _pool = None
    if final:  # (they end at once now, letting go of the pool: not while the program ends)
        for thread in list(_handing_over):
            thread.join(timeout=10)


def _validate_range(path: str, offset: int, size: int, lengths: list[int], flags: list[tuple[bool, bool]],
                    settings: ValidationSettings) -> list[BlockValidation]:
    """(In a helper.)  The blocks at ``offset`` of the file, ``lengths``
    code points each."""
    with open_file(path) as source:
        source.seek(offset)
        text = source.read(size).decode("utf-8")
    prepared = prepare(settings)
    out = []
    pos = 0
    enabled = gc.isenabled()
    gc.disable()  # many objects made, no cycles among them
    try:
        for length, (terminated, bom) in zip(lengths, flags):
            out.append(validate_block(text[pos:pos + length], prepared, terminated, bom))
            pos += length
    finally:
        if enabled:
            gc.enable()
    return out


_early: list[tuple[ValidationSettings, Sequence[tuple[str, bool, bool]], "BlockJob"]] = []


def start_early(blocks: Sequence[tuple[str, bool, bool]], settings: ValidationSettings) -> None:
    """Hand blocks to the helpers before their document is open (see the
    module's docstring)."""
    job = BlockJob(blocks, settings)
    if job.error is None:
        _early.append((settings, blocks, job))


def take_early(blocks: Sequence[tuple[str, bool, bool]], settings: ValidationSettings) -> BlockJob | None:
    """The job `start_early` began for exactly these blocks and settings."""
    for k, (early_settings, early_blocks, job) in enumerate(_early):
        if early_settings == settings and early_blocks == blocks:
            del _early[k]
            return job
    return None


def drop_early() -> None:
    """Cancel the head starts no document took."""
    while _early:
        _early.pop()[2].cancel()


class BlockJob:
    """Blocks being validated by the helpers.  ``future`` is done when they
    all are (successfully or not)."""

    def __init__(self, blocks: Sequence[tuple[str, bool, bool]], settings: ValidationSettings,
                 tasks: int | None = None) -> None:
        self.count = len(blocks)
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self._parts: list[concurrent.futures.Future] = []
        self._path: str | None = None
        self._left = 0
        self._lock = threading.Lock()
        self._cancelled = False
        self.error: str | None = None
        try:
            self._start(blocks, settings, tasks)
        except Exception as error:  # no helper: the caller does it itself
            self._fail(f"could not hand the blocks to a helper process: {error}")

    def _start(self, blocks: Sequence[tuple[str, bool, bool]], settings: ValidationSettings,
               tasks: int | None) -> None:
        n = tasks or max(1, -(-len(blocks) // TASK_BLOCKS))
        size = -(-len(blocks) // n)
        handle, self._path = tempfile.mkstemp(prefix="annoscore-validate-", suffix=".conllu")
        ranges = []
        with os.fdopen(handle, "wb") as out:
            offset = 0
            for start in range(0, len(blocks), size):
                part = blocks[start:start + size]
                written = out.write("".join(text for text, _, _ in part).encode("utf-8"))
                ranges.append((offset, written, [len(text) for text, _, _ in part],
                               [(terminated, bom) for _, terminated, bom in part]))
                offset += written
        self._left = len(ranges)
        # Handed over from a thread: the first job waits for the helpers to
        # start (the forkserver's imports), and this one has its own pass to make.
        thread = threading.Thread(target=self._submit, args=(ranges, settings), name="annoscore-validation-job",
                                  daemon=True)
        _handing_over.add(thread)
        thread.start()

    def _submit(self, ranges: list[tuple[int, int, list[int], list[tuple[bool, bool]]]],
                settings: ValidationSettings) -> None:
        try:
            pool = _get_pool()
            for k, (offset, written, lengths, flags) in enumerate(ranges):
                with self._lock:
                    if self._cancelled:  # the rest is not sent: done when what was sent is
                        self.error = self.error or "cancelled"
                        self._left -= len(ranges) - k
                        if self._left == 0:
                            self._finish()
                        return
                    part_future = pool.submit(_validate_range, self._path, offset, written, lengths, flags,
                                              settings)
                    self._parts.append(part_future)
                part_future.add_done_callback(self._part_done)
        except Exception as error:  # no helper: the caller does it itself
            self._fail(f"could not hand the blocks to a helper process: {error}")
        finally:
            pool = None  # (before the thread is said to be done: see `shutdown`)
            _handing_over.discard(threading.current_thread())

    def _part_done(self, part: concurrent.futures.Future) -> None:
        with self._lock:
            self._left -= 1
            last = self._left == 0
        if part.cancelled():
            self.error = self.error or "cancelled"
        elif part.exception() is not None:
            self.error = self.error or f"a helper process failed: {part.exception()}"
            if isinstance(part.exception(), concurrent.futures.process.BrokenProcessPool):
                _forget_pool()
        if last:
            self._finish()

    def _finish(self) -> None:
        self._remove()
        if not self.future.done():
            self.future.set_result(None)

    def _fail(self, message: str) -> None:
        global _broken
        self.error = message
        _broken = True
        self._finish()

    def _remove(self) -> None:
        if self._path is not None:
            try:
                os.unlink(self._path)
            except OSError:
                pass
            self._path = None

    def done(self) -> bool:
        return self.future.done()

    def results(self, timeout: float | None = None) -> list[BlockValidation] | None:
        """The blocks' validations in order (waiting for them), or None when
        a helper failed (``error`` says why)."""
        try:
            self.future.result(timeout)
        except concurrent.futures.TimeoutError:
            return None
        if self.error is not None:
            return None
        out: list[BlockValidation] = []
        for part in self._parts:
            out.extend(part.result())
        return out if len(out) == self.count else None

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            parts = list(self._parts)
        for part in parts:
            part.cancel()
