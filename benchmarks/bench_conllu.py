"""CoNLL-U scoring speed and memory: annoscore beside the official scorer.

The pair of the issue: five copies of UD English-EWT train with distinct
sent_ids (about one million words) as gold, and a prediction made from it
with ``mkpred.py --tok-noise 0.05 --conf``.  Both scorers run as separate
processes on the same files — annoscore once before the official scorer
and twice after it, its median compared, since this machine's speed drifts
over minutes; the script checks that their raw counts are equal and prints
time, peak memory and the ratios.

    python benchmarks/bench_conllu.py [--workdir DIR] [--jobs N] [--copies 5] [--runs 3] [--one-process]

Needs ../shared (the treebank and mkpred.py) and udtools (the test extras).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import run_measured  # noqa: E402
import results  # noqa: E402  (benchmarks/results.py: the dated results file)

ROOT = Path(__file__).resolve().parent.parent
from needs import require, shared_folder  # noqa: E402

SHARED = shared_folder()
METRICS = ["Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS",
           "CLAS", "MLAS", "BLEX", "ELAS", "EULAS"]

OFFICIAL = """
import json, sys
from udtools import udeval
gold = udeval.load_conllu_file(sys.argv[1])
system = udeval.load_conllu_file(sys.argv[2])
result = udeval.evaluate(gold, system)
print(json.dumps({k: [v.correct, v.gold_total, v.system_total, v.aligned_total] for k, v in result.items()}))
"""


def make_pair(workdir: Path, copies: int) -> tuple[Path, Path]:
    gold, pred = workdir / "gold.conllu", workdir / "pred.conllu"
    if gold.exists() and pred.exists():
        return gold, pred
    source = SHARED / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-train.conllu"
    require("bench_conllu.py", [source, SHARED / "tools" / "mkpred.py"],
            "the shared data (UD English-EWT's train and tools/mkpred.py, to make the pair)")
    text = source.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    with open(gold, "w", encoding="utf-8") as out:
        for k in range(copies):  # distinct sent_ids in each copy
            out.write("\n".join(line + (f"-copy{k}" if line.startswith("# sent_id = ") else "")
                                for line in text.split("\n")).rstrip("\n") + "\n\n")
    subprocess.run([sys.executable, str(SHARED / "tools" / "mkpred.py"), str(gold), str(pred),
                    "--seed", "1", "--tok-noise", "0.05", "--conf"], check=True)
    return gold, pred


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="keep the generated pair here (reused when present)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="annoscore --jobs (default: automatic)")
    parser.add_argument("--skip-official", action="store_true", help="only time annoscore")
    parser.add_argument("--runs", type=int, default=3,
                        help="annoscore runs (one before the official scorer, the rest after; median)")
    parser.add_argument("--one-process", action="store_true",
                        help="also time annoscore --jobs 1, to see what the processes gain "
                             "(less when the machine is busy)")
    args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    gold, pred = make_pair(workdir, args.copies)
    words = sum(1 for line in open(gold, encoding="utf-8") if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
    print(f"pair: {gold} ({gold.stat().st_size >> 20} MB), {pred} ({pred.stat().st_size >> 20} MB), {words} gold words")

    command = [sys.executable, "-m", "annoscore", "evaluate", str(pred), str(gold), "--json"]
    if args.jobs is not None:
        command += ["--jobs", str(args.jobs)]
    # This machine's speed drifts over minutes: annoscore runs once before
    # the official scorer and the rest after it, and its median is compared
    # with the official run it surrounds.
    runs = [run_measured(command)]
    official = None
    if not args.skip_official:
        official = run_measured([sys.executable, "-c", OFFICIAL, str(gold), str(pred)])
    runs += [run_measured(command) for _ in range(args.runs - 1)]
    for run in runs + [official] if official else runs:
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
    ours = sorted(runs, key=lambda r: r.seconds)[len(runs) // 2]
    metrics = json.loads(ours.stdout)["metrics"]
    print(f"annoscore: {ours.seconds:7.2f} s  peak {ours.peak_rss / 2**20:7.0f} MB"
          + (f"  (median of {len(runs)} runs: {', '.join(f'{r.seconds:.2f}' for r in runs)} s)"
             if len(runs) > 1 else ""))
    if args.one_process:
        single = run_measured(command[:command.index("--json") + 1] + ["--jobs", "1"])
        if single.returncode != 0:
            print(single.stderr, file=sys.stderr)
            return 1
        print(f"--jobs 1:  {single.seconds:7.2f} s  (the processes gain {single.seconds / ours.seconds:.2f}x)")
    if official is None:
        return 0
    counts = json.loads(official.stdout)
    print(f"official:  {official.seconds:7.2f} s  peak {official.peak_rss / 2**20:7.0f} MB")
    same = all([metrics[m]["correct"], metrics[m]["gold_total"], metrics[m]["system_total"],
                metrics[m]["aligned_total"]] == counts[m] for m in METRICS)
    print(f"speed-up: {official.seconds / ours.seconds:.1f}x; memory: {100 * ours.peak_rss / official.peak_rss:.1f}% "
          f"of the official peak; raw counts equal: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
