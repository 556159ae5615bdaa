"""annoscore beside the official scripts, side by side in one run: CPU and wall.

What issue 31 measures, every figure the median of ``--runs`` alternating
runs (ours, the official script, ours, ...), each a fresh process, with the
CPU time of its whole process tree (every descendant reaped by this script,
which makes itself their subreaper) and the wall time:

- start: a 10-sentence ``evaluate`` against ``udeval`` and ``check --level 5
  --lang en`` against ``udvalidate`` (5 runs);
- ``evaluate --jobs 1`` and ``evaluate`` (automatic jobs) against udeval on
  the 200k-word pair (EWT train + ``mkpred.py --seed 1 --label-noise 0.1
  --tok-noise 0.05 --conf``) and on the 1M-word pair (five copies of train,
  the same mkpred options), raw counts compared in every run;
- ``check --json --level 5 --lang en`` against ``udvalidate --level 5`` on EWT
  train, the (line, test id) multisets compared in every run.

Each part runs twice: on the machine as it is, then with a CPU burner (a
process spinning) beside it.  The load averages are printed beside each part.

    python benchmarks/bench_speed.py [--workdir DIR] [--runs 3] [--skip-1m] [--no-burner]

Needs ../shared (EWT, mkpred.py) and udtools (the test extras).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # noqa: E402  (benchmarks/results.py: the dated results file)
from bench_validation import official_incidents  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))
TRAIN = SHARED / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-train.conllu"
MKPRED = ["--seed", "1", "--label-noise", "0.1", "--tok-noise", "0.05", "--conf"]
METRICS = ["Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS",
           "CLAS", "MLAS", "BLEX", "ELAS", "EULAS"]
# The official scorer as a user runs it (its own loading and evaluation),
# printing its raw counts so that they can be compared.
OFFICIAL_EVAL = """
import json, sys
from udtools import udeval
gold = udeval.load_conllu_file(sys.argv[1])
system = udeval.load_conllu_file(sys.argv[2])
result = udeval.evaluate(gold, system)
print(json.dumps({k: [v.correct, v.gold_total, v.system_total, v.aligned_total] for k, v in result.items()}))
"""
_PR_SET_CHILD_SUBREAPER = 36


@dataclass
class Run:
    cpu: float
    wall: float
    stdout: str
    stderr: str
    returncode: int


def _children() -> list[int]:
    out = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def run(command: list[str], keep: set[int]) -> Run:
    """One process tree, to its end: CPU of every process in it (this
    process is their subreaper, so orphans are reaped and counted here too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - start
    while True:  # the orphans it left (helper processes ending), but not the burner
        left = [pid for pid in _children() if pid not in keep]
        if not left:
            break
        for pid in left:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(cpu, wall, stdout, stderr, process.returncode)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def median(runs: list[Run]) -> tuple[float, float]:
    return statistics.median(r.cpu for r in runs), statistics.median(r.wall for r in runs)


def side_by_side(title: str, commands: dict[str, list[str]], official: str, runs: int, keep: set[int],
                 same) -> bool:
    """Each command and the official one alternating, ``runs`` times; prints
    medians and the ratios; ``same(ours_run, official_run)`` checks the
    results of every pair of runs."""
    print(f"\n{title}  (load {load()} at the start)")
    timings: dict[str, list[Run]] = {name: [] for name in commands}
    equal = True
    for _ in range(runs):
        for name, command in commands.items():
            result = run(command, keep)
            if result.returncode not in (0, 1):
                print(result.stderr[-2000:], file=sys.stderr)
                raise SystemExit(f"{name} failed")
            timings[name].append(result)
    reference = timings[official]
    for name, measured in timings.items():
        if name != official:
            equal &= all(same(ours, ref) for ours, ref in zip(measured, reference))
    ref_cpu, ref_wall = median(reference)
    for name, measured in timings.items():
        cpu, wall = median(measured)
        ratio = "" if name == official else f"   {ref_cpu / cpu:5.1f}x CPU, {ref_wall / wall:5.1f}x wall"
        print(f"  {name:26} CPU {cpu:7.2f} s  wall {wall:7.2f} s"
              f"  (CPU of the runs: {', '.join(f'{r.cpu:.2f}' for r in measured)}){ratio}")
    print(f"  results equal in every run: {'yes' if equal else 'NO'}   (load {load()} at the end)")
    return equal


def same_counts(ours: Run, official: Run) -> bool:
    metrics = json.loads(ours.stdout)["metrics"]
    counts = json.loads(official.stdout)
    return all([metrics[m]["correct"], metrics[m]["gold_total"], metrics[m]["system_total"],
                metrics[m]["aligned_total"]] == counts[m] for m in METRICS)


def same_findings(ours: Run, official: Run) -> bool:
    found = Counter(((d.get("ud_line") or d["line"]) - 1, d["test_id"])
                    for d in json.loads(ours.stdout)["files"][0]["diagnostics"] if "test_id" in d)
    return found == official_incidents(official.stderr)


def same_text_counts(ours: Run, official: Run) -> bool:
    """A small evaluate's text report against udeval's: the same F1 per metric."""
    def f1s(text: str, column: int) -> dict[str, str]:
        out = {}
        for line in text.split("\n"):
            cells = [c.strip() for c in line.split("|")]
            if cells and cells[0] in METRICS:
                out[cells[0]] = cells[column]
        return out
    return f1s(ours.stdout, 3) == f1s(official.stdout, 3) and len(f1s(ours.stdout, 3)) == len(METRICS)


def make_pairs(workdir: Path, skip_1m: bool) -> dict[str, tuple[Path, Path]]:
    pairs = {}
    text = TRAIN.read_text(encoding="utf-8")
    small_gold = workdir / "small.gold.conllu"
    if not small_gold.exists():
        small_gold.write_text("\n\n".join(text.split("\n\n")[:10]) + "\n\n", encoding="utf-8")
    sizes = [("small", small_gold), ("200k", TRAIN)]
    if not skip_1m:
        big_gold = workdir / "1m.gold.conllu"
        if not big_gold.exists():
            body = text.rstrip("\n") + "\n\n"
            with open(big_gold, "w", encoding="utf-8") as out:
                for k in range(5):  # distinct sent_ids in each copy
                    out.write("\n".join(line + (f"-copy{k}" if line.startswith("# sent_id = ") else "")
                                        for line in body.split("\n")).rstrip("\n") + "\n\n")
        sizes.append(("1m", big_gold))
    for name, gold in sizes:
        pred = workdir / f"{name}.pred.conllu"
        if not pred.exists():
            subprocess.run([sys.executable, str(SHARED / "tools" / "mkpred.py"), str(gold), str(pred), *MKPRED],
                           check=True)
        pairs[name] = (pred, gold)
    return pairs


def main() -> int:
    # The work itself, every run: a run after the first would find a large file's
    # validation in the cache (benchmarks/bench_reopen.py measures the cache).
    os.environ["ANNOSCORE_NO_CACHE"] = "1"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="keep the generated pairs here (reused when present)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-1m", action="store_true", help="leave out the 1M-word pair (udeval takes ~100 s a run)")
    parser.add_argument("--no-burner", action="store_true", help="only the machine as it is")
    parser.add_argument("--parts", default="start,evaluate,check", help="which parts, comma-separated")
    args = parser.parse_args()
    if not TRAIN.exists():
        print(f"needs {TRAIN}", file=sys.stderr)
        return 2
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    pairs = make_pairs(workdir, args.skip_1m)
    python = sys.executable
    udvalidate = shutil.which("udvalidate") or str(Path(python).parent / "udvalidate")
    udeval = shutil.which("udeval") or str(Path(python).parent / "udeval")
    annoscore = [python, "-m", "annoscore"]
    # An installed copy has its bytecode (pip compiles it); a checkout run
    # with PYTHONDONTWRITEBYTECODE set has none, and every start would be
    # measured compiling annoscore's source (udtools, installed, has its own).
    subprocess.run([python, "-m", "compileall", "-q", str(ROOT / "scorer"), str(ROOT / "server"),
                    str(ROOT / "annoscore")], check=True, stdout=subprocess.DEVNULL)
    lane = subprocess.run([*annoscore, "--version"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    print(lane.replace("\n", "; "))
    parts = set(args.parts.split(","))
    equal = True
    for burner_on in ([False] if args.no_burner else [False, True]):
        burner = subprocess.Popen([python, "-c", "while True: pass"]) if burner_on else None
        keep = {burner.pid} if burner else set()
        phase = "with a CPU burner on one core" if burner_on else "the machine as it is"
        print(f"\n=== {phase} ===")
        try:
            if "start" in parts:
                pred, gold = pairs["small"]
                equal &= side_by_side("start: evaluate, 10 sentences", {
                    "annoscore evaluate": [*annoscore, "evaluate", str(pred), str(gold)],
                    "udeval": [udeval, "--verbose", str(gold), str(pred)]}, "udeval", max(5, args.runs), keep,
                    same_text_counts)
                equal &= side_by_side("start: check --level 5, 10 sentences", {
                    "annoscore check": [*annoscore, "check", "--level", "5", "--lang", "en", "--json", str(gold)],
                    "udvalidate": [udvalidate, "--lang", "en", "--level", "5", "--max-err", "0", str(gold)]},
                    "udvalidate", max(5, args.runs), keep, same_findings)
            if "evaluate" in parts:
                for size in ("200k", "1m"):
                    if size not in pairs:
                        continue
                    pred, gold = pairs[size]
                    equal &= side_by_side(f"evaluate, {size} pair ({gold.name})", {
                        "annoscore evaluate --jobs 1": [*annoscore, "evaluate", str(pred), str(gold), "--json",
                                                        "--jobs", "1"],
                        "annoscore evaluate": [*annoscore, "evaluate", str(pred), str(gold), "--json"],
                        "udeval": [python, "-c", OFFICIAL_EVAL, str(gold), str(pred)]},
                        "udeval", args.runs, keep, same_counts)
            if "check" in parts:
                equal &= side_by_side("check --level 5, EWT train", {
                    "annoscore check": [*annoscore, "check", "--json", "--level", "5", "--lang", "en", str(TRAIN)],
                    "udvalidate": [udvalidate, "--lang", "en", "--level", "5", "--max-err", "0", str(TRAIN)]},
                    "udvalidate", args.runs, keep, same_findings)
        finally:
            if burner:
                burner.kill()
                burner.wait()
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
