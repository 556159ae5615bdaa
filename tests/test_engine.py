"""The engine: equal to `evaluate`, and incremental rescoring equal to starting afresh."""

from __future__ import annotations

import random
import shutil

import pytest

from conftest import mkpred, shared_path
from lsp_support import PRED, workspace
from scorer.conllu.evaluate import ConlluOptions, evaluate_files
from server.config import Settings
from server.engine import Engine


def open_pair(tmp_path, pred_text, name="x", settings=None):
    engine = Engine(str(tmp_path), settings or Settings())
    path = str(tmp_path / f"{name}.conllu")
    engine.open(path, path, pred_text, 1)
    engine.rescore(path)
    return engine, path


@pytest.mark.parametrize("name,options", [
    ("UD_French-GSD/fr_gsd-ud-test.conllu", ["--tok-noise", "0.3", "--conf", "--unparsed", "4"]),
    ("UD_English-EWT/en_ewt-ud-test.conllu", ["--merge-sents", "0.1", "--refuse", "10", "--drop", "0.1"]),
    ("UD_Czech-FicTree/cs_fictree-ud-test.conllu", ["--keep-empty", "--tok-noise", "0.2"]),
])
@pytest.mark.parametrize("sentences", ["all", "predicted", "annotated"])
def test_engine_totals_equal_evaluate(tmp_path, name, options, sentences):
    gold_source = shared_path("data", "ud", *name.split("/"))
    shutil.copy(gold_source, tmp_path / "x.gold.conllu")
    pred = mkpred(gold_source, tmp_path / "x.conllu", 21, *options)
    engine, path = open_pair(tmp_path, pred.read_text(encoding="utf-8"), settings=Settings(sentences=sentences))
    expected = evaluate_files(pred, tmp_path / "x.gold.conllu", ConlluOptions(
        predicted_only=sentences == "predicted", annotated_only=sentences == "annotated"))
    document = engine.documents[path]
    assert document.conllu.totals == expected.counts
    assert len(document.conllu.missing) == expected.missing.count
    assert len(document.conllu.unmatched) == expected.unmatched.count


def snapshot(engine, path):
    document = engine.documents[path]
    diagnostics = sorted((p.code, p.line, p.start, p.end, p.message) for p in engine.diagnostics(path))
    return (document.conllu.totals.values if document.conllu else None, diagnostics, engine.score(path))


EDITS = [
    ("cell", 3, ["NOUN", "VERB", "X"]),
    ("cell", 6, ["0", "1", "2", "_", "x"]),
    ("cell", 7, ["root", "dep", "obl:arg"]),
    ("cell", 1, ["dog", "dg", "ab"]),
    ("cell", 9, ["_", "Conf=0.1", "Conf=UPOS:zz"]),
    ("line", None, ["", "# note", "junk line"]),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_rescoring_equals_a_fresh_engine(tmp_path, seed):
    workspace(tmp_path)
    rng = random.Random(seed)
    text = PRED
    engine, path = open_pair(tmp_path, text)
    for step in range(60):
        lines = text.split("\n")
        kind, column, values = rng.choice(EDITS)
        k = rng.randrange(len(lines))
        value = rng.choice(values)
        if kind == "cell":
            cells = lines[k].split("\t")
            if len(cells) != 10:
                continue
            start = sum(len(c) + 1 for c in cells[:column])
            end = start + len(cells[column])
            change = ((k, start), (k, end), value)
            cells[column] = value
            lines[k] = "\t".join(cells)
        else:
            change = ((k, 0), (k, 0), value + "\n")
            lines.insert(k, value)
        text = "\n".join(lines)
        engine.change(path, step + 2, [change])
        engine.rescore(path)
        fresh, fresh_path = open_pair(tmp_path, text, name="x")
        assert snapshot(engine, path) == snapshot(fresh, fresh_path), (step, kind, value)
