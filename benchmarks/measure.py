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


def run_measured(command: list[str], env: dict | None = None) -> Measurement:
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            total = _rss(process.pid) + sum(_rss(c) for c in _children(process.pid))
            peak = max(peak, total)
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return Measurement(seconds, peak, stdout, stderr, process.returncode)
