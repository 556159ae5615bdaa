"""The Python API: the command line's results as plain data, for scripts and notebooks.

Each function returns what the matching command prints with ``--json``
(dicts, lists, numbers, strings; proportions in [0, 1], raw counts beside
them, a signature in every result)::

    from annoscore.scorer import evaluate_conllu, evaluate_many, evaluate_systems, compare_conllu

    evaluate_conllu("pred.conllu", "gold.conllu", breakdown=["deprel"], confusions=5)
    evaluate_many("pred/", "gold/")                      # evaluate pred/ gold/ --json
    evaluate_systems({"udpipe": ["s1/", "s2/"]}, "gold/")  # evaluate --system udpipe=... gold/
    compare_conllu("a.conllu", "b.conllu", "gold.conllu", metrics=["LAS", "MLAS"])

These names and their keyword arguments are stable.  Pairs run one after
another unless ``mapper`` is given: pass a process pool's ``map``
(``concurrent.futures.ProcessPoolExecutor().map``) to run them in
parallel, as the command line does.  Files that cannot be read raise
OSError (or `scorer.conllu.reader.BinaryFileError`) in the one-pair
functions; in the many-pair ones such a pair is reported with
``"status": "unreadable"`` (and its ``"error"``) and the rest is scored.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Mapping, Sequence

from .batch import (
    ManyOptions, PairTask, expand_runs, many_report, pair_directories, pair_run, read_manifest, score_pair,
)
from .conllu.evaluate import ConlluOptions, evaluate_files
from .conllu.report import conllu_json, conllu_signature
from .paired import TreebankPair, compare_treebanks, treebank_pairs
from .significance import DEFAULT_SAMPLES, DEFAULT_SEED

Mapper = Callable[..., Iterable[Any]]


def evaluate_conllu(pred: str | os.PathLike[str], gold: str | os.PathLike[str], *, strict: bool = False,
                    predicted_only: bool = False, annotated_only: bool = False,
                    breakdown: Sequence[str] = (), confusions: int = 0) -> dict[str, Any]:
    """Score one prediction against gold: ``annoscore evaluate PRED GOLD --json``
    (with ``--breakdown`` kinds from upos, deprel, feats, length, distance
    and ``--confusions N``)."""
    options = ConlluOptions(strict=strict, predicted_only=predicted_only, annotated_only=annotated_only)
    sink = None
    if breakdown or confusions:
        from .conllu.breakdown import BreakdownCollector
        sink = BreakdownCollector(tuple(breakdown), confusions)
    result = evaluate_files(pred, gold, options, detail_sink=sink)
    signature = conllu_signature(os.fspath(pred), os.fspath(gold), options, result.system_sha256 or "",
                                 result.gold_sha256 or "")
    out = conllu_json(result, signature)
    if sink is not None:
        out.update(sink.as_json())
    return out


def _many(runs: list, *, strict: bool, predicted_only: bool, annotated_only: bool, split: str,
          shared_task: bool, breakdown: Sequence[str], confusions: int, mapper: Mapper) -> dict[str, Any]:
    options = ConlluOptions(strict=strict, predicted_only=predicted_only, annotated_only=annotated_only)
    tasks = [PairTask(spec, options, tuple(breakdown), confusions, run=label)
             for _, label, pairing in runs for spec in pairing.pairs]
    results = list(mapper(score_pair, tasks))
    return many_report(runs, results, ManyOptions(strict, predicted_only, annotated_only, split, shared_task,
                                                  confusions, bool(breakdown or confusions)))


def evaluate_many(pred_dir: str | os.PathLike[str] | None = None, gold_dir: str | os.PathLike[str] | None = None,
                  *, manifest: str | os.PathLike[str] | None = None, split: str = "test",
                  shared_task: bool = False, strict: bool = False, predicted_only: bool = False,
                  annotated_only: bool = False, breakdown: Sequence[str] = (), confusions: int = 0,
                  mapper: Mapper = map) -> dict[str, Any]:
    """Score every pair of two folders (or a manifest's):
    ``annoscore evaluate PRED_DIR GOLD_DIR --json`` (or ``--manifest FILE``).
    Raises `scorer.batch.PairingError` when files cannot be paired."""
    if manifest is not None:
        pairing = read_manifest(manifest)
    elif pred_dir is not None and gold_dir is not None:
        pairing = pair_directories(pred_dir, gold_dir, split)
    else:
        raise ValueError("give pred_dir and gold_dir, or manifest")
    return _many([(None, None, pairing)], strict=strict, predicted_only=predicted_only,
                 annotated_only=annotated_only, split=split, shared_task=shared_task, breakdown=breakdown,
                 confusions=confusions, mapper=mapper)


def evaluate_systems(systems: Mapping[str, Sequence[str | os.PathLike[str]]], gold: str | os.PathLike[str], *,
                     split: str = "test", shared_task: bool = False, strict: bool = False,
                     predicted_only: bool = False, annotated_only: bool = False,
                     mapper: Mapper = map) -> dict[str, Any]:
    """Several runs (seeds) of each system: ``annoscore evaluate --system
    NAME=GLOB … GOLD --json``.  ``systems`` maps a name to its runs: files
    when ``gold`` is a file, folders when it is a folder (globs are
    expanded)."""
    runs = []
    gold = os.fspath(gold)
    for name, patterns in systems.items():
        for match in expand_runs([os.fspath(p) for p in patterns]):
            runs.append((name, match, pair_run(match, gold, split)))
    if not runs:
        raise ValueError("no runs given")
    return _many(runs, strict=strict, predicted_only=predicted_only, annotated_only=annotated_only, split=split,
                 shared_task=shared_task, breakdown=(), confusions=0, mapper=mapper)


def compare_conllu(a: str | os.PathLike[str], b: str | os.PathLike[str], gold: str | os.PathLike[str], *,
                   metrics: Sequence[str] = ("LAS",), test: str = "bootstrap", samples: int = DEFAULT_SAMPLES,
                   seed: int = DEFAULT_SEED, alpha: float = 0.05, strict: bool = False,
                   predicted_only: bool = False, split: str = "test", mapper: Mapper = map) -> dict[str, Any]:
    """Is the difference between A and B real?  ``annoscore compare A B --gold
    GOLD --json``: three files, or three folders (paired by name)."""
    a, b, gold = os.fspath(a), os.fspath(b), os.fspath(gold)
    left_out: list[str] = []
    if os.path.isdir(gold):
        treebanks, left_out = treebank_pairs(pair_directories(a, gold, split).pairs,
                                             pair_directories(b, gold, split).pairs)
    else:
        treebanks = [TreebankPair(os.path.basename(gold).rsplit(".", 1)[0], gold, a, b)]
    options = ConlluOptions(strict=strict, predicted_only=predicted_only)
    return compare_treebanks(treebanks, tuple(metrics), test, samples, seed, options, alpha, mapper=mapper,
                             left_out=left_out)
