"""``annoscore split INPUT --out DIR``: train, dev and test files that cannot leak, and their report.

Writes ``DIR/train.EXT``, ``DIR/dev.EXT``, ``DIR/test.EXT`` (the input's
format and extension; no file for a ratio of 0) and ``DIR/split_report.json``
(`scorer.hygiene.split`).  The same input and seed give byte-identical
files.  A file already there with other content is replaced only with
``--overwrite`` (a split made before may be in use).  Exit status: 0
written; 1 when the input cannot be used (nothing is written); 2 for a
wrong command line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile

from annoscore.scorer import __version__
from annoscore.scorer.hygiene.splits import SPLITS
from annoscore.scorer.report import render_table

from . import hygiene_options as common
from .errors import InputError, UsageError
from annoscore.scorer.reading import open_file
from .commands import SUMMARIES

REPORT = "split_report.json"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "split", help=SUMMARIES["split"],
        description="Split INPUT into train, dev and test files in DIR: texts identical after normalization "
                    "and near-duplicates in one split, duplicates with conflicting labels dropped, "
                    "stratified by label with --by-label; byte-identical for the same input and seed.")
    p.add_argument("input", metavar="INPUT", help="a CoNLL-U, segmentation or labelled text file")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write the splits and the report to")
    p.add_argument("--ratios", default="0.8,0.1,0.1", metavar="R,R,R",
                   help="the shares of train, dev and test, adding up to 1 (default 0.8,0.1,0.1; 0: no file)")
    p.add_argument("--seed", type=int, default=42, help="the seed of the shuffle (default 42)")
    p.add_argument("--by-label", action="store_true", help="stratify by label (labelled text files)")
    p.add_argument("--group-by", choices=["newdoc"],
                   help="newdoc: the sentences of a CoNLL-U document (# newdoc) stay in one split")
    p.add_argument("--overwrite", action="store_true", help="replace split files in DIR that differ")
    p.add_argument("--json", action="store_true", help="print the report instead of the summary")
    common.add_rule_arguments(p)
    common.add_reading_arguments(p)
    p.set_defaults(run=run)


def _ratios(text: str) -> tuple[float, float, float]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"--ratios {text!r}: three numbers separated by commas, e.g. 0.8,0.1,0.1") from None
    if len(values) != 3 or any(not 0 <= v <= 1 for v in values) or abs(sum(values) - 1) > 1e-6:
        raise UsageError(f"--ratios {text!r}: three shares between 0 and 1 (train, dev, test) adding up to 1")
    if values[0] == 0:
        raise UsageError("--ratios: train needs a share above 0")
    return values[0], values[1], values[2]


def _write(path: str, text: str) -> None:
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(prefix=".split-", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n", errors="surrogateescape") as f:
            f.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def run(args: argparse.Namespace) -> int:
    from annoscore.scorer.hygiene.split import SplitOptions, make_split, split_report, split_texts
    _, settings = common.project("split")
    ratios = _ratios(args.ratios)
    normalization, near, min_words = common.rules(args, settings)
    items = common.read(args.input, common.read_options(args), "split")
    bad = common.errors(items)
    if bad:
        more = f" (and {len(bad) - 1} more problems)" if len(bad) > 1 else ""
        raise InputError(f"{bad[0].location(args.input)}: {bad[0].message}{more}; nothing was written")
    if not items.items:
        raise InputError(f"{args.input}: no {items.unit}s to split")
    if args.by_label and items.format != "labels":
        raise UsageError(f"--by-label needs labelled items (a labels or CSV file), not {items.format}")
    if args.group_by == "newdoc" and items.format != "conllu":
        raise UsageError(f"--group-by newdoc applies to CoNLL-U files (# newdoc), not {items.format}")
    options = SplitOptions(ratios, args.seed, args.by_label, args.group_by, min_words)
    result = make_split(items, normalization, near, options)
    texts = split_texts(items, result, options)

    extension = os.path.splitext(args.input)[1] or {"conllu": ".conllu", "space": ".txt"}.get(items.format, ".tsv")
    names = {split: f"{split}{extension}" for split in texts}
    outputs = {split: (names[split], hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest())
               for split, text in texts.items()}
    report = split_report(items, os.path.basename(args.input), result, normalization, near, options,
                          outputs, __version__)
    report_text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        raise InputError(f"{args.out}: cannot be made: {error.strerror or error}") from None
    planned = {os.path.join(args.out, names[s]): texts[s] for s in texts}
    planned[os.path.join(args.out, REPORT)] = report_text
    for path, text in planned.items():
        if os.path.exists(path) and not args.overwrite:
            with open_file(path) as f:
                if f.read() != text.encode("utf-8", "surrogateescape"):
                    raise UsageError(f"{path} exists with other content (a split made before, perhaps in use): "
                                     "give --overwrite to replace it, or another --out")
    try:
        for path, text in planned.items():
            _write(path, text)
    except OSError as error:
        raise InputError(f"{args.out}: cannot write: {error.strerror or error}") from None

    if args.json:
        sys.stdout.write(report_text)
        return 0
    unit = items.unit
    rows = []
    for split in SPLITS:
        entry = report["splits"][split]
        n = entry[f"{unit}s"]
        share = f"{100 * n / max(1, sum(report['splits'][s][f'{unit}s'] for s in SPLITS)):.1f}%"
        row = [split, names.get(split, "(none)"), f"{n:,}", share]
        if items.format == "conllu":
            row.append(f"{entry['words']:,}")
        rows.append(row)
    headers = ["Split", "File", f"{unit.capitalize()}s", "Share"] + (["Words"] if items.format == "conllu" else [])
    print(f"{args.input}: {len(items.items):,} {unit}s, seed {args.seed}, ratios {args.ratios}"
          + (", by label" if args.by_label else "") + (", documents kept whole" if args.group_by else ""))
    print(render_table(headers, rows))
    dropped = report["dropped"]["conflicting_duplicates"]
    if dropped[f"{unit}s"]:
        texts = f"{dropped['texts']:,} text" + ("s" if dropped["texts"] != 1 else "")
        print(f"Dropped {dropped[f'{unit}s']:,} {unit}s: {texts} with conflicting "
              f"{'labels' if items.format == 'labels' else 'annotations'} (listed in {REPORT}).")
    groups = report["groups"]
    joined = ", ".join(f"{n:,} by {rule}" for rule, n in groups["joined_by"].items())
    print(f"Kept together: {groups['count']:,} groups, the largest of {groups['largest']:,} {unit}s"
          + (f" (joined: {joined})" if joined else "") + ".")
    if args.by_label:
        worst = max((abs(v[s]["items"] - v[s]["ideal"]), label, s) for label, v in report["per_label"].items()
                    for s in SPLITS)
        print(f"Stratified: every label within {worst[0]:.2f} {unit}s of its ideal share in every split.")
    print(f"Wrote {', '.join(os.path.join(args.out, n) for n in names.values())} and "
          f"{os.path.join(args.out, REPORT)}.")
    return 0
