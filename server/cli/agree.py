"""``annoscore agree A B [C …]``: how far two or more annotations of one text agree.

`scorer.agreement` does the work; this module reads the command line,
reads the files (in a process each when they are large, as ``evaluate``
scores in parts), and prints the tables, the JSON or the places.
Exit status 0; 1 when an input cannot be used (missing, not CoNLL-U text,
no sentence in common); 2 for a wrong command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from annoscore.scorer.agreement.annotation import Annotation, read_annotation
from annoscore.scorer.agreement.bootstrap import BLOCK_SAMPLES, DEFAULT_SAMPLES, DEFAULT_SEED, blocks_of, joined, resampled
from annoscore.scorer.agreement.compare import BY, compare
from annoscore.scorer.agreement.variables import UNITS
from annoscore.scorer.conllu.reader import BinaryFileError
from annoscore.scorer.excerpt import excerpt

from ..processes import default_jobs
from .errors import InputError, UsageError
from .inputs import check_input_file, read_once
from .commands import SUMMARIES

NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PARALLEL_BYTES = 1 << 20   # files smaller than this are read in this process
CONFUSIONS = 10
BY_DEFAULT = ("upos", "deprel")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "agree", help=SUMMARIES["agree"],
        description="How far annotations A, B, ... of the same text agree: per column and feature, observed "
                    "agreement, Cohen's kappa (two annotations), Fleiss' kappa and Krippendorff's alpha "
                    "(nominal, missing values allowed), each with a bootstrap 95%% interval over sentences; "
                    "attachment agreement as the CoNLL 2018 F1; agreement per relation and UPOS; the most "
                    "frequent confusions; the places to adjudicate (--places). Sentences are matched by "
                    "sent_id, words aligned as evaluate aligns them.")
    p.add_argument("files", metavar="FILE", nargs="*", help="the annotations (CoNLL-U), two or more")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument("--places", action="store_true",
                   help="list every cell the annotations differ on (file, line, sent_id, word, column, each "
                        "annotation's value); with --json, in the JSON")
    p.add_argument("--by", action="append", metavar="KIND",
                   help=f"agreement per category: {', '.join(BY)} (repeat, or separate with commas; default "
                        f"{' and '.join(BY_DEFAULT)})")
    p.add_argument("--unit", choices=UNITS, default="cell",
                   help="what an item is: cell (each column and feature a variable; default), word (a word's "
                        "cells all at once), sentence (a sentence's column at once)")
    p.add_argument("--samples", type=int, metavar="N",
                   help=f"bootstrap resamples for the 95%% intervals (default {DEFAULT_SAMPLES}; 0: no intervals)")
    p.add_argument("--seed", type=int, metavar="S", help=f"the bootstrap's seed (default {DEFAULT_SEED})")
    p.add_argument("--confusions", type=int, metavar="N",
                   help=f"the N most frequent confusions of UPOS and DEPREL (default {CONFUSIONS}; 0: none)")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="processes to read large files and resample in (default: one per core to read, one to "
                        "resample, which measured faster on two cores; the numbers are the same)")
    p.set_defaults(run=run)


def _by(args: argparse.Namespace) -> tuple[str, ...]:
    if not args.by:
        return BY_DEFAULT
    kinds: list[str] = []
    for value in args.by:
        for kind in value.split(","):
            kind = kind.strip()
            if kind not in BY:
                raise UsageError(f"--by {excerpt(kind)}: use {', '.join(BY)}")
            if kind not in kinds:
                kinds.append(kind)
    return tuple(kinds)


def run(args: argparse.Namespace) -> int:
    if len(args.files) < 2:
        raise UsageError("give two annotations of the same text or more (annoscore agree A B [C …])")
    if len(args.files) > len(NAMES):
        raise UsageError(f"at most {len(NAMES)} annotations, not {len(args.files)}")
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    if samples < 0:
        raise UsageError(f"--samples must be 0 or more, not {samples}")
    seed = DEFAULT_SEED if args.seed is None else args.seed
    if seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {seed}")
    confusions = CONFUSIONS if args.confusions is None else args.confusions
    if confusions < 0:
        raise UsageError(f"--confusions must be 0 or more, not {confusions}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    by = _by(args)
    with read_once(list(args.files)) as inputs:
        for k, f in enumerate(inputs):
            check_input_file(f.path, f"annotation {NAMES[k]}", f.name)
        annotations = _read_all([(f.path, f.name) for f in inputs], args.jobs)
    common = _in_common(annotations)
    if not common:
        raise InputError("no sentence is in two of the annotations (sentences are matched by sent_id, or by "
                         "their text when they have none): nothing to compare")
    # Resampling in several processes cost more than it gained on two cores
    # (benchmarks/results/2026-12-02-agree.md): one unless asked for.
    jobs = args.jobs if args.jobs is not None else 1
    agreement = compare(annotations, args.unit, samples, seed, by, confusions,
                        resample=_in_processes(jobs) if jobs > 1 and samples >= 2 * BLOCK_SAMPLES else None)
    if args.json:
        from annoscore.scorer.agreement.report import agreement_json
        out = agreement_json(agreement, with_places=args.places)
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif args.places:
        from annoscore.scorer.agreement.report import places_text
        text = places_text(agreement)
        if text:
            print(text)
    else:
        from annoscore.scorer.agreement.report import agreement_text
        print(agreement_text(agreement))
    return 0


_SHARED: dict = {}  # the tallies, for the forked processes that resample them


def _resample_blocks(first: int, end: int, units: int, samples: int, seed: int):
    return resampled(_SHARED["tallies"], units, samples, seed, blocks=(first, end))


def _in_processes(jobs: int):
    """A `bootstrap.resampled` that shares the blocks of resamples out to
    ``jobs`` processes (forked, so the tallies are not copied); each block
    has its own generator, so the numbers are those of one process."""
    def resample(tallies, units: int, samples: int, seed: int):
        import multiprocessing
        blocks = blocks_of(samples)
        cuts = [round(k * blocks / jobs) for k in range(jobs + 1)]
        _SHARED["tallies"] = tallies
        try:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
                futures = [pool.submit(_resample_blocks, a, b, units, samples, seed)
                           for a, b in zip(cuts[1:-1], cuts[2:])]
                first = _resample_blocks(cuts[0], cuts[1], units, samples, seed)
                return joined([first] + [f.result() for f in futures])
        except BrokenProcessPool:
            raise InputError("a resampling process ended abruptly (out of memory?); try --jobs 1") from None
        finally:
            _SHARED.clear()
    return resample


def _read(path: str, name: str, label: str) -> Annotation:
    annotation = read_annotation(path, label)
    annotation.path = name
    return annotation


def _read_all(files: list[tuple[str, str]], jobs: int | None) -> list[Annotation]:
    """Read the files, large ones in processes of their own."""
    jobs = min(jobs if jobs is not None else default_jobs(), len(files))
    large = sum(_size(path) >= PARALLEL_BYTES for path, _ in files)
    try:
        if jobs > 1 and large > 1:
            import multiprocessing
            with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
                futures = [pool.submit(_read, path, name, NAMES[k]) for k, (path, name) in enumerate(files[1:], 1)]
                first = _read(files[0][0], files[0][1], NAMES[0])
                return [first] + [f.result() for f in futures]
        return [_read(path, name, NAMES[k]) for k, (path, name) in enumerate(files)]
    except BinaryFileError as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"{error.filename}: {error.strerror}") from None
    except BrokenProcessPool:
        raise InputError("a reading process ended abruptly (out of memory?); try --jobs 1") from None


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _in_common(annotations: list[Annotation]) -> bool:
    keys: dict[tuple, int] = {}
    for k, annotation in enumerate(annotations):
        for record in annotation.sentences:
            key = ("id", record.sent_id) if record.sent_id is not None else ("text", annotation.chars(record))
            seen = keys.get(key)
            if seen is not None and seen != k:
                return True
            keys[key] = k
    return False
