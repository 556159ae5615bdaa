"""Command-line options that only some formats understand.

``annoscore evaluate`` has one parser for every format; the runners of the
formats that do not use an option refuse it (exit 2) rather than ignore it,
so that nobody believes a number was computed with an option it never saw.
"""

from __future__ import annotations

import argparse
import sys

from annoscore.scorer.excerpt import excerpt

from annoscore.scorer.conllu.counts import METRICS, STRICT_METRICS
from annoscore.scorer.outcomes import OutcomeList

from .errors import InputError, UsageError

# attribute -> how it is spelled on the command line
CONLLU_ONLY = {"counts": "--counts", "strict": "--strict", "predicted_only": "--predicted-only",
               "annotated_only": "--annotated-only", "calibration": "--calibration",
               "threshold": "--threshold", "official": "--official", "jobs": "--jobs",
               "breakdown": "--breakdown", "confusions": "--confusions"}


def breakdown_kinds(args: argparse.Namespace) -> tuple[str, ...]:
    """The --breakdown kinds asked for (each once, in order); UsageError for an unknown one."""
    if not args.breakdown:
        return ()  # (the breakdown's module is loaded only when one is asked for)
    from annoscore.scorer.conllu.breakdown import BREAKDOWNS

    kinds: list[str] = []
    for value in args.breakdown or ():
        for kind in value.split(","):
            kind = kind.strip()
            if kind not in BREAKDOWNS:
                raise UsageError(f"--breakdown {excerpt(kind)}: use {', '.join(BREAKDOWNS)}")
            if kind not in kinds:
                kinds.append(kind)
    return tuple(kinds)


# The metrics --save-errors can write per item, by format (the runners check
# against these; the lists are here so that --help can name them).
CONLLU_SAVE_METRICS = ("Words",) + tuple(m for m in METRICS + STRICT_METRICS
                                         if m not in ("Tokens", "Sentences", "ELAS", "EULAS", "Words"))
SEGMENTATION_SAVE_METRICS = ("Word", "TaggedWord")
LABELS_SAVE_METRICS = ("Accuracy",)


def refuse_options(args: argparse.Namespace, fmt: str, names: dict[str, str]) -> None:
    """UsageError for the first option in ``names`` that was given."""
    for attribute, flag in names.items():
        value = getattr(args, attribute, None)
        if value not in (None, False):
            raise UsageError(f"{flag} applies to CoNLL-U, not to --format {fmt}")


def outcome_metric(args: argparse.Namespace, choices: tuple[str, ...], default: str) -> str | None:
    """The metric of --save-errors (None without it); --metric alone is a usage error."""
    if not args.save_errors:
        if args.metric:
            raise UsageError("--metric only applies with --save-errors")
        return None
    metric = args.metric or default
    if metric not in choices:
        raise UsageError(f"--metric {excerpt(metric)}: per-item lists exist for {', '.join(choices)}")
    return metric


def save_outcomes(outcomes: OutcomeList, path: str, items: str) -> None:
    """Write a --save-errors list, and say on stderr what was written
    (stdout stays the report, or the JSON)."""
    try:
        outcomes.save(path)
    except OSError as error:
        raise InputError(f"{path}: cannot write: {error.strerror}") from None
    marks = outcomes.outcomes
    right, wrong = marks.count("1"), marks.count("0")
    skipped = len(marks) - right - wrong
    print(f"annoscore evaluate: wrote {outcomes.metric} right/wrong for {len(marks)} gold {items} "
          f"({right} right, {wrong} wrong" + (f", {skipped} not scored" if skipped else "")
          + f") to {path}; `annoscore compare {path} OTHER` compares it with another system's list",
          file=sys.stderr)
