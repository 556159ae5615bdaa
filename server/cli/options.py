"""Command-line options that only some formats understand.

``annoscore evaluate`` has one parser for every format; the runners of the
formats that do not use an option refuse it (exit 2) rather than ignore it,
so that nobody believes a number was computed with an option it never saw.
"""

from __future__ import annotations

import argparse

from scorer.excerpt import excerpt

from .errors import UsageError

# attribute -> how it is spelled on the command line
CONLLU_ONLY = {"strict": "--strict", "predicted_only": "--predicted-only",
               "annotated_only": "--annotated-only", "calibration": "--calibration",
               "threshold": "--threshold", "official": "--official", "jobs": "--jobs"}


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
