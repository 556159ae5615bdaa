"""``annoscore agree`` beside ``annoscore evaluate`` on the same pair of files.

Two annotations of one treebank (two mkpred.py runs with different seeds
of EWT train, 204k words, some sentences tokenized otherwise), each command
run as a user runs it (a process from scratch, default options: agree with
its 1,000 bootstrap resamples and both default breakdowns), alternately, so
that the machine's load weighs on both alike.  Prints each run, the medians
and their ratio; benchmarks/results.py writes them to a dated file under
benchmarks/results/.

    python benchmarks/bench_agree.py [GOLD] [--runs 5] [--label-noise 0.05] [--tok-noise 0.02]

Needs ../shared (the treebank and mkpred.py).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # noqa: E402
from measure import run_measured  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-train.conllu"
ANNOSCORE = Path(sys.executable).parent / "annoscore"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gold", nargs="?", default=str(DEFAULT))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label-noise", default="0.05")
    parser.add_argument("--tok-noise", default="0.02")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        runs = []
        for seed in (1, 2):
            out = Path(folder) / f"run{seed}.conllu"
            subprocess.run([sys.executable, str(SHARED / "tools" / "mkpred.py"), args.gold, str(out), "--seed",
                            str(seed), "--label-noise", args.label_noise, "--tok-noise", args.tok_noise], check=True)
            runs.append(str(out))
        words = sum(1 for line in open(runs[0], encoding="utf-8") if line[:1].isdigit() and "\t" in line)
        commands = {"agree": [str(ANNOSCORE), "agree", *runs],
                    "agree --samples 0": [str(ANNOSCORE), "agree", *runs, "--samples", "0"],
                    "evaluate": [str(ANNOSCORE), "evaluate", runs[1], runs[0]]}
        times: dict[str, list[float]] = {name: [] for name in commands}
        peaks: dict[str, list[int]] = {name: [] for name in commands}
        for k in range(args.runs):
            for name, command in commands.items():
                m = run_measured(command)
                assert m.returncode == 0, m.stderr
                times[name].append(m.seconds)
                peaks[name].append(m.peak_rss)
                print(f"run {k + 1} {name:18} {m.seconds:6.2f} s  {m.peak_rss / 2**20:6.0f} MB", flush=True)
        load = os.getloadavg()
    median = {name: statistics.median(t) for name, t in times.items()}
    ratio = median["agree"] / median["evaluate"]
    lines = [f"# annoscore agree beside evaluate ({datetime.date.today().isoformat()})", "",
             f"Pair: two mkpred.py runs (seeds 1 and 2, --label-noise {args.label_noise} --tok-noise "
             f"{args.tok_noise}) of {Path(args.gold).name}, {words:,} token lines each; "
             f"{args.runs} runs each, alternated; load average at the end {load[0]:.1f} on "
             f"{os.cpu_count()} cores.", "",
             "| Command | Median s | Runs (s) | Peak MB (median) |", "|---|---:|---|---:|"]
    for name in commands:
        lines.append(f"| `annoscore {name}` | {median[name]:.2f} | "
                     f"{', '.join(f'{t:.2f}' for t in times[name])} | {statistics.median(peaks[name]) / 2**20:.0f} |")
    lines += ["", f"Ratio agree / evaluate: {ratio:.2f}; without the bootstrap (--samples 0): "
              f"{median['agree --samples 0'] / median['evaluate']:.2f}", ""]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
