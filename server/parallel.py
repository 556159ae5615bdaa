"""Scoring a large CoNLL-U pair on several cores.

The files are cut into consecutive parts at sentences that both files hold
under the same ``sent_id``; each part is scored by its own process with the
ordinary single-process scorer (`scorer.conllu.evaluate.evaluate_files` on a
byte range), and the counts are added up.

This gives exactly the single-process result only when nothing crosses a cut:
every system sentence of a part paired with a gold sentence of the same part,
no gold sentence missing, no alignment left unfinished at a cut, no sent_id
in two parts' gold.  Each part reports what it saw; if any of this fails, the
caller scores the files in one process instead.  So parallel scoring can only
be faster, never different.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import traceback
from typing import Callable

from scorer.conllu.evaluate import ConlluOptions, ConlluResult, evaluate_files, merge_results

MIN_BYTES = 16 << 20  # below this, starting processes costs more than it saves

Cut = tuple[int, int, int, int]  # system byte, system line, gold byte, gold line


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


SCAN = 1 << 20


def _block_at_or_after(f, offset: int) -> tuple[int, bytes] | None:
    """The first sentence block at or after ``offset``: its start and its first 64 KB."""
    f.seek(offset)
    data = f.read(SCAN)
    pos = data.find(b"\n\n")
    if pos < 0:
        return None
    pos += 2
    while data[pos:pos + 1] == b"\n":
        pos += 1
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


def _find_all(f, marker: bytes, start: int) -> list[int]:
    """Offsets of ``marker`` at or after ``start`` (at most two: one is all we want)."""
    found: list[int] = []
    f.seek(start)
    base, tail = start, b""
    while len(found) < 2:
        chunk = f.read(SCAN)
        if not chunk:
            break
        data = tail + chunk
        pos = data.find(marker)
        while pos >= 0 and len(found) < 2:
            if base - len(tail) + pos not in found:
                found.append(base - len(tail) + pos)
            pos = data.find(marker, pos + 1)
        tail = data[-len(marker):]
        base += len(chunk)
    return found


def _lines_before(f, offset: int) -> int | None:
    """Lines before ``offset``, or None when a carriage return is there (the
    reader counts those as line ends too; such files are scored in one process)."""
    f.seek(0)
    count, left = 0, offset
    while left > 0:
        chunk = f.read(min(SCAN, left))
        if not chunk:
            break
        if b"\r" in chunk:
            return None
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def _block_start_before(f, offset: int) -> int | None:
    """Start of the block holding the line at ``offset`` (after the last blank line)."""
    start = max(0, offset - SCAN)
    f.seek(start)
    data = f.read(offset - start)
    pos = data.rfind(b"\n\n")
    return None if pos < 0 else start + pos + 2


def find_cuts(system_path: str, gold_path: str, parts: int) -> list[Cut] | None:
    """Byte offsets (and line numbers) where both files can be cut, or None.

    A cut goes before a gold sentence near each 1/parts of the gold file
    whose ``# sent_id`` line appears exactly once in the system file.  Files
    are read in chunks, never held whole.
    """
    with open(system_path, "rb") as system, open(gold_path, "rb") as gold:
        gold_size = os.fstat(gold.fileno()).st_size
        cuts: list[Cut] = []
        previous_gold = previous_system = 0
        for k in range(1, parts):
            found = _block_at_or_after(gold, gold_size * k // parts)
            if found is None or found[0] <= previous_gold:
                return None
            gold_start, head = found
            sent_id = _sent_id_of(head)
            if sent_id is None:
                return None
            marker = b"\n# sent_id = " + sent_id + b"\n"
            places = _find_all(system, marker, previous_system)
            if len(places) != 1:
                return None
            system_start = _block_start_before(system, places[0] + 1)
            if system_start is None or system_start <= previous_system:
                return None
            system_line, gold_line = _lines_before(system, system_start), _lines_before(gold, gold_start)
            if system_line is None or gold_line is None:
                return None  # line numbers with CR need the reader's own count
            cuts.append((system_start, system_line, gold_start, gold_line))
            previous_gold, previous_system = gold_start, system_start
        return cuts


def _part_worker(connection, system_path, gold_path, options, system_part, gold_part) -> None:
    try:
        result = evaluate_files(system_path, gold_path, options,
                                system_part=system_part, gold_part=gold_part)
        connection.send(("ok", result))
    except BaseException as error:  # reported by the parent, which falls back
        connection.send(("error", f"{error}\n{traceback.format_exc()}"))
    finally:
        connection.close()


def _safe_to_merge(results: list[ConlluResult]) -> bool:
    seen: set[str] = set()
    for k, result in enumerate(results):
        if result.unmatched.count or result.missing.count:
            return False
        if result.ended_unclean and k < len(results) - 1:
            return False
        ids = result.gold_ids or set()
        if seen & ids:
            return False
        seen |= ids
    return True


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def evaluate_in_parallel(system_path: str, gold_path: str, options: ConlluOptions,
                         jobs: int, log: Callable[[str], None] | None = None,
                         min_bytes: int | None = None) -> ConlluResult | None:
    """The result of scoring in ``jobs`` processes, or None when the files
    cannot be cut safely (then score them in one process)."""
    if min_bytes is None:
        min_bytes = MIN_BYTES
    if jobs < 2 or min(os.path.getsize(system_path), os.path.getsize(gold_path)) < min_bytes:
        return None
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - no fork on this platform
        return None
    cuts = find_cuts(system_path, gold_path, jobs)
    if not cuts:
        return None
    starts = [(0, 0, 0, 0)] + cuts
    ends: list[Cut | None] = list(cuts) + [None]
    workers = []
    for start, end in zip(starts, ends):
        system_part = (start[0], end[0] if end else None, start[1])
        gold_part = (start[2], end[2] if end else None, start[3])
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_part_worker, daemon=True,
                                  args=(send, system_path, gold_path, options, system_part, gold_part))
        process.start()
        send.close()
        workers.append((process, receive))
    # The parent hashes the inputs for the signature while the parts are scored.
    system_sha256, gold_sha256 = _sha256(system_path), _sha256(gold_path)
    results: list[ConlluResult] = []
    failed = None
    for process, receive in workers:
        try:
            status, payload = receive.recv()
        except EOFError:
            status, payload = "error", "a worker process ended without a result"
        process.join()
        if status != "ok":
            failed = payload
        else:
            results.append(payload)
    if failed is not None:
        if log:
            log(f"parallel scoring failed, scoring in one process: {failed.splitlines()[0]}")
        return None
    if not _safe_to_merge(results):
        if log:
            log("the files cannot be scored in parts (sentences cross a cut); scoring in one process")
        return None
    merged = merge_results(results)
    merged.system_sha256, merged.gold_sha256 = system_sha256, gold_sha256
    return merged
