"""Scoring a large CoNLL-U pair on several cores.

How the files are cut.  A cut goes before a gold sentence whose ``sent_id``
the system file holds too; the system file is cut before that sentence.
Each part, the same stretch of both files, is scored by the ordinary
single-process scorer (`scorer.conllu.evaluate.evaluate_files` on byte
ranges), and the counts are added up.

How the work is shared.  There are more parts than processes, and they
shrink towards the end of the files: for two processes, 30% of the gold file
each for the first two parts, then 12% each, and so on down to under 1%.
Each process takes the next part as soon as it is done with its last.  On a
shared machine two cores rarely run at the same speed for long; with one
part per process, the run would last as long as the slower core takes for
half the work.  Here the faster core takes more of the parts, and the small
last ones let both finish close together.

What the parent does meanwhile.  It finds the cuts while the first parts
are scored: a part needs only its byte ranges, so the first one starts as
soon as the first cut is found.  Each part numbers its lines from 0 and
reports how many it read; the parent moves its line numbers down below the
parts before it.  The parent also computes each file's SHA-256 (the
signature's) in a thread; hashing lets go of the interpreter lock.

Exactness.  Parts give exactly the single-process result only when nothing
crosses a cut: every system sentence of a part paired with a gold sentence
of the same part, no gold sentence missing, no alignment left unfinished at
a cut, no sent_id in two parts' gold, no system sent_id used twice (a cut
is found by its sent_id).  Each part reports what it saw; if any of this
fails, or a process fails, the caller scores the files in one process
instead.  So parallel scoring can only be faster, never different.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import BinaryIO, Callable, Iterator

from annoscore.scorer.conllu.evaluate import ConlluOptions, ConlluResult, ProgressCallback, evaluate_files, merge_results
from annoscore.scorer.reading import open_file

from .processes import PARALLEL_MIN_BYTES

MIN_BYTES = PARALLEL_MIN_BYTES  # below this, starting processes costs more than it saves
MIN_PART_BYTES = 256 << 10  # of gold: smaller parts cost more to start than they balance
FIRST_ROUND = 0.6  # each round of parts (one per process) takes this share of what is left
LAST_SHARE = 0.004  # parts shrink to about this share of the gold file
SCAN = 1 << 20  # bytes read at a time when looking for a cut
NEAR = 64 << 10  # ... first, when looking for the blank line next to a place
WINDOW = 4 << 20  # where a cut's sentence is first looked for, before its estimated place



def part_shares(jobs: int, gold_size: int, min_part_bytes: int = MIN_PART_BYTES) -> list[float]:
    """The share of the gold file in each part, in file order (they add up to 1).

    Rounds of ``jobs`` equal parts, each round taking FIRST_ROUND of what is
    left, until a part would be smaller than LAST_SHARE or ``min_part_bytes``;
    the rest is the last round.  With fewer, larger parts, a core slowed
    by other work keeps the other waiting longer at the end; with more,
    smaller ones, each costs a little to start (reading the files' heads,
    sending a result back).
    """
    shares: list[float] = []
    left = 1.0
    while True:
        share = left * FIRST_ROUND / jobs
        if share < LAST_SHARE or share * gold_size < min_part_bytes:
            break
        shares += [share] * jobs
        left -= share * jobs
    # What is left: as many equal parts as it holds parts of the smallest size.
    fits = int(left * gold_size // min_part_bytes) if min_part_bytes else jobs
    parts = min(jobs, max(1, fits))
    return shares + [left / parts] * parts


# --- finding cuts --------------------------------------------------------------


def _blank_line_end(data: bytes) -> int:
    """Offset just past the first blank line in ``data`` (LF or CRLF line
    ends), or -1."""
    lf, crlf = data.find(b"\n\n"), data.find(b"\n\r\n")
    if lf < 0 and crlf < 0:
        return -1
    if crlf < 0 or 0 <= lf < crlf:
        return lf + 2
    return crlf + 3


def _block_at_or_after(f: BinaryIO, offset: int) -> tuple[int, bytes] | None:
    """The first sentence block at or after ``offset`` (after a blank line
    and any further blank lines): its start and its first 64 KB."""
    for size in (NEAR, SCAN):
        f.seek(offset)
        data = f.read(size)
        pos = _blank_line_end(data)
        if pos >= 0:
            break
    else:
        return None
    while data[pos:pos + 1] == b"\n" or data[pos:pos + 2] == b"\r\n":
        pos += 1 if data[pos:pos + 1] == b"\n" else 2
    f.seek(offset + pos)
    head = f.read(1 << 16)
    return (offset + pos, head) if head else None


def _sent_id_of(block: bytes) -> bytes | None:
    for line in block.split(b"\n"):
        if not line.startswith(b"#"):
            return None
        if line.startswith(b"# sent_id = "):
            return line[len(b"# sent_id = "):].strip() or None
    return None


def _find_line(f: BinaryIO, line: bytes, start: int, stop: int | None = None) -> int | None:
    """Offset of the first line from ``start`` on (and before ``stop``)
    that is exactly ``line`` (LF or CRLF), or None.  Reads in chunks."""
    marker = b"\n" + line
    base, tail = start, b""
    f.seek(start)
    while stop is None or base < stop:
        chunk = f.read(SCAN)
        if not chunk:
            return None
        data = tail + chunk
        pos = data.find(marker)
        while pos >= 0:
            after = data[pos + len(marker):pos + len(marker) + 2]
            if after[:1] == b"\n" or after == b"\r\n":
                return base - len(tail) + pos + 1
            pos = data.find(marker, pos + 1)
        # A line cut off at the end (its marker or its line end in the next
        # chunk) is looked at again with the next chunk.
        base += len(chunk)
        tail = data[-(len(marker) + 1):]
    return None


def _before(f: BinaryIO, offset: int, size: int) -> tuple[int, bytes]:
    """Up to ``size`` bytes right before ``offset``, and where they start."""
    start = max(0, offset - size)
    f.seek(start)
    return start, f.read(offset - start)


def _last_blank_line_end(data: bytes) -> int:
    """Offset just past the last blank line in ``data`` (LF or CRLF), or -1."""
    lf, crlf = data.rfind(b"\n\n"), data.rfind(b"\n\r\n")
    if lf < 0 and crlf < 0:
        return -1
    return lf + 2 if lf > crlf else crlf + 3


def _block_start_before(f: BinaryIO, offset: int) -> int | None:
    """Start of the block holding the line at ``offset`` (after the last
    blank line before it), or None when there is none within SCAN bytes."""
    for size in (NEAR, SCAN):
        start, data = _before(f, offset, size)
        end = _last_blank_line_end(data)
        if end >= 0:
            return start + end
    return None


def _tokens_before(f: BinaryIO, offset: int) -> list[bytes] | None:
    """The ID and FORM columns of the token lines of the block that ends
    right before ``offset`` (a block start), or None when that block is not
    within SCAN bytes."""
    for size in (NEAR, SCAN):
        start, data = _before(f, offset, size)
        data = data.rstrip(b"\r\n")
        end = _last_blank_line_end(data)
        if end >= 0 or start == 0:
            block = data[max(end, 0):]
            return [b"\t".join(line.rstrip(b"\r").split(b"\t", 2)[:2])
                    for line in block.split(b"\n") if not line.startswith(b"#")]
    return None


class _CutFinder:
    """Cuts in file order: each after the last, near a share of the gold file.

    A cut goes before a sentence whose predecessor has the same token lines
    (IDs and FORMs) in both files.  Then the alignment of the words before
    the cut ends with no word left over, as a part must (see
    `scorer.conllu.align`); right after a sentence tokenized differently it
    might not, and the part would be unusable.

    The system file is searched for the sentence first from a little before
    where it would be if both files grew alike (so that finding all cuts
    reads a few MB, not the whole file), then, if it is not there, from the
    last cut.
    """

    CANDIDATES = 50  # sentences tried, one after the other, for each cut

    def __init__(self, system: BinaryIO, gold: BinaryIO) -> None:
        self.system, self.gold = system, gold
        self.previous = (0, 0)  # system byte, gold byte
        gold_size = os.fstat(gold.fileno()).st_size
        self.ratio = os.fstat(system.fileno()).st_size / gold_size if gold_size else 1.0

    def next_cut(self, gold_target: int) -> tuple[int, int] | None:
        """(system byte, gold byte) of the next cut, or None when none is found
        (then the files are not cut any further)."""
        previous_system, previous_gold = self.previous
        offset = max(gold_target, previous_gold)
        for _ in range(self.CANDIDATES):
            found = _block_at_or_after(self.gold, offset)
            if found is None or found[0] <= previous_gold:
                return None
            gold_start, head = found
            offset = gold_start  # the next try: the sentence after this one
            sent_id = _sent_id_of(head)
            if sent_id is None:
                continue
            line_at = self._find_in_system(b"# sent_id = " + sent_id, gold_start)
            if line_at is None:
                return None  # not in the system file: the parts would not pair anyway
            system_start = _block_start_before(self.system, line_at)
            if system_start is None or system_start <= previous_system:
                return None
            tokens = _tokens_before(self.gold, gold_start)
            if tokens is None or tokens != _tokens_before(self.system, system_start):
                continue
            self.previous = (system_start, gold_start)
            return self.previous
        return None

    def _find_in_system(self, line: bytes, gold_start: int) -> int | None:
        previous_system, previous_gold = self.previous
        estimate = previous_system + int((gold_start - previous_gold) * self.ratio)
        near = max(previous_system, estimate - WINDOW)
        found = _find_line(self.system, line, near)
        if found is None and near > previous_system:
            found = _find_line(self.system, line, previous_system, stop=near)
        return found


Range = tuple[int, "int | None"]  # start byte, end byte (None: to the end)


def plan_parts(system_path: str, gold_path: str, shares: list[float]) -> Iterator[tuple[Range, Range]]:
    """The (system, gold) byte ranges of the parts, in file order, roughly
    ``shares`` of the gold file each.

    A generator: each part is yielded as soon as its end is found.  Where no
    cut is found (a sentence without a sent_id, or with one the system file
    lacks), the part before runs on to the end of the files; if the files
    cannot be cut at all, the one part yielded is the whole of both.
    """
    with open_file(system_path) as system, open_file(gold_path) as gold:
        gold_size = os.fstat(gold.fileno()).st_size
        finder = _CutFinder(system, gold)
        start = (0, 0)
        done = 0.0
        for share in shares[:-1]:
            done += share
            cut = finder.next_cut(int(gold_size * done))
            if cut is None:
                break
            yield (start[0], cut[0]), (start[1], cut[1])
            start = cut
        yield (start[0], None), (start[1], None)


# --- the processes -----------------------------------------------------------


def _part_worker(connection: Connection, system_path: str, gold_path: str,
                 options: ConlluOptions) -> None:
    """Score the parts the parent sends, one at a time, until it sends None.
    Sends ("progress", bytes done) now and then, and ("ok", result) or
    ("error", text) for each part."""
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if task is None:
            break
        (system_start, system_end), (gold_start, gold_end) = task
        try:
            result = evaluate_files(system_path, gold_path, options,
                                    progress=lambda done, total: connection.send(("progress", done)),
                                    system_part=(system_start, system_end, 0),
                                    gold_part=(gold_start, gold_end, 0))
            connection.send(("ok", result))
        except BaseException as error:  # reported by the parent, which falls back
            connection.send(("error", f"{error}\n{traceback.format_exc()}"))
    connection.close()


def _usable_alone(result: ConlluResult, last: bool) -> bool:
    """What one part can show by itself to spoil merging."""
    if result.part_lines is None or None in result.part_lines:
        return False  # its lines could not be moved into place
    return not (result.unmatched.count or result.missing.count or (result.ended_unclean and not last))


class _SeenIds:
    """The sent_ids of the parts back so far: a gold sent_id in two parts, or
    a system sent_id used twice, and the parts cannot be merged (checked as
    each part comes back, so that such files fall back early)."""

    def __init__(self) -> None:
        self.gold: set[str] = set()
        self.system: set[str] = set()

    def add(self, result: ConlluResult) -> bool:
        """Whether the part's sent_ids are new."""
        gold, system = result.gold_ids or set(), result.system_ids or []
        unique = set(system)
        if len(unique) != len(system) or self.gold & gold or self.system & unique:
            return False
        self.gold |= gold
        self.system |= unique
        return True


class _Hashes(threading.Thread):
    """The files' SHA-256, computed in a thread (hashlib releases the GIL)."""

    def __init__(self, *paths: str) -> None:
        super().__init__(daemon=True)
        self.paths = paths
        self.digests: list[str] = []
        self.error: Exception | None = None
        self.start()

    def run(self) -> None:
        try:
            for path in self.paths:
                digest = hashlib.sha256()
                with open_file(path) as f:
                    while chunk := f.read(SCAN):
                        digest.update(chunk)
                self.digests.append(digest.hexdigest())
        except Exception as error:  # reported by the caller, which falls back
            self.error = error


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    connection: Connection
    part: int | None = None  # the part it is scoring
    done_bytes: int = 0      # of that part's system bytes, as last reported


class _Pool:
    """Worker processes, each scoring one part at a time, the next one
    waiting in line as soon as it is done."""

    def __init__(self, context, jobs: int, system_path: str, gold_path: str,
                 options: ConlluOptions, system_size: int) -> None:
        self.system_size = system_size
        self.workers: list[_Worker] = []
        self.parts: list[tuple[Range, Range]] = []
        self.waiting: deque[int] = deque()  # parts not handed out yet
        for _ in range(jobs):
            mine, theirs = context.Pipe(duplex=True)
            process = context.Process(target=_part_worker, daemon=True,
                                      args=(theirs, system_path, gold_path, options))
            process.start()
            theirs.close()
            self.workers.append(_Worker(process, mine))

    def add(self, part: tuple[Range, Range]) -> None:
        self.parts.append(part)
        self.waiting.append(len(self.parts) - 1)
        for worker in self.workers:
            if worker.part is None:
                self._give_next(worker)
                break

    def _give_next(self, worker: _Worker) -> None:
        if self.waiting:
            worker.part, worker.done_bytes = self.waiting.popleft(), 0
            worker.connection.send(self.parts[worker.part])

    def _size(self, index: int) -> int:
        start, end = self.parts[index][0]
        return (self.system_size if end is None else end) - start

    def run(self, progress: ProgressCallback | None) -> tuple[list[ConlluResult], str | None]:
        """Every part's result, in file order; or the reason one failed."""
        results: dict[int, ConlluResult] = {}
        seen = _SeenIds()
        finished_bytes = 0
        last = len(self.parts) - 1
        while busy := [w for w in self.workers if w.part is not None]:
            for connection in wait([w.connection for w in busy]):
                worker = next(w for w in busy if w.connection is connection)
                try:
                    status, payload = connection.recv()
                except (EOFError, OSError):
                    status, payload = "error", "a worker process ended without a result"
                if status == "progress":
                    worker.done_bytes = payload
                elif status != "ok":
                    return [], payload
                elif not _usable_alone(payload, last=worker.part == last):
                    return [], "sentences cross a cut"
                elif not seen.add(payload):
                    return [], "a sent_id is used twice"
                else:
                    results[worker.part] = payload  # type: ignore[index]
                    finished_bytes += self._size(worker.part)  # type: ignore[arg-type]
                    worker.part = None
                    self._give_next(worker)
                if progress is not None:
                    running = sum(w.done_bytes for w in self.workers if w.part is not None)
                    progress(finished_bytes + running, self.system_size)
        # Each part numbered its lines from 0; move them below the parts before.
        ordered = [results[k] for k in range(len(self.parts))]
        system_lines = gold_lines = 0
        for result in ordered:
            result.move_down(system_lines, gold_lines)
            system_lines += result.part_lines[0]  # type: ignore[index]
            gold_lines += result.part_lines[1]  # type: ignore[index]
        return ordered, None

    def stop(self) -> None:
        for worker in self.workers:
            try:
                worker.connection.send(None)
            except OSError:
                pass
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():  # pragma: no cover - a stuck worker
                worker.process.terminate()
                worker.process.join()
            worker.connection.close()

    def kill(self) -> None:
        for worker in self.workers:
            worker.process.terminate()
        for worker in self.workers:
            worker.process.join()
            worker.connection.close()


def evaluate_in_parallel(system_path: str, gold_path: str, options: ConlluOptions,
                         jobs: int, log: Callable[[str], None] | None = None,
                         min_bytes: int | None = None, progress: ProgressCallback | None = None,
                         min_part_bytes: int = MIN_PART_BYTES) -> ConlluResult | None:
    """The result of scoring in ``jobs`` processes, or None when the files
    cannot be scored in parts (then score them in one process).
    ``progress`` is called now and then with (system bytes done, system size)."""
    if min_bytes is None:
        min_bytes = MIN_BYTES
    system_size, gold_size = os.path.getsize(system_path), os.path.getsize(gold_path)
    if jobs < 2 or min(system_size, gold_size) < min_bytes:
        return None
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - no fork on this platform
        return None
    plan = plan_parts(system_path, gold_path, part_shares(jobs, gold_size, min_part_bytes))
    first = next(plan)
    if first[0][1] is None:
        plan.close()
        return None  # not a single cut: nothing to share
    pool = _Pool(context, jobs, system_path, gold_path, options, system_size)
    hashes = _Hashes(system_path, gold_path)
    try:
        # Each part goes to a free process as soon as it is planned (only
        # the first ones find one free: planning takes a fraction of a part).
        pool.add(first)
        for part in plan:
            pool.add(part)
        results, failure = pool.run(progress)
    except BaseException:
        pool.kill()
        raise
    if failure is not None:
        pool.kill()
        if log:
            log(f"scoring in parts failed, scoring in one process: {failure.splitlines()[0]}")
        return None
    pool.stop()
    hashes.join()
    if hashes.error is not None or len(hashes.digests) != 2:
        if log:
            log(f"hashing the files failed, scoring in one process: {hashes.error}")
        return None  # the one-process run reports the file that cannot be read
    merged = merge_results(results)
    merged.system_sha256, merged.gold_sha256 = hashes.digests
    return merged
