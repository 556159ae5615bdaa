"""Leak check and split maker speed on a UD-size treebank, beside comparing all pairs.

On UD English-EWT (train 204,577 words, dev, test; `../shared`, or a
folder given with ``--treebank``), times, as a separate process like a
user runs them:

- ``annoscore leaks train dev test`` with the default rules (digits) and
  with ``jaccard=0.8`` added;
- ``annoscore split train --group-by newdoc`` and the leak check of its
  outputs;
- one `LeakIndex.occurrences` query per dev sentence against an index of
  train (what an editor asks per sentence), median and largest;
- the all-pairs alternative for jaccard: every dev sentence against every
  train sentence, timed on the first ``--sample`` dev sentences and
  extrapolated to all of dev and test.

The jaccard pairs found by the index must equal those of all pairs on the
sample (the script checks).

    python benchmarks/bench_hygiene.py [--treebank DIR] [--sample 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import results  # benchmarks/results.py: the dated results file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import run_measured  # noqa: E402

from annoscore.scorer.hygiene import LeakIndex, read_items, rules_from  # noqa: E402
from annoscore.scorer.hygiene.near import WORDS  # noqa: E402
from annoscore.scorer.hygiene.similar import jaccard  # noqa: E402


from needs import require, shared_folder  # noqa: E402


def cli(*args: str):
    return run_measured([sys.executable, "-m", "annoscore", *args])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--treebank", default=str(shared_folder() / "data" / "ud" / "UD_English-EWT"))
    parser.add_argument("--sample", type=int, default=50)
    args = parser.parse_args()
    folder = Path(args.treebank)
    train, dev, test = (str(folder / f"en_ewt-ud-{s}.conllu") for s in ("train", "dev", "test"))
    require("bench_hygiene.py", [Path(train), Path(dev), Path(test)],
            "UD English-EWT's train, dev and test (--treebank DIR)")

    for near in ("digits", "digits,jaccard=0.8"):
        m = cli("leaks", train, dev, test, "--near", near)
        summary = next((line for line in m.stdout.splitlines() if line.startswith("Leaks:")), "")
        print(f"leaks --near {near:<20} {m.seconds:6.2f} s  {m.peak_rss / 2 ** 20:5.0f} MB  {summary}")
    with tempfile.TemporaryDirectory() as out:
        m = cli("split", train, "--out", out, "--group-by", "newdoc")
        print(f"split --group-by newdoc          {m.seconds:6.2f} s  {m.peak_rss / 2 ** 20:5.0f} MB")
        m = cli("leaks", f"{out}/train.conllu", f"{out}/dev.conllu", f"{out}/test.conllu")
        print(f"leaks on its outputs             {m.seconds:6.2f} s  exit {m.returncode}")

    normalization, near = rules_from("nfc,casefold,space", "digits,jaccard=0.8")
    index = LeakIndex(normalization, near)
    start = time.perf_counter()
    index.add_file(read_items(train), "train")
    print(f"index of train: {time.perf_counter() - start:.2f} s ({index.items:,} sentences)")
    dev_items = read_items(dev).items
    times = []
    for item in dev_items:
        start = time.perf_counter()
        index.occurrences(item.text)
        times.append(time.perf_counter() - start)
    print(f"one query per dev sentence: the first {times[0] * 1e3:.0f} ms (it builds the jaccard index), "
          f"then median {statistics.median(times[1:]) * 1e6:.0f} µs, largest {max(times[1:]) * 1e3:.1f} ms "
          f"({len(times):,} queries)")

    # All pairs for jaccard, on a sample, against the index's answer.
    train_items = read_items(train).items
    train_sets = [frozenset(WORDS.findall(near.key(normalization(i.text))[0])) for i in train_items]
    sample = dev_items[:args.sample]
    start = time.perf_counter()
    brute = []
    for item in sample:
        words = frozenset(WORDS.findall(near.key(normalization(item.text))[0]))
        brute.append({train_items[k].line for k, other in enumerate(train_sets) if words and other
                      and jaccard(words, other) >= near.jaccard})
    per_query = (time.perf_counter() - start) / len(sample)
    for item, expected in zip(sample, brute):
        found = {o.line for o in index.occurrences(item.text)}
        assert found == expected, item.line
    later = len(dev_items) + len(read_items(test).items)
    print(f"all pairs for jaccard: {per_query * 1e3:.0f} ms per sentence, about {per_query * later:.0f} s "
          f"for dev and test ({later:,} sentences x {len(train_sets):,}); the index found the same pairs "
          f"on {len(sample)} sentences")


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
