"""The core guards, on pairs made from a seed: they run in every clone.

The counts are only right if every lane counts alike and all equal the
official scorer.  These tests hold, on generated pairs with everything the
metrics look at (tests/support/pair_maker.py: multiword tokens, empty nodes, DEPS,
language-specific features, functional children with features of their
own, subtype-only relation changes, tokenization changes, merged
sentences), each of:

- the official scorer (udtools' conll18_ud_eval.py, always installed with
  the test extra) as oracle, raw counts;
- the bulk lane against the ordinary one, and the ordinary one's
  same-tokens counting against word-by-word alignment (details on);
- the engine's totals against `evaluate`'s (each ``sentences`` mode);
- incremental rescoring, with calls racing, against a fresh engine;
- scoring in parts (two processes and more) against one process, for
  `evaluate` and for the engine's first pass.

Each was checked by breaking what it guards (see the note on issue 14 for
which mutation each one catches).
"""

from __future__ import annotations

import pytest

from tests.support.data import official_counts
from tests.support.incremental import TEXT_EDITS, race_and_compare
from tests.support.pair_maker import make_pair
from annoscore.scorer.conllu.counts import METRICS
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.conllu.handler import results_of

SEEDS = [3, 4]


@pytest.fixture(scope="module", params=SEEDS)
def pair(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"pair{request.param}")
    pred, gold = make_pair(folder, request.param, 300, drop=0)
    return folder, pred, gold


def raw(result) -> dict:
    return {name: (s.correct, s.gold_total, s.system_total, s.aligned_total)
            for name in METRICS for s in [result.counts.score(name)]}


def test_the_official_scorer_counts_as_we_do(pair):
    _, pred, gold = pair
    ours = raw(evaluate_files(pred, gold))
    theirs = {name: tuple(values) for name, values in official_counts(gold, pred).items()}
    assert ours == theirs
    # The pair has what each metric family looks at.
    assert ours["MLAS"][0] < ours["CLAS"][0] < ours["CLAS"][1]
    assert ours["ELAS"][1] > ours["Words"][1] and ours["ELAS"][0] < ours["ELAS"][1]
    assert ours["Tokens"][0] < ours["Tokens"][1] and ours["Sentences"][0] < ours["Sentences"][1]


def test_the_bulk_lane_the_ordinary_lane_and_word_by_word_agree(pair):
    _, pred, gold = pair
    bulk = evaluate_files(pred, gold)
    ordinary = evaluate_files(pred, gold, bulk=False)
    word_by_word = evaluate_files(pred, gold, ConlluOptions(calibration=True))  # details: every pair aligned
    assert bulk.counts == ordinary.counts == word_by_word.counts
    assert (bulk.missing.count, bulk.unmatched.count) == (ordinary.missing.count, ordinary.unmatched.count)


@pytest.mark.parametrize("sentences", ["all", "predicted", "annotated"])
def test_the_engine_counts_as_evaluate_does(pair, sentences):
    folder, pred, gold = pair
    engine = Engine(str(folder), Settings(sentences=sentences))
    engine.open(str(pred), str(pred), pred.read_text(encoding="utf-8"), 1)
    engine.rescore(str(pred))
    expected = evaluate_files(pred, gold, ConlluOptions(predicted_only=sentences == "predicted",
                                                         annotated_only=sentences == "annotated"))
    assert results_of(engine.documents[str(pred)]).score.totals == expected.counts


def test_incremental_rescoring_with_racing_calls_equals_a_fresh_engine(tmp_path):
    pred, _ = make_pair(tmp_path, 5, 60, drop=0)
    edits, compared = race_and_compare(tmp_path, pred.read_text(encoding="utf-8"), TEXT_EDITS, 120, 5)
    assert edits > 40 and compared > 5


def test_evaluate_in_parts_equals_one_process(pair):
    from annoscore.server.parallel import evaluate_in_parallel
    _, pred, gold = pair
    one = evaluate_files(pred, gold)
    for jobs in (2, 3):
        parts = evaluate_in_parallel(str(pred), str(gold), ConlluOptions(), jobs, min_bytes=0, min_part_bytes=0)
        assert parts is not None and parts.counts == one.counts, jobs


def test_the_engines_first_pass_in_two_processes_equals_one(pair, monkeypatch):
    import annoscore.server.engine.conllu.parts as parts
    folder, pred, gold = pair
    logs: list[str] = []
    totals = {}
    for split in (True, False):
        monkeypatch.setattr(parts, "MIN_SENTENCES", 10 if split else 10**9)
        engine = Engine(str(folder), Settings(), log=logs.append)
        engine.open(str(pred), str(pred), pred.read_text(encoding="utf-8"), 1)
        engine.rescore(str(pred))
        totals[split] = results_of(engine.documents[str(pred)]).score.totals
    assert totals[True] == totals[False]
    assert any("first pass in two processes" in m for m in logs), logs  # (it did split)
