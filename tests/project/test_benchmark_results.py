"""benchmarks/results.py: a benchmark's figures go to a dated file saying
what produced them (benchmark, date, commit, machine, load, command) with
its whole output; --no-save, a failed run and a benchmark run by another
write none.  Run on bench_labels with a few items (a second or two)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_labels.py"


def bench(tmp_path: Path, *options: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), "--items", "2000", "--repeat", "1", *options],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "ANNOSCORE_BENCH_RESULTS": str(tmp_path), **(env or {})})


def test_a_benchmark_writes_one_dated_file_with_what_produced_it(tmp_path):
    before = time.gmtime(time.time() - 1)
    result = bench(tmp_path)
    assert result.returncode == 0, result.stderr
    written, = tmp_path.iterdir()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-\d{6}-bench_labels\.txt", written.name)
    assert time.strptime(written.name[:17], "%Y-%m-%d-%H%M%S") >= before
    head, _, output = written.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    assert list(fields) == ["benchmark", "date", "commit", "machine", "load", "command"]
    assert fields["benchmark"] == "bench_labels"
    assert fields["date"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.strptime(written.name[:17], "%Y-%m-%d-%H%M%S"))
    head_sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert fields["commit"].startswith(head_sha.strip() or "unknown")
    assert f"{os.cpu_count()} cores" in fields["machine"] and "Python 3." in fields["machine"]
    assert fields["command"] == "python benchmarks/bench_labels.py --items 2000 --repeat 1"
    assert output == result.stdout  # everything it printed, as printed
    assert "agree" in output and f"written to {os.path.relpath(written, ROOT)}" in result.stderr


def test_no_file_without_save_after_a_failure_or_inside_another_benchmark(tmp_path):
    assert bench(tmp_path, "--no-save").returncode == 0
    failed = bench(tmp_path, "--items", "not-a-number")
    assert failed.returncode == 2 and "no results file was written" in failed.stderr
    assert bench(tmp_path, env={"ANNOSCORE_BENCH_INSIDE": "1"}).returncode == 0
    assert list(tmp_path.iterdir()) == []


def test_every_benchmark_and_script_compiles():
    """A benchmark is run by hand, not by the suite: a syntax error in one
    (bench_annotator.py had an unmatched parenthesis) would go unseen."""
    for path in sorted([*(ROOT / "benchmarks").glob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")


def test_every_benchmark_is_in_the_readme_with_its_options():
    """benchmarks/README.md's table lists every bench_*.py with each option
    it defines (its --help is the rest): a benchmark missing from the table
    is one nobody finds."""
    table = {}
    for line in (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `(bench_\w+\.py)([^`]*)`", line)
        if found:
            table[found[1]] = found[2]
    scripts = sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py"))
    assert sorted(table) == scripts
    for name in scripts:
        source = (ROOT / "benchmarks" / name).read_text(encoding="utf-8")
        options = set(re.findall(r"add_argument\(\s*\"(--[\w-]+)\"", source))
        listed = set(re.findall(r"--[\w-]+", table[name]))
        assert options <= listed, (name, sorted(options - listed))
