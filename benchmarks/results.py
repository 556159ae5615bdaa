"""Where a benchmark's figures go: one dated file under ``benchmarks/results/``.

Every benchmark ends with ``sys.exit(results.run(main, __file__))``: it runs
``main`` with what it prints also kept, and when ``main`` succeeds writes

    benchmarks/results/YYYY-MM-DD-HHMMSS-NAME.txt   (UTC)

holding what produced the figures, then the figures:

    benchmark: bench_labels
    date: 2026-12-02T04:40:11Z
    commit: ca4db7b0… (i29-ci)        [+ "with uncommitted changes" when there are]
    machine: Linux 6.1 x86_64; AMD EPYC …; 2 cores; 23.5 GiB; Python 3.11.7
    load: 2.10 1.80 1.52 (1, 5 and 15 minutes, at the start: the machine is shared)
    command: python benchmarks/bench_labels.py --items 100000

    <everything the benchmark printed on stdout>

``--no-save`` (taken off the command line before ``main`` sees it) writes
nothing; ``ANNOSCORE_BENCH_RESULTS=DIR`` writes to DIR instead.  A benchmark
run by another (bench_revisions runs each side's bench_lsp.py) writes no
file of its own: its output is in the outer one's.  A run that fails (an
exception, or a non-zero status) writes nothing and says so.
"""

from __future__ import annotations

import io
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = RESULTS.parent.parent
_INSIDE = "ANNOSCORE_BENCH_INSIDE"  # set for the benchmarks a benchmark runs


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.kept = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def commit() -> str:
    """The checkout's commit, its branch, and whether tracked files differ from it."""
    sha = _git("rev-parse", "HEAD") or "unknown (not a git checkout)"
    branch = _git("rev-parse", "--abbrev-ref", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return sha + (f" ({branch})" if branch and branch != "HEAD" else "") + \
        (" with uncommitted changes" if dirty else "")


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory() -> str:
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            kib = int(f.readline().split()[1])
        return f"{kib / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        return "unknown memory"


def machine() -> str:
    return (f"{platform.system()} {platform.release()} {platform.machine()}; {_cpu()}; {os.cpu_count()} cores; "
            f"{_memory()}; Python {platform.python_version()}")


def load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5 and 15 minutes, at the start: the machine is shared)"


def header(name: str, argv: list[str], started: time.struct_time, load_at_start: str) -> str:
    command = shlex.join(["python", os.path.relpath(argv[0], ROOT) if os.path.isabs(argv[0]) else argv[0],
                          *argv[1:]])
    return (f"benchmark: {name}\ndate: {time.strftime('%Y-%m-%dT%H:%M:%SZ', started)}\ncommit: {commit()}\n"
            f"machine: {machine()}\nload: {load_at_start}\ncommand: {command}\n\n")


def run(main: Callable[[], int | None], file: str) -> int:
    """Runs a benchmark's ``main`` and writes its results file (see above);
    returns main's exit status."""
    name = Path(file).stem
    save = "--no-save" not in sys.argv[1:] and not os.environ.get(_INSIDE)
    sys.argv = [sys.argv[0], *(a for a in sys.argv[1:] if a != "--no-save")]
    argv = list(sys.argv)
    os.environ[_INSIDE] = "1"
    started, load_at_start = time.gmtime(), load()
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    status: int | None = 1
    measured = False
    try:
        status = main()
        measured = True
    except SystemExit as exit_:  # argparse's --help or a usage error: nothing was measured
        status = exit_.code if isinstance(exit_.code, int) else 1
        raise
    finally:
        sys.stdout = tee.stream
        if save and measured and not status:
            folder = Path(os.environ.get("ANNOSCORE_BENCH_RESULTS") or RESULTS)
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{time.strftime('%Y-%m-%d-%H%M%S', started)}-{name}.txt"
            path.write_text(header(name, argv, started, load_at_start) + tee.kept.getvalue(), encoding="utf-8")
            print(f"{name}: figures written to {os.path.relpath(path)} (--no-save: none)", file=sys.stderr)
        elif save and status:
            print(f"{name}: failed, so no results file was written", file=sys.stderr)
    return status or 0
