"""Input the scorer must survive, and the engine's own faults made visible.

Numbers past what a machine integer holds (a HEAD of 2^63, a DEPS head of
10^20) are numbers to ``int()``, as the official scorer reads them: they
must come out as ``head-out-of-range`` / ``format-deps`` with the rest
scored, in ``evaluate``, ``check`` and the engine alike.  And when the
engine itself fails on a document (a bug), the document says so and the
score is null, never a confident zero.
"""

from __future__ import annotations

import json

import pytest

from conftest import conllu, write
from scorer.conllu.evaluate import evaluate_files
from server.cli import main
from server.config import Settings
from server.engine import Engine

GOLD = conllu("# sent_id = a\n1 The the DET DT _ 2 det 2:det _\n2 cat cat NOUN NN _ 0 root 0:root _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj 2:nsubj _\n2 sat sit VERB VBD _ 0 root 0:root _")
HUGE = ["9223372036854775808", "99999999999999999999", "1" + "0" * 60]


def with_cell(text: str, row: int, column: int, value: str) -> str:
    lines = text.split("\n")
    cells = lines[row].split("\t")
    cells[column] = value
    lines[row] = "\t".join(cells)
    return "\n".join(lines)


CASES = [(6, h, "head-out-of-range") for h in HUGE] + [(8, f"{h}:det", "format-deps") for h in HUGE]


@pytest.mark.parametrize("column,value,code", CASES)
def test_numbers_past_int64_are_reported_and_the_rest_scored(tmp_path, capsys, column, value, code):
    pred = with_cell(GOLD, 1, column, value)
    pred_path, gold_path = write(tmp_path, "x.conllu", pred), write(tmp_path, "x.gold.conllu", GOLD)
    result = evaluate_files(pred_path, gold_path)
    assert result.refused.count == 1
    assert [p.code for p in result.refused.items[0].reasons] == [code]
    assert result.counts.score("LAS").gold_total == 4 and result.counts.score("LAS").correct >= 2
    # check (the engine, through the command line)
    status = main(["check", str(pred_path), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    codes = [d["code"] for d in report["files"][0]["diagnostics"]]
    assert codes == [code]
    assert report["files"][0]["score"]["counts"]["sentences"] == 2
    # the engine, as the language server drives it
    engine = Engine(str(tmp_path), Settings())
    engine.open(str(pred_path), str(pred_path), pred, 1)
    engine.rescore(str(pred_path))
    assert [p.code for p in engine.diagnostics(str(pred_path))] == [code]
    payload = engine.score(str(pred_path))
    assert payload["counts"]["sentences"] == 2 and payload["counts"]["refused"] == 1
    assert payload["metrics"]["UPOS"]["f1"] == 1.0


def test_a_failing_rescore_is_shown_and_the_score_is_null_not_zero(tmp_path, monkeypatch):
    pred_path = write(tmp_path, "x.conllu", GOLD)
    write(tmp_path, "x.gold.conllu", GOLD)
    logged = []
    engine = Engine(str(tmp_path), Settings(), log=logged.append)
    key = str(pred_path)
    engine.open(key, key, GOLD, 1)

    def broken(document):
        raise RuntimeError("a bug")

    monkeypatch.setattr(engine, "_rescore_document", broken)
    assert engine.rescore(key) == [key]
    problems = engine.diagnostics(key)
    assert [p.code for p in problems] == ["internal-error"] and "RuntimeError: a bug" in problems[0].message
    assert engine.score(key) is None
    assert any("Traceback" in message for message in logged)
    monkeypatch.undo()  # the bug is gone: the next rescore starts afresh and scores
    engine.rescore(key)
    assert engine.diagnostics(key) == []
    assert engine.score(key)["metrics"]["LAS"]["f1"] == 1.0
