"""``annoscore compare A B --gold GOLD``: two predictions against gold, with a paired test.

A and B are CoNLL-U predictions of GOLD, or folders of predictions paired
with a folder of gold files by the rules of ``evaluate PRED_DIR GOLD_DIR``
(`scorer.batch`).  `scorer.paired.compare_treebanks` does the work; this
module reads the command line, has each system's prediction of each
treebank scored in a process of its own (one per core, ``--jobs``), and
prints the table (or the JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from annoscore.scorer.batch import PairingError, pair_directories
from annoscore.scorer.comparison import format_p
from annoscore.scorer.conllu.counts import METRICS, STRICT_METRICS
from annoscore.scorer.conllu.evaluate import ConlluOptions
from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.paired import TreebankPair, UnreadableInput, compare_treebanks, treebank_pairs
from annoscore.scorer.report import percent, render_table
from annoscore.scorer.significance import DEFAULT_SAMPLES, DEFAULT_SEED

from ..processes import default_jobs
from .errors import InputError, UsageError
from .inputs import check_input_file
from .options import CONLLU_SAVE_METRICS

NAMES = {"bootstrap": "Paired bootstrap", "permutation": "Approximate randomization (paired permutation)",
         "mcnemar": "McNemar's exact test on per-word right/wrong"}


def _metrics(args: argparse.Namespace, test: str) -> tuple[str, ...]:
    names: list[str] = []
    for value in args.metric or ["LAS"]:
        for name in value.split(","):
            name = name.strip()
            if name and name not in names:
                names.append(name)
    allowed = CONLLU_SAVE_METRICS if test == "mcnemar" else METRICS + (STRICT_METRICS if args.strict else ())
    for name in names:
        if name not in allowed:
            what = "per-word right/wrong exists" if test == "mcnemar" else "the metrics are"
            raise UsageError(f"--metric {excerpt(name)}: {what} {', '.join(allowed)}")
    return tuple(names)


def _treebanks(args: argparse.Namespace) -> tuple[list[TreebankPair], list[str]]:
    dirs = [os.path.isdir(p) for p in (args.a, args.b, args.gold)]
    if any(dirs) and not all(dirs):
        raise UsageError("A, B and --gold must be three files or three folders")
    if not all(dirs):
        for path, role in ((args.a, "A"), (args.b, "B"), (args.gold, "gold")):
            check_input_file(path, role)
        name = os.path.basename(args.gold).rsplit(".", 1)[0]
        return [TreebankPair(name, args.gold, args.a, args.b)], []
    try:
        a = pair_directories(args.a, args.gold, args.split)
        b = pair_directories(args.b, args.gold, args.split)
    except PairingError as error:
        raise InputError(str(error)) from None
    pairs, left_out = treebank_pairs(a.pairs, b.pairs)
    if not pairs:
        raise InputError(f"no gold file in {args.gold} has a prediction in both {args.a} and {args.b}")
    return pairs, left_out


def run(args: argparse.Namespace) -> int:
    test = args.test or "bootstrap"
    if test == "mcnemar" and (args.samples is not None or args.seed is not None):
        raise UsageError("--samples and --seed apply to --test bootstrap and permutation, not mcnemar")
    samples = args.samples if args.samples is not None else DEFAULT_SAMPLES
    if samples < 1:
        raise UsageError(f"--samples must be at least 1, not {samples}")
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    if seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {seed}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    metrics = _metrics(args, test)
    treebanks, left_out = _treebanks(args)
    options = ConlluOptions(strict=args.strict, predicted_only=args.predicted_only)
    jobs = min(args.jobs if args.jobs is not None else default_jobs(), 2 * len(treebanks))  # a process per side
    try:
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                report = compare_treebanks(treebanks, metrics, test, samples, seed, options, args.alpha,
                                           mapper=pool.map, left_out=left_out)
        else:
            report = compare_treebanks(treebanks, metrics, test, samples, seed, options, args.alpha,
                                       left_out=left_out)
    except UnreadableInput as error:
        raise InputError(str(error)) from None
    except BrokenProcessPool:
        raise InputError("a scoring process ended abruptly (out of memory?); try --jobs 1") from None
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(report_text(report))
    return 0


def report_text(report: dict) -> str:
    test, alpha = report["test"], report["alpha"]
    treebanks = report["treebanks"]
    lines = []
    if len(treebanks) == 1:
        tb = treebanks[0]
        lines += [f"A: {tb['a']}", f"B: {tb['b']}", f"Gold: {tb['gold']}"
                  + (f" ({tb['units']} units: sentences, joined where a chunk holds several)" if "units" in tb else ""),
                  ""]
    else:
        headers = ["Treebank"] + [f"{m} {side}" for m in report["metrics"] for side in ("A", "B", "A-B")]
        rows = [[excerpt(tb["name"])] + [percent(tb["metrics"][m][k]) for m in report["metrics"]
                                         for k in ("a", "b", "difference")] for tb in treebanks]
        lines += [f"F1 per treebank ({len(treebanks)} treebanks):", render_table(headers, rows), ""]
        if report["left_out"]:
            lines += [f"Left out (a prediction missing for A or B): {', '.join(map(excerpt, report['left_out']))}", ""]
    averaged = " (macro-averaged over treebanks)" if report["averaged"] == "macro" else ""
    if test == "mcnemar":
        headers = ["Metric", "A acc", "B acc", "only A wrong (b)", "only B wrong (c)", "p"]
        rows = [[m, percent(r["a_accuracy"]), percent(r["b_accuracy"]), r["only_a_wrong"], r["only_b_wrong"],
                 format_p(r["p_value"])] for m, r in report["metrics"].items()]
        pooled = " (the words of all treebanks pooled)" if len(treebanks) > 1 else ""
        lines += [render_table(headers, rows), "", f"{NAMES[test]}{pooled}."]
    else:
        headers = ["Metric", "A", "B", "A-B"] + (["95% CI of A-B"] if test == "bootstrap" else []) + ["p"]
        rows = []
        for m, r in report["metrics"].items():
            row = [m, percent(r["a"]), percent(r["b"]), percent(r["difference"])]
            if test == "bootstrap":
                row.append(f"{percent(r['ci95'][0])} .. {percent(r['ci95'][1])}")
            row.append(format_p(r["p_value"]))
            rows.append(row)
        lines += [f"F1{averaged}:", render_table(headers, rows), "",
                  f"{NAMES[test]}, {report['samples']} samples, seed {report['seed']}; sentences as the unit, "
                  f"F1 from summed counts in each sample."]
    for m, r in report["metrics"].items():
        lines.append(_verdict(m, r, test, alpha))
    for tb in treebanks:
        refused = [side.upper() for side in ("a", "b") if tb["official_would_refuse"][side]]
        if refused:
            lines.append(f"Note: the official scorer would refuse {' and '.join(refused)} on "
                         f"{excerpt(tb['name'])} (scored anyway).")
    lines += ["", f"Signature: {report['signature']['text']}"]
    return "\n".join(lines)


def _verdict(metric: str, r: dict, test: str, alpha: float) -> str:
    p = format_p(r["p_value"])
    if test == "mcnemar":
        b, c = r["only_a_wrong"], r["only_b_wrong"]
        if b + c == 0:
            return f"{metric}: the systems never disagree on a word, so there is no difference to test."
        better = "B" if b > c else "A"
        if r["significant"]:
            return f"{metric}: significant at {alpha:g} ({p}): {better} is wrong on fewer words ({b} vs {c})."
        return f"{metric}: not significant at {alpha:g} ({p}): A alone is wrong on {b} words, B alone on {c}."
    d = 100 * r["difference"]
    if d == 0:
        return f"{metric}: A and B have the same F1; there is no difference to test."
    better = "A" if d > 0 else "B"
    if r["significant"]:
        return f"{metric}: {better} is better by {abs(d):.2f} points, significant at {alpha:g} ({p})."
    return (f"{metric}: {better} is ahead by {abs(d):.2f} points, not significant at {alpha:g} ({p}): "
            f"a difference this size is plausible by chance.")
