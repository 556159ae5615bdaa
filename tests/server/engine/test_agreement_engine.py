"""Agreement in the editor: the engine compares a document with the other
annotations [agreement] declares (or the editor asks for), incrementally,
and shows what `annoscore agree` computes for the two files."""

from __future__ import annotations

import json
import random

import pytest

from tests.support.incremental import TEXT_EDITS, copies, race_and_compare, random_edit
from tests.support.lsp import GOLD, PRED, workspace
from tests.support.pair_maker import make_gold_sentences, make_prediction, write
from annoscore.scorer.agreement.annotation import read_annotation
from annoscore.scorer.agreement.compare import compare
from annoscore.scorer.agreement.pairs import MAIN
from annoscore.server.config import AgreementSettings, Settings, load_project
from annoscore.server.engine import Engine
from annoscore.server.engine.fixes import fix_for
from annoscore.server.engine.seek import find


def _engine(root, path, settings=None):
    engine = Engine(str(root), settings or load_project(root)[0])
    engine.open(str(path), str(path), path.read_text(encoding="utf-8"), 1)
    engine.rescore(str(path))
    return engine


@pytest.fixture
def pair(tmp_path):
    gold = make_gold_sentences(17, 80)
    (tmp_path / "alice").mkdir()
    (tmp_path / "bob").mkdir()
    mine = write(tmp_path / "alice" / "t.conllu", make_prediction(gold, 1, tokenization=0.15, merge=0.0, conf=False))
    theirs = write(tmp_path / "bob" / "t.conllu", make_prediction(gold, 2, tokenization=0.15, merge=0.0, conf=False))
    (tmp_path / "annoscore.toml").write_text('[agreement]\nothers = ["alice/{name}", "bob/{name}"]\n')
    return tmp_path, mine, theirs


def test_the_live_agreement_equals_annoscore_agree(pair):
    root, mine, theirs = pair
    engine = _engine(root, mine)
    (entry,) = engine.score(str(mine))["agreement"]
    assert entry["path"] == str(theirs) and entry["name"] == "bob/t.conllu"
    expected = compare([read_annotation(mine, "A"), read_annotation(theirs, "B")], samples=0)
    rows = {row.name: row for row in expected.rows}
    for variable in MAIN:
        got, want = entry["variables"][variable], rows[variable]
        assert got["items"] == want.pairable, variable
        for ours, theirs_name in (("observed", "observed"), ("kappa", "cohen_kappa"), ("alpha", "krippendorff_alpha")):
            if want.coefficients[theirs_name] is None:
                assert got[ours] is None
            else:
                assert abs(got[ours] - want.coefficients[theirs_name]) < 1e-12, (variable, ours)
    for name in ("Words", "UAS", "LAS", "CLAS"):
        assert abs(entry["attachment"][name] - expected.attachment[0][name]["f1"]) < 1e-12, name
    # One disagreement diagnostic per differing cell, as agree's places (HEAD+DEPREL has none of its own).
    shown = [p for p in engine.diagnostics(str(mine)) if p.code == "disagreement"]
    assert entry["disagreements"] == sum(len(v) for v in expected.differing.values())
    listed = [p for p in shown if "not shown" not in p.message]  # (past the cap: one summary)
    assert listed and all(p.message.split(":")[0] in MAIN and "bob/t.conllu" in p.message for p in listed)


def test_a_disagreement_is_on_its_cell_with_a_fix_and_next_walks_them(pair):
    root, mine, _ = pair
    engine = _engine(root, mine)
    lines = mine.read_text(encoding="utf-8").split("\n")
    shown = sorted((p for p in engine.diagnostics(str(mine)) if p.code == "disagreement" and p.data),
                   key=lambda p: (p.line, p.start))
    upos = next(p for p in shown if p.message.startswith("UPOS:"))
    cells = lines[upos.line].split("\t")
    assert lines[upos.line][upos.start:upos.end] == cells[3]
    fix = fix_for(engine, str(mine), "disagreement", upos.line, upos.start, str(root / "bob" / "t.conllu"))
    value = upos.datum("value")
    assert fix.title == f"Take bob/t.conllu's UPOS '{value}'" and fix.edits == [(upos.line, upos.start, upos.line,
                                                                                 upos.end, value)]
    # Applying it: that disagreement is gone, the agreement goes up.
    before = engine.score(str(mine))["agreement"][0]["variables"]["UPOS"]["observed"]
    engine.change(str(mine), 2, [((upos.line, upos.start), (upos.line, upos.end), value)])
    engine.rescore(str(mine))
    assert engine.score(str(mine))["agreement"][0]["variables"]["UPOS"]["observed"] > before
    assert not any(p.line == upos.line and p.start == upos.start and p.message.startswith("UPOS")
                   for p in engine.diagnostics(str(mine)) if p.code == "disagreement")
    # annoscore/next walks them in order.
    found, places = find(engine, str(mine), 0, 0, "disagreement"), []
    while found.line is not None and len(places) < 5:
        places.append((found.line, found.start))
        found = find(engine, str(mine), found.line, found.start, "disagreement")
    expected = sorted((p.line, p.start) for p in engine.diagnostics(str(mine)) if p.code == "disagreement" and p.data)
    assert places == expected[:5]


def test_an_edit_counts_again_only_its_sentence(pair, monkeypatch):
    from annoscore.server.engine import agreement

    root, mine, _ = pair
    engine = _engine(root, mine)
    calls = []
    real = agreement.compare_sentences
    monkeypatch.setattr(agreement, "compare_sentences", lambda a, b: calls.append(1) or real(a, b))
    lines = mine.read_text(encoding="utf-8").split("\n")
    k = next(i for i, line in enumerate(lines) if line.count("\t") == 9 and line.split("\t")[0] == "2")
    start = lines[k].index("\t", lines[k].index("\t", lines[k].index("\t") + 1) + 1) + 1
    end = lines[k].index("\t", start)
    engine.change(str(mine), 2, [((k, start), (k, end), "INTJ")])
    engine.rescore(str(mine))
    assert len(calls) == 1


def test_compare_with_another_annotation_from_the_editor(tmp_path):
    pred, gold = workspace(tmp_path)
    engine = _engine(tmp_path, pred, Settings())
    assert "agreement" not in engine.score(str(pred))
    assert find(engine, str(pred), 0, 0, "disagreement").message.startswith("no cell another annotation")
    engine.compare_with(str(pred), str(gold))
    engine.rescore(str(pred))
    (entry,) = engine.score(str(pred))["agreement"]
    assert entry["path"] == str(gold) and entry["disagreements"] > 0
    engine.compare_with(str(pred), None)
    engine.rescore(str(pred))
    assert "agreement" not in engine.score(str(pred))
    assert not [p for p in engine.diagnostics(str(pred)) if p.code == "disagreement"]


def test_the_other_file_changing_on_disk_is_seen(pair):
    root, mine, theirs = pair
    engine = _engine(root, mine)
    before = engine.score(str(mine))["agreement"][0]
    theirs.write_text(mine.read_text(encoding="utf-8"), encoding="utf-8")  # now the same annotation
    for key in engine.disk_changed(str(theirs)):
        engine.rescore(key)
    after = engine.score(str(mine))["agreement"][0]
    assert before["disagreements"] > 0 and after["disagreements"] == 0
    assert all(v["observed"] in (1.0, None) for v in after["variables"].values())


@pytest.mark.parametrize("seed", range(4))
def test_edits_racing_rescores_with_another_annotation_equal_a_fresh_engine(tmp_path, seed):
    """The racing property with an other annotation declared: the
    disagreements and the payload's agreement after random edits, several
    per rescore, with reads in between, equal a fresh engine's."""
    pred, gold = copies(PRED, 3), copies(GOLD, 3)
    workspace(tmp_path, pred, gold)
    (tmp_path / "other").mkdir()
    # The other annotation: the gold with a few cells changed.
    rng = random.Random(seed)
    other = gold
    for _ in range(6):
        _, other, _ = random_edit(other, TEXT_EDITS[:3], rng)
    (tmp_path / "other" / "x.conllu").write_text(other, encoding="utf-8")
    settings = Settings(agreement=AgreementSettings(("other/{name}",)))
    edits, compared = race_and_compare(tmp_path, pred, TEXT_EDITS, 150, seed, settings=settings)
    assert edits > 50 and compared > 5


def test_the_payload_is_json(pair):
    root, mine, _ = pair
    engine = _engine(root, mine)
    json.dumps(engine.score(str(mine)))
