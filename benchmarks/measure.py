"""Running a command while measuring its wall time and peak memory.

Peak memory is the largest *sum* of the resident set sizes of the command
and all its descendants, sampled every 10 ms from /proc (so a command that
works in several processes is charged for all of them, unlike the
``ru_maxrss`` of one process that ``time -v`` prints).  CPU time is summed
over the same processes, each as last sampled (so it also counts helpers a
command ends without waiting for, which the rusage of children misses).
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
    cpu_seconds: float = 0.0  # user + system of the command and its descendants, as last sampled


def _cpu(pid: int) -> float:
    """User + system CPU seconds of one process so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


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
        self.cpu: dict[int, float] = {}  # per process, the largest CPU time seen
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._done.is_set():
            processes = [self.pid, *_children(self.pid)]
            total = sum(_rss(p) for p in processes)
            self.peak = max(self.peak, total)
            for p in processes:
                self.cpu[p] = max(self.cpu.get(p, 0.0), _cpu(p))
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
    peak = sampler.stop()
    return Measurement(seconds, peak, stdout, stderr, process.returncode, sum(sampler.cpu.values()))


def best_of(repeat: int, work):
    """The shortest of ``repeat`` timings of ``work()`` (in this process), and its value."""
    best, value = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        value = work()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, value
