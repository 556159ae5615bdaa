"""Running a command while measuring its wall time and peak memory.

Peak memory is the largest *sum* of the resident set sizes of the command
and all its descendants, sampled every 10 ms from /proc (so a command that
works in several processes is charged for all of them, unlike the
``ru_maxrss`` of one process that ``time -v`` prints).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass


@dataclass
class Measurement:
    seconds: float
    peak_rss: int  # bytes
    stdout: str
    stderr: str
    returncode: int


def _children(pid: int) -> list[int]:
    found = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            found = [int(x) for x in f.read().split()]
    except OSError:
        return []
    out = list(found)
    for child in found:
        out += _children(child)
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class PeakSampler:
    """Samples the summed resident memory of a process and its descendants
    (every 10 ms, in a thread) until `stop`; ``peak`` is the largest sum."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.is_set():
            total = _rss(self.pid) + sum(_rss(c) for c in _children(self.pid))
            self.peak = max(self.peak, total)
            time.sleep(0.01)

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak


def run_measured(command: list[str], env: dict | None = None, cwd: str | None = None) -> Measurement:
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})}, cwd=cwd)
    sampler = PeakSampler(process.pid)
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - start
    return Measurement(seconds, sampler.stop(), stdout, stderr, process.returncode)


def best_of(repeat: int, work):
    """The shortest of ``repeat`` timings of ``work()`` (in this process), and its value."""
    best, value = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        value = work()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, value
