"""Scoring in several processes gives exactly the one-process result, or declines."""

from __future__ import annotations

import json

import pytest

from conftest import mkpred, shared_path
from scorer.conllu.evaluate import ConlluOptions, evaluate_files
from server.cli import main
from server.parallel import evaluate_in_parallel, find_cuts


def summary(result):
    return (result.counts.values, result.gold_sentences, result.system_sentences,
            result.scored_gold_sentences, result.unparsed.count, result.refused.count,
            [(r.sent_id, r.line) for r in result.refused.items], result.outcomes,
            result.system_sha256, result.gold_sha256)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    pred = mkpred(gold, tmp_path_factory.mktemp("par") / "pred.conllu", 9,
                  "--tok-noise", "0.3", "--conf", "--refuse", "20", "--unparsed", "5")
    return str(pred), str(gold)


@pytest.mark.parametrize("jobs", [2, 3])
def test_parts_add_up_to_the_whole(pair, jobs):
    options = ConlluOptions(strict=True, outcome_metric="MLAS", calibration=True)
    parallel = evaluate_in_parallel(*pair, options, jobs, min_bytes=0)
    single = evaluate_files(*pair, options)
    assert parallel is not None
    assert summary(parallel) == summary(single)
    for a, b in zip(parallel.calibration.pooled(), single.calibration.pooled()):
        assert (a.cells, a.correct) == (b.cells, b.correct)
        assert a.confidence_sum == pytest.approx(b.confidence_sum)


def test_cuts_are_at_sentences_of_both_files(pair):
    cuts = find_cuts(*pair, 3)
    assert cuts is not None and len(cuts) == 2
    with open(pair[0], "rb") as system, open(pair[1], "rb") as gold:
        system_text, gold_text = system.read(), gold.read()
    for system_at, system_line, gold_at, gold_line in cuts:
        assert system_text[system_at - 2:system_at] == b"\n\n"
        assert gold_text[gold_at - 2:gold_at] == b"\n\n"
        assert system_text[:system_at].count(b"\n") == system_line
        assert gold_text[:gold_at].count(b"\n") == gold_line


def test_declines_when_sentences_are_missing(tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    pred = mkpred(gold, tmp_path / "pred.conllu", 2, "--drop", "0.2")
    assert evaluate_in_parallel(str(pred), str(gold), ConlluOptions(), 2, min_bytes=0) is None


def test_declines_without_common_sent_ids(tmp_path):
    folder = shared_path("data", "predicted", "conll2018")
    system, gold = folder / "pred" / "en_ewt.UDPipe-Future.conllu", folder / "gold" / "en_ewt.conllu"
    assert find_cuts(str(system), str(gold), 2) is None


def test_cli_jobs_gives_the_same_json(pair, capsys, monkeypatch):
    import server.parallel
    calls = []
    real = server.parallel.evaluate_in_parallel
    monkeypatch.setattr(server.parallel, "MIN_BYTES", 0)

    def recording(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr("server.cli.evaluate_conllu.evaluate_in_parallel", recording)
    assert main(["evaluate", *pair, "--json", "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["evaluate", *pair, "--json", "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert len(calls) == 1 and calls[0] is not None  # only --jobs 2 went to the parallel path
    assert one == two


def test_carriage_returns_in_the_second_part_keep_line_numbers(pair, tmp_path):
    """CRLF after the cut: the parts are still exact (problems keep their lines);
    a carriage return before a cut makes the scorer decline."""
    system_text = open(pair[0], "rb").read()
    cut = find_cuts(*pair, 2)[0][0]
    # A broken HEAD after the cut, in a part written with CRLF line ends.
    later = system_text.index(b"\n\n", cut) + 2  # the cut's own sentence keeps LF (the cut is found by it)
    head, tail = system_text[:later], system_text[later:].replace(b"\n", b"\r\n")
    tail = tail.replace(b"\t0\troot\t", b"\t-3\troot\t", 1)
    crlf_after = tmp_path / "after.conllu"
    crlf_after.write_bytes(head + tail)
    parallel = evaluate_in_parallel(str(crlf_after), pair[1], ConlluOptions(), 2, min_bytes=0)
    single = evaluate_files(str(crlf_after), pair[1])
    assert parallel is not None
    assert summary(parallel) == summary(single)
    assert [(p.code, p.line) for r in parallel.refused.items for p in r.reasons] == [
        (p.code, p.line) for r in single.refused.items for p in r.reasons]
    crlf_before = tmp_path / "before.conllu"
    crlf_before.write_bytes(system_text[:cut].replace(b"\n", b"\r\n") + system_text[cut:])
    assert find_cuts(str(crlf_before), pair[1], 2) is None
