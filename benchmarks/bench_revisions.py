"""annoscore at two git revisions side by side: is a change slower?

Scores the pair of bench_conllu.py (about a million words) with
``annoscore evaluate --json`` from two checkouts of the repository, taking
turns (A, B, A, B, ...) since this machine's speed drifts over minutes,
checks that every metric's raw counts are equal, and prints each side's
median time, peak memory and the ratio.  With ``--lsp`` it then runs each
side's own ``benchmarks/bench_lsp.py`` on the same pair, one after the
other, and prints both reports.

    python benchmarks/bench_revisions.py OLD [NEW] [--workdir DIR] [--runs 5] [--jobs N] [--lsp]

OLD and NEW are git revisions (a temporary worktree is made for each) or
folders holding a checkout; NEW defaults to this checkout.  Both run with
this Python (the same dependencies), the checkout first on the path.
Needs ../shared to make the pair (see bench_conllu.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_conllu import make_pair  # noqa: E402
from measure import Measurement, run_measured  # noqa: E402
import results  # noqa: E402  (benchmarks/results.py: the dated results file)

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """A folder holding ``revision``: the folder itself, or a temporary git worktree."""
    if os.path.isdir(revision):
        yield Path(revision).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="annoscore-rev-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(folder), revision],
                   check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)


def evaluate(tree: Path, pred: Path, gold: Path, jobs: int | None) -> Measurement:
    command = [sys.executable, "-m", "annoscore", "evaluate", str(pred), str(gold), "--json"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    env = dict(os.environ, PYTHONPATH=str(tree))
    return run_measured(command, cwd=str(tree), env=env)


def raw_counts(measurement: Measurement) -> dict[str, list[int]]:
    metrics = json.loads(measurement.stdout)["metrics"]
    return {name: [m["correct"], m["gold_total"], m["system_total"], m["aligned_total"]]
            for name, m in metrics.items()}


def median(runs: list[Measurement]) -> Measurement:
    return sorted(runs, key=lambda r: r.seconds)[len(runs) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="a git revision or a folder holding a checkout")
    parser.add_argument("new", nargs="?", default=str(ROOT), help="the same (default: this checkout)")
    parser.add_argument("--workdir", help="keep the generated pair here (reused when present)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5, help="evaluate runs per side, taking turns")
    parser.add_argument("--jobs", type=int, default=None, help="annoscore --jobs (default: automatic)")
    parser.add_argument("--lsp", action="store_true", help="then each side's bench_lsp.py on the same pair")
    args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    gold, pred = make_pair(workdir, args.copies)
    with ExitStack() as stack:
        trees = {"old": stack.enter_context(checkout(args.old)), "new": stack.enter_context(checkout(args.new))}
        runs: dict[str, list[Measurement]] = {"old": [], "new": []}
        for _ in range(args.runs):
            for side, tree in trees.items():
                run = evaluate(tree, pred, gold, args.jobs)
                if run.returncode != 0:
                    print(f"{side} ({tree}) failed:\n{run.stderr[-2000:]}", file=sys.stderr)
                    return 1
                runs[side].append(run)
        counts = {side: raw_counts(median(r)) for side, r in runs.items()}
        same = counts["old"] == counts["new"]
        for side, tree in trees.items():
            m = median(runs[side])
            print(f"{side}: {m.seconds:6.2f} s  peak {m.peak_rss / 2**20:6.0f} MB  ({tree}; runs: "
                  f"{', '.join(f'{r.seconds:.2f}' for r in runs[side])} s)")
        old, new = median(runs["old"]), median(runs["new"])
        print(f"new/old time: {new.seconds / old.seconds:.3f}; memory: {new.peak_rss / old.peak_rss:.3f}; "
              f"raw counts equal: {'yes' if same else 'NO'}")
        if args.lsp:
            for side, tree in trees.items():
                print(f"\n== bench_lsp.py of {side} ({tree})", flush=True)
                # Its output is printed from here, so that it is in this run's results file too.
                report = subprocess.run([sys.executable, str(tree / "benchmarks" / "bench_lsp.py"), "--workdir",
                                         str(workdir), "--copies", str(args.copies)], stdout=subprocess.PIPE, text=True,
                                        cwd=str(tree), env=dict(os.environ, PYTHONPATH=str(tree)), check=False)
                print(report.stdout, end="", flush=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
