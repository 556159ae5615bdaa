"""Many treebanks in one run, and the paired bootstrap's speed.

1. The nine shared treebanks' test files (``../shared/data/ud/*/*-ud-test.conllu``)
   against predictions made by ``mkpred.py --label-noise 0.05 --tok-noise 0.05``:
   scored one by one in a shell loop (one ``annoscore evaluate`` per pair),
   then as one directory run with one process and with two
   (``annoscore evaluate PRED_DIR GOLD_DIR --jobs N``).  Each way runs
   ``--runs`` times, alternating (this machine's speed drifts over minutes),
   and the medians are compared; the script checks that every pair's raw
   counts are the same in the loop's output and the directory run's.
2. ``compare A B --gold GOLD`` on UD English-EWT test (25k words) with two
   mkpred predictions: the time of 10,000 bootstrap samples and of 10,000
   permutation samples (the tests alone, the scoring excluded), and of the
   whole command.

    python benchmarks/bench_many.py [--workdir DIR] [--runs 3]

Needs ../shared (the treebanks and mkpred.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import results  # benchmarks/results.py: the dated results file

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))
ANNOSCORE = [sys.executable, "-m", "annoscore"]


def make_predictions(workdir: Path) -> tuple[Path, Path, list[Path]]:
    pred_dir = workdir / "pred"
    pred_dir.mkdir(exist_ok=True)
    golds = sorted((SHARED / "data" / "ud").glob("*/*-ud-test.conllu"))
    for k, gold in enumerate(golds):
        out = pred_dir / gold.name
        if not out.exists():
            subprocess.run([sys.executable, str(SHARED / "tools" / "mkpred.py"), str(gold), str(out),
                            "--seed", str(k), "--label-noise", "0.05", "--tok-noise", "0.05"], check=True)
    return pred_dir, SHARED / "data" / "ud", golds


CPU: dict[str, list[float]] = {}


def timed(command: list[str] | str, shell: bool = False, key: str | None = None) -> tuple[float, str]:
    """Wall time and output of a command; its CPU time (all its processes)
    goes to CPU[key]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, shell=shell, capture_output=True, text=True, cwd=ROOT, check=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if key is not None:
        CPU.setdefault(key, []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return seconds, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="annoscore-bench-many-"))
    workdir.mkdir(parents=True, exist_ok=True)
    pred_dir, gold_dir, golds = make_predictions(workdir)
    words = 0
    for gold in golds:
        with open(gold, encoding="utf-8") as f:
            words += sum(1 for line in f if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
    print(f"{len(golds)} pairs, {words} gold words, {sum(g.stat().st_size for g in golds) >> 20} MB of gold")

    python = " ".join(ANNOSCORE)
    loop = "; ".join(f"{python} evaluate --json {pred_dir / g.name} {g} > {workdir / (g.name + '.json')}"
                     for g in golds)
    times: dict[str, list[float]] = {"loop": [], "jobs1": [], "jobs2": []}
    outputs = {}
    for _ in range(args.runs):
        times["loop"].append(timed(loop, shell=True, key="loop")[0])
        for jobs in (1, 2):
            seconds, out = timed(ANNOSCORE + ["evaluate", str(pred_dir), str(gold_dir), "--json", "--jobs", str(jobs)],
                                 key=f"jobs{jobs}")
            times[f"jobs{jobs}"].append(seconds)
            outputs[jobs] = json.loads(out)
    same = True
    for pair in outputs[2]["pairs"]:
        one = json.loads((workdir / (Path(pair["gold"]).name + ".json")).read_text())
        same &= pair["result"]["metrics"] == one["metrics"]
    same &= outputs[1]["pairs"] == outputs[2]["pairs"]
    median = {k: statistics.median(v) for k, v in times.items()}
    for key, label in (("loop", "shell loop (one process per pair)"), ("jobs1", "directory run, --jobs 1"),
                       ("jobs2", "directory run, --jobs 2")):
        print(f"{label:36s} {median[key]:6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times[key])}; "
              f"CPU {statistics.median(CPU[key]):.2f} s)")
    print(f"directory run vs loop: {median['loop'] / median['jobs1']:.2f}x with one process, "
          f"{median['loop'] / median['jobs2']:.2f}x with two; raw counts equal: {'yes' if same else 'NO'}")

    # 2. The bootstrap on a 25k-word test set.
    from annoscore.scorer.conllu.counts import WORDS_GOLD
    from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
    from annoscore.scorer.significance import approximate_randomization, pair_units, paired_bootstrap

    gold = SHARED / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-test.conllu"
    systems = []
    for seed in (1, 2):
        out = workdir / f"ewt-{seed}.conllu"
        if not out.exists():
            subprocess.run([sys.executable, str(SHARED / "tools" / "mkpred.py"), str(gold), str(out),
                            "--seed", str(seed), "--label-noise", "0.1", "--tok-noise", "0.05"], check=True)
        systems.append(out)
    start = time.perf_counter()
    units = [evaluate_files(s, gold, ConlluOptions(units=True)).units for s in systems]
    scoring = time.perf_counter() - start
    paired = pair_units(units[0], units[1], "en_ewt")
    ewt_words = int(paired.a[:, WORDS_GOLD].sum())
    for run, label in ((paired_bootstrap, "bootstrap"), (approximate_randomization, "permutation")):
        seconds = []
        for _ in range(args.runs):
            start = time.perf_counter()
            result = run([paired], ["LAS"], 10_000, 12345)["LAS"]
            seconds.append(time.perf_counter() - start)
        print(f"{label}: 10000 samples over {paired.size} units ({ewt_words} gold words), LAS: "
              f"{statistics.median(seconds):.2f} s (median of {args.runs}); p = {result.p_value:.4f}")
    seconds, _ = timed(ANNOSCORE + ["compare", str(systems[0]), str(systems[1]), "--gold", str(gold),
                                    "--metric", "LAS,MLAS,BLEX"])
    print(f"scoring both with per-unit counts: {scoring:.2f} s; the whole `compare --gold` command "
          f"(LAS, MLAS, BLEX, 10000 samples): {seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
