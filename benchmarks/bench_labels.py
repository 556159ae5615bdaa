"""Label scoring speed: annoscore beside a plain reference implementation.

Generates about one million items (seeded, in a temporary folder) with 8
imbalanced classes like WMT 2016's pronoun classes; the prediction is right
75% of the time and uses a label gold never uses now and then.  Three
set-ups: ``ID<TAB>LABEL`` with the prediction shuffled, 0.1% of the items
left out and 50 items gold does not have (the worst case: every ID is looked
up); ``ID<TAB>LABEL`` in gold's order; plain ``LABEL`` lines (paired by line).

For each, in one run: annoscore's library (`evaluate_files`), the same
through the command line (``annoscore evaluate --format labels --json``, a
separate process) and the reference below: textbook definitions with a dict
for the pairing and loops over the items.  Accuracy, macro recall, macro F1,
per-class counts and the confusion matrix must agree; the script prints the
times and the ratio.

    python benchmarks/bench_labels.py [--items 1000000] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import results  # benchmarks/results.py: the dated results file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import best_of, run_measured  # noqa: E402

from annoscore.scorer.labels.evaluate import evaluate_files  # noqa: E402

CLASSES = ["ce", "il", "elle", "ils", "elles", "cela", "on", "OTHER"]
WEIGHTS = [30, 25, 12, 10, 4, 8, 3, 8]


SETUPS = ("ID, shuffled", "ID, in order", "LABEL")


def make_files(folder: Path, n_items: int, setup: str, seed: int = 1) -> tuple[Path, Path]:
    """``ID, shuffled``: the prediction lists the items in another order, leaves
    0.1% out and adds 50 items gold does not have; ``ID, in order``: all
    items, in gold's order; ``LABEL``: plain labels, the last 30 not predicted."""
    rng = random.Random(seed)
    gold = rng.choices(CLASSES, weights=WEIGHTS, k=n_items)
    pred = [g if rng.random() < 0.75 else rng.choice(CLASSES) for g in gold]
    pred = [p if rng.random() > 0.001 else "c'" for p in pred]  # a label gold never uses
    suffix = setup.replace(", ", "-").replace(" ", "-")
    gold_path, pred_path = folder / f"gold.{suffix}.tsv", folder / f"pred.{suffix}.tsv"
    if setup.startswith("ID"):
        ids = [f"doc{k // 40}.s{k % 40}" for k in range(n_items)]
        with open(gold_path, "w", encoding="utf-8") as out:
            out.writelines(f"{i}\t{g}\n" for i, g in zip(ids, gold))
        items = list(zip(ids, pred))
        if setup == "ID, shuffled":
            items = [item for item in items if rng.random() > 0.001]
            items += [(f"extra{k}", "ce") for k in range(50)]
            rng.shuffle(items)
        with open(pred_path, "w", encoding="utf-8") as out:
            out.writelines(f"{i}\t{p}\n" for i, p in items)
    else:
        with open(gold_path, "w", encoding="utf-8") as out:
            out.writelines(f"{g}\n" for g in gold)
        with open(pred_path, "w", encoding="utf-8") as out:
            out.writelines(f"{p}\n" for p in pred[:-30])  # the last items not predicted
    return gold_path, pred_path


# --------------------------------------------------------------------------
# The reference: textbook definitions, item by item
# --------------------------------------------------------------------------


def read_items(path: Path) -> list[tuple[str | None, str]]:
    items = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if "\t" in line:
                id_, label = line.split("\t")
                items.append((id_.strip(), label.strip()))
            elif line.strip():
                items.append((None, line.strip()))
    return items


def reference_scores(gold_path: Path, pred_path: Path) -> dict:
    gold = read_items(gold_path)
    pred = read_items(pred_path)
    if gold[0][0] is not None:
        predicted = {}
        for id_, label in pred:
            predicted.setdefault(id_, label)
        pairs = [(label, predicted.get(id_)) for id_, label in gold]
    else:
        pairs = [(label, pred[k][1] if k < len(pred) else None) for k, (_, label) in enumerate(gold)]
    classes = sorted({g for g, _ in pairs})
    confusion = defaultdict(lambda: defaultdict(int))
    correct = 0
    for g, p in pairs:
        if p is not None:
            confusion[g][p] += 1
        if g == p:
            correct += 1
    per_class = {}
    recalls, f1s = [], []
    for c in classes:
        tp = sum(1 for g, p in pairs if g == c and p == c)
        support = sum(1 for g, _ in pairs if g == c)
        predicted_c = sum(1 for _, p in pairs if p == c)
        precision = tp / predicted_c if predicted_c else 0.0
        recall = tp / support if support else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[c] = (tp, support, predicted_c)
        recalls.append(recall)
        f1s.append(f1)
    return {"correct": correct, "total": len(pairs), "macro_recall": sum(recalls) / len(classes),
            "macro_f1": sum(f1s) / len(classes), "per_class": per_class,
            "confusion": {g: dict(row) for g, row in confusion.items()}}


def ours_as_dict(result) -> dict:
    s = result.counts.scores()
    confusion: dict = {}
    for (g, p), n in result.counts.pairs.items():
        confusion.setdefault(g, {})[p] = n
    return {"correct": s.correct, "total": s.total, "macro_recall": s.macro_recall, "macro_f1": s.macro_f1,
            "per_class": {c: (x.correct, x.gold_total, x.system_total) for c, x in s.per_class.items()},
            "confusion": confusion}


def same(a: dict, b: dict) -> bool:
    return (a["correct"], a["total"], a["per_class"], a["confusion"]) == \
        (b["correct"], b["total"], b["per_class"], b["confusion"]) and \
        abs(a["macro_recall"] - b["macro_recall"]) < 1e-12 and abs(a["macro_f1"] - b["macro_f1"]) < 1e-12


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--workdir", help="write the generated files here instead of a temporary folder")
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.workdir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{args.items:,} gold items; best of {args.repeat} runs")
        print()
        print(f"{'set-up':<12} {'annoscore':>10} {'reference':>10} {'ratio':>7} {'CLI (process)':>14} "
              f"{'peak RSS':>9}  Accuracy / MacroRecall / MacroF1")
        for setup in SETUPS:
            gold, pred = make_files(folder, args.items, setup)
            ours_time, result = best_of(args.repeat, lambda: evaluate_files(pred, gold))
            ref_time, reference = best_of(args.repeat, lambda: reference_scores(gold, pred))
            command = [sys.executable, "-m", "annoscore", "evaluate", str(pred), str(gold), "--format", "labels",
                       "--json"]
            measured = min((run_measured(command) for _ in range(args.repeat)), key=lambda m: m.seconds)
            cli = json.loads(measured.stdout)
            ours = ours_as_dict(result)
            agree = same(ours, reference) and cli["metrics"]["Accuracy"]["correct"] == ours["correct"] \
                and cli["confusion"] == {g: dict(sorted(row.items())) for g, row in sorted(ours["confusion"].items())}
            failures += not agree
            s = result.counts.scores()
            print(f"{setup:<12} {ours_time:>9.2f}s {ref_time:>9.2f}s {ref_time / ours_time:>6.1f}x "
                  f"{measured.seconds:>13.2f}s {measured.peak_rss / 2**20:>7.0f}MB  "
                  f"{100 * s.accuracy:.2f} / {100 * s.macro_recall:.2f} / {100 * s.macro_f1:.2f}"
                  + ("" if agree else "  RESULTS DIFFER"))
        print()
        print("ratio = reference time / annoscore time (library, in-process, reading both files); "
              "CLI = `annoscore evaluate --format labels --json` as a new process.")
        print("Accuracy, macro recall, macro F1, per-class counts and confusion matrix of annoscore, "
              "the reference and the CLI " + ("agree." if not failures else "DIFFER."))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
