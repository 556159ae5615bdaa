"""``annoscore evaluate PRED_DIR GOLD_DIR`` (and ``--manifest``, ``--system``): many pairs at once.

The pairs come from `scorer.batch` (pairing by name, or a manifest, or
runs of systems); each is scored by `scorer.batch.score_pair`, exactly as
one-pair evaluate scores it.  Here they run in processes, one per core
(``--jobs``), the largest first so that the last to finish are small, with
one progress line for all of them; then the per-treebank table and the
averages are printed (or the JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from annoscore.scorer.batch import (
    MISSING, SCORED, UNREADABLE, TABLE_METRICS, ManyOptions, FilePairs, PairingError, PairTask, expand_runs,
    macro_f1, many_report, micro_f1, pair_directories, pair_f1, pair_run, read_manifest, score_pair,
)
from annoscore.scorer.conllu.breakdown import breakdown_text
from annoscore.scorer.excerpt import excerpt, printable
from annoscore.scorer.report import percent, render_table

from ..processes import default_jobs
from . import final
from .errors import InputError, UsageError
from .evaluate_conllu import options_from
from .options import breakdown_kinds
from .progress import Progress

SEED_METRICS = ("UPOS", "UAS", "LAS", "MLAS", "BLEX")
BREAKDOWN_ROWS = 20


def run(args: argparse.Namespace) -> int:
    if args.save_errors:
        raise UsageError("--save-errors applies to one pair; for many, use `annoscore compare A_DIR B_DIR --gold GOLD_DIR`")
    if args.official:
        raise UsageError("--official applies to one pair")
    if args.counts:
        raise UsageError("--counts applies to one pair; with many, --json has every pair's raw counts")
    if args.format not in (None, "conllu"):
        raise UsageError("many pairs at once are CoNLL-U only")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    options = options_from(args)
    kinds = breakdown_kinds(args)
    runs = _runs(args)  # (system name or None, run label or None, pairing)
    pairs = [(system, label, spec) for system, label, pairing in runs for spec in pairing.pairs]
    if not any(spec.pred for _, _, spec in pairs):
        raise InputError("no prediction pairs with a gold file" + _pairing_hint(args))
    # Declared test splits: refused without --final, recorded with it (final.py), as for one pair.
    scored = [(system, label, spec) for system, label, spec in pairs if spec.pred]
    finals = dict(zip((id(spec) for _, _, spec in scored), final.gate_many(
        args, [final.ManyPair(system, label, spec.pred, spec.gold) for system, label, spec in scored])))
    tasks = [PairTask(spec, options, kinds, args.confusions or 0, run=label,
                      final=finals.get(id(spec)) is not None)
             for _, label, spec in pairs]
    results = _score_all(tasks, args.jobs if args.jobs is not None else default_jobs())
    final.mark_many([finals.get(id(t.spec)) for t in tasks], results)
    report = many_report(runs, results, ManyOptions(
        strict=options.strict, predicted_only=options.predicted_only, annotated_only=options.annotated_only,
        split=args.split, shared_task=args.shared_task, confusions=args.confusions or 0,
        pooled=bool(kinds or args.confusions)))
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(_text(report, options.strict))
    return 0


def _pairing_hint(args: argparse.Namespace) -> str:
    if args.manifest:
        return f" ({args.manifest} lists none that exist)"
    return (f" (split {args.split}: predictions pair with gold files by name, see `annoscore evaluate --help`"
            " and the README)")


def _runs(args: argparse.Namespace) -> list[tuple[str | None, str | None, FilePairs]]:
    try:
        if args.manifest:
            if args.pred or args.gold:
                raise UsageError("--manifest lists the pairs: give no PRED or GOLD besides it")
            if args.system:
                raise UsageError("--manifest and --system cannot be combined")
            return [(None, None, read_manifest(args.manifest))]
        runs = [value for value in args.system or () if "=" in value]
        if runs:
            if args.gold is not None:
                raise UsageError("with --system, give only GOLD (a file or a folder)")
            if args.pred is None:
                raise UsageError("with --system, give GOLD (a file, or a folder of gold files)")
            return _system_runs(runs, args.pred, args.split)
        return [(None, None, pair_directories(args.pred, args.gold, args.split))]
    except PairingError as error:
        raise InputError(str(error)) from None


def _system_runs(values: list[str], gold: str, split: str) -> list[tuple[str | None, str | None, FilePairs]]:
    if not os.path.exists(gold):
        raise InputError(f"{gold}: no such file or folder (gold)")
    patterns: dict[str, list[str]] = {}
    for value in values:
        name, sep, pattern = value.partition("=")
        if not sep or not name or not pattern:
            raise UsageError(f"--system {excerpt(value)}: write NAME=GLOB (e.g. udpipe='runs/seed*/')")
        patterns.setdefault(name, []).append(pattern)
    out: list[tuple[str | None, str | None, FilePairs]] = []
    gold_is_dir = os.path.isdir(gold)
    for name, globs in patterns.items():
        matches = expand_runs(globs)
        if not matches or not any(os.path.exists(m) for m in matches):
            raise InputError(f"--system {excerpt(name)}: {', '.join(map(excerpt, globs))} matches nothing")
        for match in matches:
            if gold_is_dir != os.path.isdir(match):
                raise UsageError(f"--system {excerpt(name)}: {excerpt(match)} is a "
                                 f"{'folder' if os.path.isdir(match) else 'file'}, but GOLD is a "
                                 f"{'folder' if gold_is_dir else 'file'}")
            out.append((name, match, pair_run(match, gold, split)))
    return out


def _score_all(tasks: list[PairTask], jobs: int) -> list[dict]:
    """`score_pair` of every task, in the tasks' order: in ``jobs``
    processes, largest predictions first, with one progress line."""
    sizes = [_size(t.spec.pred) for t in tasks]
    total = sum(sizes)
    jobs = min(jobs, sum(1 for t in tasks if t.spec.pred))
    progress = Progress(f"Scoring {len(tasks)} pairs" + (f" in {jobs} processes" if jobs > 1 else ""), total)
    results: list[dict | None] = [None] * len(tasks)
    done = 0
    try:
        if jobs <= 1:
            for k, task in enumerate(tasks):
                results[k] = score_pair(task)
                done += sizes[k]
                progress.update(done, total)
        else:
            order = sorted(range(len(tasks)), key=lambda k: -sizes[k])
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(score_pair, tasks[k]): k for k in order}
                for future in as_completed(futures):
                    k = futures[future]
                    try:
                        results[k] = future.result()
                    except Exception as error:  # a process that died: that pair failed, the rest stand
                        spec = tasks[k].spec
                        results[k] = {"name": spec.name, "pred": spec.pred, "gold": spec.gold,
                                      "run": tasks[k].run, "status": UNREADABLE,
                                      "error": f"scoring failed: {excerpt(str(error) or type(error).__name__)}"}
                    done += sizes[k]
                    progress.update(done, total)
    finally:
        progress.done()
    return results  # type: ignore[return-value]


def _size(path: str | None) -> int:
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


# --------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------


def _text(report: dict[str, Any], strict: bool) -> str:
    if "systems" in report:
        return _systems_text(report)
    pairs, averages = report["pairs"], report["averages"]
    shared_task = report["shared_task"]
    headers = ["Treebank"] + list(TABLE_METRICS) + ["Note"]
    rows = []
    for p in pairs:
        if p["status"] == SCORED:
            zero = shared_task and p["refused"]
            # From the counts (the JSON's figures are rounded already): rounded once, here.
            row = [excerpt(p["name"])] + [percent(pair_f1(p, m, shared_task)) for m in TABLE_METRICS]
            row.append("refused by the official scorer" + (": counts as 0" if zero else " (scored)")
                       if p["refused"] else "")
        else:
            row = [excerpt(p["name"])] + [percent(0.0)] * len(TABLE_METRICS)
            row.append("missing: counts as 0" if p["status"] == MISSING else "cannot be read: counts as 0")
        rows.append(row)
    n, scored = averages["treebanks"], averages["scored"]
    rows.append([f"Macro-average ({n})"] + [percent(macro_f1(pairs, m, shared_task)) for m in TABLE_METRICS]
                + ["over every gold treebank"])
    rows.append([f"Micro-average ({scored})"] + [percent(micro_f1(pairs, m, shared_task)) for m in TABLE_METRICS]
                + ["over the words of the pairs scored"])
    lines = ["F1 per treebank:", render_table(headers, rows, "l" + "r" * len(TABLE_METRICS) + "l"), ""]
    if averages["missing"]:
        lines.append(f"Missing pairs (no prediction; 0 in the macro-average, as in the CoNLL 2018 shared task): "
                     f"{', '.join(map(excerpt, averages['missing']))}")
    for p in pairs:
        if p["status"] == UNREADABLE:
            lines.append(f"Cannot be read ({excerpt(p['name'])}; 0 in the macro-average): {p['error']}")
    if averages["refused"]:
        lines.append(f"The official scorer would refuse {', '.join(map(excerpt, averages['refused']))}: "
                     + ("0 in the averages (--shared-task)" if shared_task
                        else "scored anyway; --shared-task gives them 0 as the official ranking did"))
    if report["unpaired_predictions"]:
        names = report["unpaired_predictions"]
        lines.append(f"Predictions that pair with no gold file (left out): "
                     f"{', '.join(excerpt(os.path.basename(n)) for n in names[:10])}"
                     + (f" and {len(names) - 10} more" if len(names) > 10 else ""))
    if "pooled" in report:
        lines += ["", "Pooled over the scored pairs:", breakdown_text(report["pooled"], rows=BREAKDOWN_ROWS)]
    if lines[-1]:
        if lines[-1]:
            lines.append("")
    lines.append(f"Signature: {report['signature']['text']}")
    return "\n".join(lines)


def _tail(path: str, limit: int = 60) -> str:
    """A run's path, its end kept when it is long (the end tells runs apart)."""
    shown = printable(path)
    return shown if len(shown) <= limit else "…" + shown[-(limit - 1):]


def _spread_cell(s: dict) -> str:
    if s["mean"] is None:
        return ""
    if s["runs"] == 1:
        return percent(s["mean"])
    return f"{percent(s['mean'])} ± {percent(s['sd'])} ({percent(s['min'])}-{percent(s['max'])})"


def _systems_text(report: dict[str, Any]) -> str:
    lines = []
    for name, system in report["systems"].items():
        summary = system["summary"]
        runs = summary["runs"]
        lines.append(f"System {excerpt(name)}: {runs} run{'s' if runs != 1 else ''}; F1 "
                     + ("mean ± sd (min-max)" if runs > 1 else "(one run: no spread)"))
        rows = [[excerpt(tb)] + [_spread_cell(per[m]) for m in SEED_METRICS]
                for tb, per in summary["treebanks"].items()]
        rows.append(["Macro-average"] + [_spread_cell(summary["macro"][m]) for m in SEED_METRICS])
        rows.append(["Micro-average"] + [_spread_cell(summary["micro"][m]) for m in SEED_METRICS])
        lines += [render_table(["Treebank"] + list(SEED_METRICS), rows), ""]
        for run in system["runs"]:
            averages = run["averages"]
            notes = []
            if averages["missing"]:
                notes.append(f"missing {', '.join(map(excerpt, averages['missing']))} (0)")
            if averages["unreadable"]:
                notes.append(f"cannot be read {', '.join(map(excerpt, averages['unreadable']))} (0)")
            if averages["refused"]:
                notes.append(f"refused by the official scorer {', '.join(map(excerpt, averages['refused']))}")
            if notes:
                lines.append(f"  {_tail(run['run'] or '')}: " + "; ".join(notes))
        if lines[-1]:
            lines.append("")
    lines.append(f"Signature: {report['signature']['text']}")
    return "\n".join(lines)
