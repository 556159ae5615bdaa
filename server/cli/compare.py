"""``annoscore compare A B``: McNemar's exact test on two saved outcome lists.

Reads only the two lists written by ``annoscore evaluate ... --save-errors``
(no model, no second look at the test set), refuses lists that do not
describe the same gold items, and prints the 2x2 table, the exact p-value and
one plain sentence.

With ``--gold``, A and B are CoNLL-U predictions (or folders of them) and
`compare_systems` tests them against gold (bootstrap, permutation or
McNemar); this module only hands over.
"""

from __future__ import annotations

import argparse
import json
import sys

from annoscore.scorer.comparison import Comparison, IncomparableLists, compare_outcomes, format_p
from annoscore.scorer.outcomes import OutcomeList, OutcomeListError
from annoscore.scorer.report import Signature, file_sha256, percent, render_table

from .errors import InputError, UsageError
from .inputs import InputFile, check_input_file, read_once
from .commands import SUMMARIES


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help=SUMMARIES["compare"],
        description="Compare two per-item right/wrong lists saved with `annoscore evaluate ... "
                    "--save-errors FILE` against the same gold file (McNemar's exact test); or, with "
                    "--gold, two CoNLL-U predictions (or folders of them) against gold, with sentences "
                    "as the unit: paired bootstrap, approximate randomization or McNemar.")
    p.add_argument("a", metavar="A", help="the list of system A (or its prediction, or a folder of them, with --gold)")
    p.add_argument("b", metavar="B", help="the list of system B (or its prediction, or a folder of them, with --gold)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level (default 0.05)")
    g = p.add_argument_group("two predictions against gold (--gold)")
    g.add_argument("--gold", metavar="GOLD", help="the gold file (or folder of gold files) both predictions are for")
    g.add_argument("--metric", action="append", metavar="M",
                   help="the metric to test (repeat, or separate with commas; default LAS)")
    g.add_argument("--test", choices=("bootstrap", "permutation", "mcnemar"), default=None,
                   help="paired bootstrap (default), approximate randomization, or McNemar's exact test "
                        "on per-word right/wrong")
    g.add_argument("--samples", type=int, default=None, metavar="N",
                   help="bootstrap or permutation samples (default 10000)")
    g.add_argument("--seed", type=int, default=None, metavar="S", help="the random seed (default 12345)")
    g.add_argument("--strict", action="store_true", help="allow UFeatsAll, AllTagsAll and LASFull")
    g.add_argument("--predicted-only", action="store_true",
                   help="ignore gold sentences missing from a prediction")
    g.add_argument("--split", default="test", metavar="SPLIT",
                   help="with folders: the split of UD-named gold files (default test), as in evaluate")
    g.add_argument("--jobs", type=int, metavar="N", help="processes for folders (default: one per core)")
    p.set_defaults(run=run)


def _load(list_file: InputFile, role: str) -> OutcomeList:
    check_input_file(list_file.path, role, list_file.name)
    try:
        return OutcomeList.load(list_file.path)
    except OutcomeListError as error:
        raise InputError(list_file.shown(str(error))) from None


def comparison_json(c: Comparison, a: OutcomeList, b: OutcomeList, alpha: float,
                    signature: Signature) -> dict:
    return {
        "both_right": c.both_right,
        "both_wrong": c.both_wrong,
        "only_a_wrong": c.only_a_wrong,
        "only_b_wrong": c.only_b_wrong,
        "p_value": c.p_value,
        "significant": c.significant(alpha),
        "alpha": alpha,
        "compared": c.compared,
        "not_scored": c.not_scored,
        "scored_in_one_list_only": {"a": c.only_a_scored, "b": c.only_b_scored},
        "accuracy": {"a": c.accuracy_a(), "b": c.accuracy_b()},
        "format": a.format,
        "metric": a.metric,
        "gold": {"path": a.gold_path, "sha256": a.gold_sha256},
        "a": {"list": signature.files["a"]["path"], "system": a.system_path, "system_sha256": a.system_sha256},
        "b": {"list": signature.files["b"]["path"], "system": b.system_path, "system_sha256": b.system_sha256},
        "signature": signature.as_dict(),
    }


def comparison_text(c: Comparison, a: OutcomeList, b: OutcomeList, alpha: float,
                    signature: Signature) -> str:
    table = render_table(["", "B right", "B wrong"], [
        ["A right", f"{c.both_right} (both right)", f"{c.only_b_wrong} (only B wrong, c)"],
        ["A wrong", f"{c.only_a_wrong} (only A wrong, b)", f"{c.both_wrong} (both wrong)"],
    ])
    lines = [f"A: {a.system_path}", f"B: {b.system_path}",
             f"Gold: {a.gold_path} ({a.format}, {a.metric}, {c.compared} items compared)", "", table, ""]
    if c.compared:
        lines.append(f"{a.metric}: A {percent(c.accuracy_a())}, B {percent(c.accuracy_b())} on these items.")
    lines.append(f"McNemar's exact test: {format_p(c.p_value)} (b + c = {c.only_a_wrong + c.only_b_wrong}).")
    lines.append(c.verdict(alpha))
    if c.not_scored:
        lines.append(f"Skipped {c.not_scored} items neither list scores.")
    if c.only_a_scored or c.only_b_scored:
        lines.append(f"Left out {c.only_a_scored + c.only_b_scored} items only one list scores "
                     f"(scored in A only: {c.only_a_scored}, in B only: {c.only_b_scored}).")
    if a.system_sha256 == b.system_sha256:
        lines.append("Note: both lists are for the same prediction file.")
    lines += ["", f"Signature: {signature}"]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if not 0.0 < args.alpha < 1.0:
        raise UsageError(f"--alpha must be between 0 and 1, not {args.alpha}")
    if args.gold is not None:
        from . import compare_systems
        return compare_systems.run(args)
    for flag, given in (("--metric", args.metric), ("--test", args.test), ("--samples", args.samples is not None),
                        ("--seed", args.seed is not None), ("--strict", args.strict),
                        ("--predicted-only", args.predicted_only), ("--split", args.split != "test"),
                        ("--jobs", args.jobs is not None)):
        if given:
            raise UsageError(f"{flag} applies to predictions compared against --gold GOLD, not to saved lists")
    with read_once([args.a, args.b]) as (list_a, list_b):  # a FIFO is read once
        a = _load(list_a, "list A")
        b = _load(list_b, "list B")
        hashes = file_sha256(list_a.path), file_sha256(list_b.path)
    try:
        comparison = compare_outcomes(a, b)
    except IncomparableLists as error:
        raise InputError(f"{args.a} and {args.b} cannot be compared: {error}") from None
    signature = Signature(a.format, {"metric": a.metric, "alpha": args.alpha})
    signature.add_file("a", list_a.name, hashes[0])
    signature.add_file("b", list_b.name, hashes[1])
    signature.files["gold"] = {"path": a.gold_path, "sha256": a.gold_sha256}
    if args.json:
        json.dump(comparison_json(comparison, a, b, args.alpha, signature), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(comparison_text(comparison, a, b, args.alpha, signature))
    return 0
