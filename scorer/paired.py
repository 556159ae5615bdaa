"""Two systems' CoNLL-U predictions against the same gold: is the difference real?

`compare_treebanks` scores both predictions of every treebank against its
gold, exactly as evaluate does (`score_side`, one prediction at a time, so
that a caller can run them in processes), and tests the difference of each
metric:

- ``bootstrap`` and ``permutation`` (approximate randomization) resample
  units, sentences in the usual case (see `scorer.significance`), with the
  F1 of each sample computed from summed counts; over several treebanks
  the statistic is the difference of the macro-averages and units are
  resampled within each treebank;
- ``mcnemar`` is McNemar's exact test on per-word right/wrong (the lists
  ``evaluate --save-errors`` writes, made here in memory); over several
  treebanks the disagreements of all words are pooled (a micro test).

The result is plain data, the same as ``annoscore compare … --json``.
Treebanks that one of the systems has no prediction for are left out of
the test and listed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from .batch import PairSpec
from .comparison import compare_outcomes
from .conllu.counts import Counts
from .conllu.evaluate import ConlluOptions, evaluate_files, unreadable_message
from .conllu.reader import BinaryFileError
from .outcomes import OutcomeList
from .report import Signature, proportion
from .significance import (
    DEFAULT_SAMPLES, DEFAULT_SEED, PairedUnits, TestResult, approximate_randomization, paired_bootstrap,
    pair_units,
)
from .stats import mcnemar_exact

TESTS = ("bootstrap", "permutation", "mcnemar")


class UnreadableInput(ValueError):
    """A prediction or gold file that cannot be read (the message says which and why)."""


@dataclass(frozen=True)
class TreebankPair:
    """One treebank: gold, and both systems' predictions of it."""

    name: str
    gold: str
    a: str
    b: str


@dataclass(frozen=True)
class SideTask:
    """One system's prediction of one treebank, to score (picklable)."""

    system: str
    gold: str
    options: ConlluOptions
    test: str
    metrics: tuple[str, ...]


def score_side(task: SideTask) -> dict[str, Any]:
    """One prediction scored against gold: its counts, the SHA-256s, and
    what the test needs (per-unit counts, or per-word right/wrong for each
    metric, as ``--save-errors`` writes them).  A plain function of
    picklable arguments, so both systems and all treebanks can be scored in
    other processes; a file that cannot be read comes back as ``error``."""
    out: dict[str, Any] = {}
    try:
        if task.test == "mcnemar":
            out["outcomes"] = {}
            for metric in task.metrics:
                result = evaluate_files(task.system, task.gold, replace(task.options, outcome_metric=metric))
                out["outcomes"][metric] = OutcomeList.from_bools(result.outcomes or [], format="conllu",
                                                                 metric=metric, gold_path=task.gold,
                                                                 gold_sha256=result.gold_sha256 or "",
                                                                 system_path=task.system,
                                                                 system_sha256=result.system_sha256 or "")
        else:
            result = evaluate_files(task.system, task.gold, replace(task.options, units=True))
            out["units"] = result.units or []
    except BinaryFileError as error:  # as text: an exception of its kind does not survive pickling
        return {"error": str(error)}
    except (OSError, UnicodeDecodeError) as error:
        return {"error": f"{getattr(error, 'filename', None) or task.system}: "
                         f"{getattr(error, 'strerror', None) or error}"}
    unreadable = result.unreadable_file()
    if unreadable is not None:  # text that is not CoNLL-U: nothing to compare
        side, problem = unreadable
        return {"error": unreadable_message(task.system if side == "system" else task.gold, problem)}
    out.update(counts=result.counts.values, sha256=result.system_sha256, gold_sha256=result.gold_sha256,
               refused=result.official_would_refuse)
    return out


def _treebank(tb: TreebankPair, a: dict[str, Any], b: dict[str, Any], test: str,
              metrics: Sequence[str]) -> dict[str, Any]:
    """Both sides of a treebank put together: what the test needs."""
    out: dict[str, Any] = {"name": tb.name, "gold": tb.gold, "a": tb.a, "b": tb.b,
                           "counts": (a["counts"], b["counts"]),
                           "sha256": {"a": a["sha256"], "b": b["sha256"], "gold": a["gold_sha256"]},
                           "refused": {"a": a["refused"], "b": b["refused"]}}
    if test == "mcnemar":
        out["mcnemar"] = {}
        for metric in metrics:
            c = compare_outcomes(a["outcomes"][metric], b["outcomes"][metric])
            out["mcnemar"][metric] = (c.both_right, c.both_wrong, c.only_a_wrong, c.only_b_wrong)
    else:
        out["units"] = pair_units(a["units"], b["units"], tb.name)
    return out


def treebank_pairs(a: Sequence[PairSpec], b: Sequence[PairSpec]) -> tuple[list[TreebankPair], list[str]]:
    """The treebanks both systems have a prediction for (by gold file), and
    the names of those left out."""
    b_by_gold = {spec.gold: spec for spec in b}
    pairs, left_out = [], []
    for spec in a:
        other = b_by_gold.get(spec.gold)
        if spec.pred is None or other is None or other.pred is None:
            left_out.append(spec.name)
        else:
            pairs.append(TreebankPair(spec.name, spec.gold, spec.pred, other.pred))
    golds = {spec.gold for spec in a}
    left_out += [spec.name for spec in b if spec.gold not in golds]
    return pairs, left_out


def compare_treebanks(treebanks: Sequence[TreebankPair], metrics: Sequence[str] = ("LAS",),
                      test: str = "bootstrap", samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                      options: ConlluOptions | None = None, alpha: float = 0.05,
                      mapper: Callable[..., Iterable[dict]] = map,
                      left_out: Sequence[str] = ()) -> dict[str, Any]:
    """Test the difference of each metric between systems A and B (see the
    module docstring); ``mapper`` runs `score_side` for each system and
    treebank (``map``, or a process pool's)."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r} (use {', '.join(TESTS)})")
    if not treebanks:
        raise ValueError("no treebank that both systems have a prediction for")
    options = options or ConlluOptions()
    tasks = [SideTask(system, tb.gold, options, test, tuple(metrics)) for tb in treebanks for system in (tb.a, tb.b)]
    sides = list(mapper(score_side, tasks))
    failed = [side["error"] for side in sides if "error" in side]
    if failed:
        raise UnreadableInput(failed[0] + (f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""))
    scored = [_treebank(tb, sides[2 * k], sides[2 * k + 1], test, metrics) for k, tb in enumerate(treebanks)]
    per_treebank = []
    for s in scored:
        ca, cb = Counts(list(s["counts"][0])), Counts(list(s["counts"][1]))
        entry: dict[str, Any] = {
            "name": s["name"], "gold": s["gold"], "a": s["a"], "b": s["b"], "sha256": s["sha256"],
            "official_would_refuse": s["refused"],
            "metrics": {m: {"a": proportion(ca.score(m).f1), "b": proportion(cb.score(m).f1),
                            "difference": proportion(ca.score(m).f1 - cb.score(m).f1)} for m in metrics},
        }
        if "units" in s:
            entry["units"] = s["units"].size
        per_treebank.append(entry)
    results: dict[str, Any] = {}
    if test == "mcnemar":
        for m in metrics:
            both_right, both_wrong, only_a, only_b = (sum(s["mcnemar"][m][i] for s in scored) for i in range(4))
            p = mcnemar_exact(only_a, only_b)
            compared = both_right + both_wrong + only_a + only_b
            results[m] = {"a_accuracy": proportion((both_right + only_b) / compared if compared else None),
                          "b_accuracy": proportion((both_right + only_a) / compared if compared else None),
                          "both_right": both_right, "both_wrong": both_wrong, "only_a_wrong": only_a,
                          "only_b_wrong": only_b, "p_value": p, "significant": p < alpha}
    else:
        units: list[PairedUnits] = [s["units"] for s in scored]
        run = paired_bootstrap if test == "bootstrap" else approximate_randomization
        for m, r in run(units, metrics, samples, seed).items():
            results[m] = _test_json(r, alpha)
    signature = compare_signature(test, metrics, samples, seed, options, alpha, scored)
    return {
        "test": test, "metrics": results, "averaged": "macro" if len(treebanks) > 1 else None,
        "samples": samples if test != "mcnemar" else None, "seed": seed if test != "mcnemar" else None,
        "alpha": alpha, "treebanks": per_treebank, "left_out": list(left_out),
        "signature": signature.as_dict(),
    }


def _test_json(r: TestResult, alpha: float) -> dict[str, Any]:
    out: dict[str, Any] = {"a": proportion(r.a), "b": proportion(r.b), "difference": proportion(r.difference),
                           "p_value": r.p_value, "significant": r.significant(alpha)}
    if r.ci95 is not None:
        out["ci95"] = [proportion(r.ci95[0]), proportion(r.ci95[1])]
    return out


def compare_signature(test: str, metrics: Sequence[str], samples: int, seed: int, options: ConlluOptions,
                      alpha: float, scored: Sequence[dict]) -> Signature:
    """The test, its samples and seed, the options, and the files."""
    values: dict[str, Any] = {"test": test}
    if test != "mcnemar":
        values.update(samples=samples, seed=seed)
    values.update(metric=",".join(metrics), alpha=alpha, strict=options.strict,
                  predicted_only=options.predicted_only, annotated_only=options.annotated_only)
    signature = Signature("conllu", values)
    if len(scored) == 1:
        s = scored[0]
        for role in ("a", "b", "gold"):
            signature.files[role] = {"path": s[role], "sha256": s["sha256"][role] or ""}
    else:
        digest = hashlib.sha256()
        for s in scored:
            digest.update("\t".join([s["name"]] + [s["sha256"][r] or "-" for r in ("a", "b", "gold")]).encode()
                          + b"\n")
        signature.options["treebanks"] = len(scored)
        signature.files["files"] = {"path": "", "sha256": digest.hexdigest()}
    return signature
