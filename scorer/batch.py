"""Many prediction/gold pairs at once: which files pair up, each pair scored,
and the averages over treebanks.

FilePairs a prediction folder with a gold folder (`pair_directories`), both
searched with their subfolders for ``*.conllu`` files:

1. Gold files named as UD names them, ``CODE-ud-SPLIT.conllu`` (e.g.
   ``en_ewt-ud-test.conllu``), are taken for one split only (``test`` by
   default; ``split="all"`` takes every one); other ``.conllu`` files are
   always gold.  A treebank is named by
   its CODE when one split is taken, else by the file's stem.
2. A prediction pairs with the gold file whose stem is its own stem
   (``en_ewt-ud-test.conllu``), or the start of it followed by ``.``, ``-`` or
   ``_`` and a system suffix (``en_ewt-ud-test.udpipe.conllu``); or, for a
   UD-named gold file, whose CODE is its stem or the start of it followed
   by ``.`` (``en_ewt.conllu``, ``en_ewt.UDPipe-Future.conllu``, as the CoNLL
   2018 shared task named outputs).  The longest match wins.
3. Two predictions for one gold file are an error (`PairingError`): give
   several runs of a system as seeds instead (``--system NAME=GLOB``).
   Predictions that match no gold file are listed and left out; gold
   files with no prediction are *missing pairs*.

A manifest (`read_manifest`) lists pairs for layouts that do not pair by
name: one pair a line, ``PRED GOLD [NAME]`` separated by tabs or spaces,
paths relative to the manifest's folder, ``#`` starting a comment.

Averages (`summarize`), as the CoNLL 2018 shared task ranked systems:

- the **macro-average** of a metric is the mean of each treebank's F1 over
  *every* gold treebank; a missing pair (or one that could not be read)
  counts as 0; with ``shared_task`` a pair the official scorer would refuse
  counts as 0 too (without it such a pair is scored and flagged);
- the **micro-average** is the F1 of the counts summed over the pairs that
  were scored (missing pairs have no predicted words to add; with
  ``shared_task`` a refused pair adds its gold and predicted words but no
  correct ones).

Several runs of one system (seeds) are summarized per treebank and for the
averages: the mean, the standard deviation (n − 1 in the denominator) and
the minimum and maximum over the runs (`summarize_runs`).

Pairs are scored by `score_pair`, a plain function of picklable arguments,
so that a caller can run them in other processes (the command line does,
and the API takes any ``map``-like function).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .conllu.counts import Counts, metric_columns
from .conllu.evaluate import ConlluOptions, evaluate_files, unreadable_message
from .conllu.reader import BinaryFileError
from .conllu.report import conllu_json, conllu_signature, metric_names, score_json
from .excerpt import excerpt
from .reading import SETTINGS_LIMIT, read_named
from .report import Signature, proportion

# The metrics of the per-treebank table (the JSON has all of them).
TABLE_METRICS = ("Tokens", "Words", "UPOS", "UFeats", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")
UD_NAME = re.compile(r"^(?P<code>[^-/\\]+)-ud-(?P<split>[A-Za-z]+)$")
EXTENSIONS = (".conllu",)
SCORED, MISSING, UNREADABLE = "scored", "missing", "unreadable"


class PairingError(ValueError):
    """Files that cannot be paired as asked (the message says which)."""


@dataclass(frozen=True)
class PairSpec:
    """One treebank: its gold file, and the prediction (None: missing)."""

    name: str
    gold: str
    pred: str | None


@dataclass
class FilePairs:
    pairs: list[PairSpec]
    unpaired_predictions: list[str] = field(default_factory=list)


def conllu_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The CoNLL-U files in a folder and its subfolders, in name order."""
    root = Path(folder)
    return sorted(p for p in root.rglob("*") if p.suffix in EXTENSIONS and p.is_file())


def _stem(path: Path) -> str:
    return path.name[: -len(path.suffix)]


def gold_treebanks(gold_dir: str | os.PathLike[str], split: str = "test") -> list[tuple[str, Path, str | None]]:
    """(name, path, UD code or None) of the gold files rule 1 takes."""
    out = []
    for path in conllu_files(gold_dir):
        match = UD_NAME.match(_stem(path))
        if match is None:
            out.append((_stem(path), path, None))
        elif split == "all" or match["split"] == split:
            out.append((match["code"] if split != "all" else _stem(path), path, match["code"]))
    names = [name for name, _, _ in out]
    if len(set(names)) < len(names):  # the same name in two subfolders: tell them apart by path
        root = Path(gold_dir)
        out = [(str(path.relative_to(root).with_suffix("")), path, code) for _, path, code in out]
    return sorted(out, key=lambda item: (item[0], str(item[1])))


def _match_length(pred_stem: str, gold_stem: str, code: str | None) -> int:
    """How well a prediction's stem names a gold file (rule 2): the length
    of the matched name, 0 for no match."""
    best = 0
    if pred_stem == gold_stem or (pred_stem.startswith(gold_stem) and pred_stem[len(gold_stem)] in ".-_"):
        best = len(gold_stem) + 1  # the full stem beats a code of the same length
    if code is not None and (pred_stem == code or pred_stem.startswith(code + ".")):
        best = max(best, len(code))
    return best


def pair_directories(pred_dir: str | os.PathLike[str], gold_dir: str | os.PathLike[str],
                     split: str = "test") -> FilePairs:
    """Pair the predictions in ``pred_dir`` with the gold files in
    ``gold_dir`` by name (the rules in the module docstring)."""
    golds = gold_treebanks(gold_dir, split)
    found: dict[int, list[Path]] = {}
    unpaired = []
    for pred in conllu_files(pred_dir):
        stem = _stem(pred)
        scores = [_match_length(stem, _stem(path), code) for _, path, code in golds]
        best = max(scores, default=0)
        if not best:
            unpaired.append(str(pred))
            continue
        found.setdefault(scores.index(best), []).append(pred)
    pairs = []
    for k, (name, path, _) in enumerate(golds):
        preds = found.get(k, [])
        if len(preds) > 1:
            shown = ", ".join(excerpt(p.name) for p in preds[:4]) + (" ..." if len(preds) > 4 else "")
            raise PairingError(f"{len(preds)} predictions pair with gold {path}: {shown}; give several runs "
                               f"of a system as --system NAME=GLOB")
        pairs.append(PairSpec(name, str(path), str(preds[0]) if preds else None))
    return FilePairs(pairs, unpaired)


def read_manifest(path: str | os.PathLike[str]) -> FilePairs:
    """The pairs a manifest lists (``PRED GOLD [NAME]`` per line), relative
    paths against the manifest's folder; against the working folder when the
    manifest is no regular file (``--manifest <(…)``: its folder is /dev/fd)."""
    base = Path(path).parent if os.path.isfile(path) else Path(".")
    pairs = []
    try:
        text = read_named(path, SETTINGS_LIMIT).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PairingError(f"{path}: cannot be read: {getattr(error, 'strerror', None) or error}") from None
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        fields = [f.strip() for f in fields if f.strip()]
        if len(fields) not in (2, 3):
            raise PairingError(f"{path}:{number}:1: a manifest line is PRED GOLD [NAME], "
                               f"not {excerpt(line)}")
        pred, gold = (str(base / f) for f in fields[:2])
        name = fields[2] if len(fields) == 3 else _stem(Path(gold))
        pairs.append(PairSpec(name, gold, pred if os.path.exists(pred) else None))
    if not pairs:
        raise PairingError(f"{path}: the manifest lists no pairs")
    return FilePairs(pairs)


# --------------------------------------------------------------------------
# Scoring pairs
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PairTask:
    """What `score_pair` needs (picklable, for other processes)."""

    spec: PairSpec
    options: ConlluOptions
    breakdown: tuple[str, ...] = ()
    confusions: int = 0
    run: str | None = None  # the system run (seed) it belongs to
    final: bool = False     # a final run on a declared test split: ``final:yes`` in its signature


def score_pair(task: PairTask) -> dict[str, Any]:
    """One pair scored exactly as one-pair evaluate scores it: its JSON
    (``result``, with its signature), and what the averages need."""
    spec = task.spec
    out: dict[str, Any] = {"name": spec.name, "pred": spec.pred, "gold": spec.gold, "run": task.run}
    if spec.pred is None:
        out["status"] = MISSING
        return out
    try:
        sink = None
        if task.breakdown or task.confusions:
            from .conllu.breakdown import BreakdownCollector
            sink = BreakdownCollector(task.breakdown, task.confusions)
        result = evaluate_files(spec.pred, spec.gold, task.options, detail_sink=sink)
    except BinaryFileError as error:
        out.update(status=UNREADABLE, error=str(error))
        return out
    except (OSError, UnicodeDecodeError) as error:
        out.update(status=UNREADABLE, error=f"{getattr(error, 'filename', None) or spec.pred}: "
                                        f"{getattr(error, 'strerror', None) or error}")
        return out
    unreadable = result.unreadable_file()
    if unreadable is not None:  # text that is not CoNLL-U: nothing to score
        side, problem = unreadable
        out.update(status=UNREADABLE, error=unreadable_message(spec.pred if side == "system" else spec.gold,
                                                               problem))
        return out
    signature = conllu_signature(spec.pred, spec.gold, task.options, result.system_sha256 or "",
                                 result.gold_sha256 or "")
    if task.final:
        signature.options["final"] = True
    json_result = conllu_json(result, signature)
    if sink is not None:
        json_result.update(sink.as_json())
        out["pooling"] = sink.as_json(every_confusion=True)  # for `merge_breakdowns`
    out.update(status=SCORED, refused=result.official_would_refuse, counts=result.counts.values,
               result=json_result)
    return out


# --------------------------------------------------------------------------
# Averages
# --------------------------------------------------------------------------


def counts_zero(pair: dict, shared_task: bool) -> bool:
    """Whether a pair counts as 0 in the macro-average."""
    return pair["status"] != SCORED or (shared_task and pair["refused"])


def pair_counts(pair: dict, metric: str) -> tuple[int, int, int]:
    """A scored pair's (correct, gold, system) counts of a metric, from its
    raw counts or, in a report read back, from its result's metrics."""
    if "counts" in pair:
        values = pair["counts"]
        return tuple(values[k] for k in metric_columns(metric))  # type: ignore[return-value]
    m = pair["result"]["metrics"][metric]
    return m["correct"], m["gold_total"], m["system_total"]


def _f1(correct: int, gold: int, system: int) -> float:
    return 2 * correct / (gold + system) if gold + system else 0.0


def pair_f1(pair: dict, metric: str, shared_task: bool) -> float:
    """A pair's F1 of a metric from its counts (0 when it counts as 0), unrounded."""
    if counts_zero(pair, shared_task):
        return 0.0
    return _f1(*pair_counts(pair, metric))


def micro_f1(pairs: Sequence[dict], metric: str, shared_task: bool) -> float:
    """The micro-average F1 of a metric from the pairs' counts, unrounded
    (a refused pair's correct counts as 0 with ``shared_task``)."""
    correct = gold = system = 0
    for p in pairs:
        if p["status"] != SCORED:
            continue
        c, g, s = pair_counts(p, metric)
        correct += 0 if shared_task and p["refused"] else c
        gold, system = gold + g, system + s
    return _f1(correct, gold, system)


def macro_f1(pairs: Sequence[dict], metric: str, shared_task: bool) -> float | None:
    """The macro-average of a metric, from the pairs' counts (unrounded)."""
    return sum(pair_f1(p, metric, shared_task) for p in pairs) / len(pairs) if pairs else None


def micro_counts(pairs: Sequence[dict], names: Sequence[str], shared_task: bool) -> Counts:
    """The counts of the scored pairs summed (the micro-average's)."""
    total = Counts()
    for p in pairs:
        if p["status"] != SCORED:
            continue
        counts = Counts(list(p["counts"]))
        if shared_task and p["refused"]:
            counts = _without_correct(counts, names)
        total += counts
    return total


def summarize(pairs: Sequence[dict], strict: bool = False, shared_task: bool = False) -> dict[str, Any]:
    """Macro- and micro-averages of scored pairs (see the module docstring)."""
    names = metric_names(strict)
    macro = {m: proportion(macro_f1(pairs, m, shared_task)) for m in names}
    total = micro_counts(pairs, names, shared_task)
    return {
        "treebanks": len(pairs),
        "scored": sum(p["status"] == SCORED for p in pairs),
        "missing": [p["name"] for p in pairs if p["status"] == MISSING],
        "unreadable": [p["name"] for p in pairs if p["status"] == UNREADABLE],
        "refused": [p["name"] for p in pairs if p["status"] == SCORED and p["refused"]],
        "macro": macro,
        "micro": {m: score_json(total.score(m)) for m in names},
    }


def _without_correct(counts: Counts, names: Sequence[str]) -> Counts:
    values = list(counts.values)
    for m in names:
        values[metric_columns(m)[0]] = 0
    return Counts(values)


def spread(values: Sequence[float]) -> dict[str, float | int | None]:
    """Mean, standard deviation (n - 1), minimum and maximum of some runs."""
    n = len(values)
    if not n:
        return {"runs": 0, "mean": None, "sd": None, "min": None, "max": None}
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else None
    return {"runs": n, "mean": proportion(mean), "sd": proportion(sd), "min": proportion(min(values)),
            "max": proportion(max(values))}


def summarize_runs(runs: Sequence[dict], strict: bool = False, shared_task: bool = False) -> dict[str, Any]:
    """One system's runs (each a `summarize` result with its ``pairs``):
    per treebank and for the averages, the spread of each metric's F1."""
    names = metric_names(strict)
    treebanks: dict[str, dict[str, list[float]]] = {}
    for run in runs:
        for p in run["pairs"]:
            per = treebanks.setdefault(p["name"], {m: [] for m in names})
            for m in names:
                per[m].append(pair_f1(p, m, shared_task))
    return {
        "runs": len(runs),
        "treebanks": {name: {m: spread(v) for m, v in per.items()} for name, per in treebanks.items()},
        # From each run's counts, not its rounded averages: rounded once, at the end.
        "macro": {m: spread([f for f in (macro_f1(run["pairs"], m, shared_task) for run in runs) if f is not None])
                  for m in names},
        "micro": {m: spread([micro_f1(run["pairs"], m, shared_task) for run in runs]) for m in names},
    }


def expand_runs(patterns: Sequence[str]) -> list[str]:
    """The files or folders a system's patterns name (globs expanded, in
    name order, each once)."""
    import glob

    out: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        for m in matches:
            m = m.rstrip("/\\") or m
            if m not in out:
                out.append(m)
    return out


def pair_run(run: str, gold: str, split: str = "test") -> FilePairs:
    """The pairs of one run of a system: a folder paired with a gold folder
    (`pair_directories`), or a file with a gold file (missing when the file
    does not exist)."""
    if os.path.isdir(gold):
        return pair_directories(run, gold, split)
    treebank = os.path.basename(gold).rsplit(".", 1)[0]
    return FilePairs([PairSpec(treebank, gold, run if os.path.exists(run) else None)])


# --------------------------------------------------------------------------
# The report (the JSON of ``evaluate PRED_DIR GOLD_DIR --json``)
# --------------------------------------------------------------------------

Run = tuple[str | None, str | None, FilePairs]  # (system name, run label, its pairs); None, None for one system


@dataclass(frozen=True)
class ManyOptions:
    """What the report of many pairs depends on, besides the pairs."""

    strict: bool = False
    predicted_only: bool = False
    annotated_only: bool = False
    split: str = "test"
    shared_task: bool = False
    confusions: int = 0
    pooled: bool = False  # pool the pairs' breakdowns


def _public(pair: dict) -> dict:
    """A pair's entry for the JSON (its raw counts are in its result)."""
    return {k: v for k, v in pair.items() if k not in ("counts", "pooling")}


def many_signature(options: ManyOptions, pairs: Sequence[dict]) -> Signature:
    """What the averages depend on: the options, and every pair's files
    (one SHA-256 over the pairs' names and both files' SHA-256)."""
    signature = Signature("conllu", {"strict": options.strict, "predicted_only": options.predicted_only,
                                     "annotated_only": options.annotated_only, "split": options.split,
                                     "shared_task": options.shared_task, "pairs": len(pairs)})
    digest = hashlib.sha256()
    for p in pairs:
        files = p.get("result", {}).get("signature", {}).get("files", {})
        digest.update("\t".join([p["name"], files.get("pred", {}).get("sha256", "-"),
                                 files.get("gold", {}).get("sha256", "-")]).encode() + b"\n")
    signature.files["files"] = {"path": "", "sha256": digest.hexdigest()}
    return signature


def many_report(runs: Sequence[Run], results: Sequence[dict], options: ManyOptions) -> dict[str, Any]:
    """The report of scored pairs (`score_pair` results, in the order of
    the runs' pairs): one system's pairs and averages, or each system's
    runs and their spread."""
    from .conllu.breakdown import merge_breakdowns

    by_run: list[list[dict]] = []
    k = 0
    for _, _, pairing in runs:
        by_run.append(list(results[k:k + len(pairing.pairs)]))
        k += len(pairing.pairs)
    strict, shared_task = options.strict, options.shared_task
    if runs[0][0] is None:  # one system: its pairs and averages
        pairs = by_run[0]
        out: dict[str, Any] = {
            "pairs": [_public(p) for p in pairs],
            "averages": summarize(pairs, strict, shared_task),
            "unpaired_predictions": runs[0][2].unpaired_predictions,
            "split": options.split,
            "shared_task": shared_task,
        }
        if options.pooled:
            out["pooled"] = merge_breakdowns([p["pooling"] for p in pairs if p["status"] == SCORED],
                                             options.confusions)
        out["signature"] = many_signature(options, pairs).as_dict()
        return out
    systems: dict[str, Any] = {}
    runs_of: dict[str, list[dict]] = {}  # per system: each run's averages, with its pairs as scored
    for (name, label, pairing), pairs in zip(runs, by_run):
        system = systems.setdefault(name, {"runs": []})
        averages = summarize(pairs, strict, shared_task)
        system["runs"].append({"run": label, "pairs": [_public(p) for p in pairs], "averages": averages,
                               "unpaired_predictions": pairing.unpaired_predictions})
        runs_of.setdefault(name, []).append(dict(averages, pairs=pairs))
    for name, system in systems.items():
        system["summary"] = summarize_runs(runs_of[name], strict, shared_task)
    return {"systems": systems, "split": options.split, "shared_task": shared_task,
            "signature": many_signature(options, results).as_dict()}
