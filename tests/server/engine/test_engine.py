"""The engine: equal to `evaluate`, and incremental rescoring equal to starting afresh."""

from __future__ import annotations

import random
import shutil

import pytest

from tests.support.data import mkpred, shared_path
from tests.support.incremental import (
    EDITS, TEXT_EDITS, copies, edit_and_compare, open_pair, race_and_compare, snapshot,
)
from tests.support.lsp import PRED, workspace
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.conllu.handler import results_of

CONLLU_METRICS = ["Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
                  "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS"]


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
    score = results_of(engine.documents[path]).score
    assert score.totals == expected.counts
    # The payload has every CoNLL 2018 metric (scorer.conllu.counts.METRICS), in
    # its order, and nothing else.
    assert list(engine.score(path)["metrics"]) == CONLLU_METRICS
    assert len(score.missing) == expected.missing.count
    assert len(score.unmatched) == expected.unmatched.count


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_rescoring_equals_a_fresh_engine(tmp_path, seed):
    workspace(tmp_path)
    edit_and_compare(tmp_path, PRED, EDITS, 60, seed)





@pytest.mark.parametrize("seed", range(6))
def test_edits_racing_rescores_equal_a_fresh_engine(tmp_path, seed):
    """Edits that arrive while a rescore's results are being read (the
    language server publishes after the next edit was applied), on a
    document whose sentence texts repeat, with sentences split and joined."""
    from tests.support.lsp import GOLD
    pred, gold = copies(PRED, 3), copies(GOLD, 3)
    workspace(tmp_path, pred, gold)
    edits, compared = race_and_compare(tmp_path, pred, TEXT_EDITS, 150, seed)
    assert edits > 50 and compared > 5


@pytest.mark.parametrize("seed", range(8))
def test_pairing_again_around_text_edits_equals_a_fresh_engine(tmp_path, seed):
    """Edits of FORMs, IDs and whole lines on a document whose sentence texts
    repeat: each is paired again around the edit only (see
    IncrementalScore.pair_again_locally) or in full, and must equal a fresh engine."""
    from tests.support.lsp import GOLD
    pred, gold = copies(PRED, 3), copies(GOLD, 3)
    workspace(tmp_path, pred, gold)
    edit_and_compare(tmp_path, pred, TEXT_EDITS, 40, seed)


LITSEA = [
    ("pred/japanese_gsd_test.japanese.pred.txt", "eval/japanese_gsd_test.txt", "space", False),
    ("pred/korean_gsd_test.korean.pred.tsv", "eval/korean_gsd_test.tsv", "tsv", False),
    ("pred/english_ewt_test_pos_spaced.english_pos.pred.tsv", "eval/english_ewt_test_pos_spaced.tsv", "tsv", True),
]


@pytest.mark.parametrize("pred,gold,fmt,pos", LITSEA)
def test_segmentation_files_in_the_engine_equal_evaluate(tmp_path, pred, gold, fmt, pos):
    from annoscore.scorer.segmentation import SegmentationOptions, evaluate_files as evaluate_segmentation
    source = shared_path("data", "litsea")
    extension = ".txt" if fmt == "space" else ".tsv"
    pred_path, gold_path = tmp_path / f"p{extension}", tmp_path / f"p.gold{extension}"
    shutil.copy(source / pred, pred_path)
    shutil.copy(source / gold, gold_path)
    (tmp_path / "annoscore.toml").write_text(f'[[pair]]\nfiles = "p{extension}"\ngold = "p.gold{extension}"\n'
                                             f'pos = {"true" if pos else "false"}\n')
    from annoscore.server.config import load_project
    engine = Engine(str(tmp_path), load_project(tmp_path)[0])
    text = pred_path.read_text(encoding="utf-8")
    engine.open(str(pred_path), str(pred_path), text, 1)
    engine.rescore(str(pred_path))
    expected = evaluate_segmentation(pred_path, gold_path, SegmentationOptions(fmt, pos))
    payload = engine.score(str(pred_path))
    assert list(payload["metrics"]) == (["Word", "Boundary", "TaggedWord"] if pos else ["Word", "Boundary"])
    for name, metric in payload["metrics"].items():
        assert metric["f1"] == pytest.approx(expected.counts.score(name).f1)
    # Edit one line (a word split in two): the score follows.
    lines = text.split("\n")
    separator = " " if fmt == "space" else "\t"
    k = next(i for i, line in enumerate(lines) if len(line.split(separator)[0]) > 2)
    first = lines[k].split(separator)[0]
    engine.change(str(pred_path), 2, [((k, 1), (k, 1), separator)])
    engine.rescore(str(pred_path))
    lines[k] = first[0] + separator + lines[k][1:]
    pred_path.write_text("\n".join(lines), encoding="utf-8")
    expected = evaluate_segmentation(pred_path, gold_path, SegmentationOptions(fmt, pos))
    assert engine.score(str(pred_path))["metrics"]["Word"]["f1"] == pytest.approx(expected.counts.score("Word").f1)
    codes = {p.code for p in engine.diagnostics(str(pred_path))}
    assert "segmentation-mismatch" in codes


def test_label_files_in_the_engine_equal_evaluate(tmp_path):
    from annoscore.scorer.labels import evaluate_files as evaluate_labels
    rng = random.Random(4)
    labels = ["il", "elle", "ce", "on", "OTHER"]
    gold = [f"{i}\t{rng.choice(labels)}" for i in range(300)]
    pred = [f"{i}\t{rng.choice(labels + ['cela'])}" for i in range(300) if i % 17]
    # Duplicate IDs with another label: both must take the first, as evaluate does.
    pred += [f"{i}\t{'il' if line.endswith('OTHER') else 'OTHER'}" for i, line in enumerate(pred[:40])]
    (tmp_path / "x.lab").write_text("\n".join(pred) + "\n")
    (tmp_path / "x.gold.lab").write_text("\n".join(gold) + "\n")
    (tmp_path / "annoscore.toml").write_text('[[pair]]\nfiles = "x.lab"\ngold = "x.gold.lab"\nformat = "labels"\n')
    from annoscore.server.config import load_project
    engine = Engine(str(tmp_path), load_project(tmp_path)[0])
    path = str(tmp_path / "x.lab")
    engine.open(path, path, (tmp_path / "x.lab").read_text(), 1)
    engine.rescore(path)
    expected = evaluate_labels(tmp_path / "x.lab", tmp_path / "x.gold.lab").counts.scores()
    metrics = engine.score(path)["metrics"]
    assert list(metrics) == ["Accuracy", "MacroRecall", "MacroF1"]
    assert metrics["Accuracy"]["value"] == pytest.approx(expected.accuracy)
    assert metrics["MacroRecall"]["value"] == pytest.approx(expected.macro_recall)
    assert metrics["MacroF1"]["value"] == pytest.approx(expected.macro_f1)
    codes = {p.code for p in engine.diagnostics(path)}
    assert {"label-mismatch", "unknown-label", "missing-item"} <= codes


def test_editing_an_open_gold_buffer_rescores_its_predictions(tmp_path):
    pred, gold = workspace(tmp_path)
    engine, path = open_pair(tmp_path, PRED)
    before = engine.score(path)["metrics"]["UPOS"]["f1"]
    gold_key = str(gold)
    gold_text = gold.read_text(encoding="utf-8")
    engine.open(gold_key, gold_key, gold_text, 1)
    engine.rescore(gold_key)
    # Gold's first word becomes VERB: the prediction (DET there) loses a UPOS.
    lines = gold_text.split("\n")
    k = next(n for n, line in enumerate(lines) if line.startswith("1\tThe\t"))
    start = len("1\tThe\tthe\t")
    engine.change(gold_key, 2, [((k, start), (k, start + 3), "VERB")])
    assert path in engine.rescore(gold_key)
    after = engine.score(path)["metrics"]["UPOS"]["f1"]
    assert after < before
    fresh, fresh_path = open_pair(tmp_path, PRED, name="x")  # gold on disk is unchanged
    assert fresh.score(fresh_path)["metrics"]["UPOS"]["f1"] == before


def test_a_byte_order_mark_in_a_line_file_is_read_as_evaluate_reads_it(tmp_path):
    from annoscore.scorer.segmentation import evaluate_files as evaluate_segmentation
    (tmp_path / "s.gold.txt").write_text("a bc d\nef g\n", encoding="utf-8")
    (tmp_path / "s.txt").write_bytes("\ufeffa b c d\nef g\n".encode("utf-8"))
    engine = Engine(str(tmp_path), Settings())
    path = str(tmp_path / "s.txt")
    engine.open(path, path, (tmp_path / "s.txt").read_text(encoding="utf-8"), 1)
    engine.rescore(path)
    expected = evaluate_segmentation(tmp_path / "s.txt", tmp_path / "s.gold.txt")
    word = engine.score(path)["metrics"]["Word"]
    assert word["f1"] == pytest.approx(expected.counts.score("Word").f1) and word["f1"] > 0
    codes = [p.code for p in engine.diagnostics(path)]
    assert "format-bom" in codes and "text-mismatch" not in codes


def _spans(problems):
    return [(p.code, p.line, p.start, p.end, tuple((r.line, r.start, r.end) for r in p.related))
            for p in problems]


def test_columns_after_a_byte_order_mark_are_those_of_the_line_an_editor_shows(tmp_path):
    """Text read from disk (check, watch, a gold file) keeps the byte-order
    mark (`read_disk_text`); an editor such as VS Code shows the text without
    it and sends it without it.  Either way the columns on line 1 count from
    the first character after the mark, so they point at the same text."""
    from annoscore.server.config import load_project
    from annoscore.server.engine.disk import read_disk_text
    (tmp_path / "annoscore.toml").write_text('[[pair]]\nfiles = "p.lab"\ngold = "g.lab"\nformat = "labels"\n')
    (tmp_path / "p.lab").write_text("\ufeff a\t Y\n  a\tX\n", encoding="utf-8")
    (tmp_path / "g.lab").write_text("\ufeffc\tX\na\tX\n", encoding="utf-8")
    path, gold = str(tmp_path / "p.lab"), str(tmp_path / "g.lab")
    disk_text = read_disk_text(path)
    assert disk_text is not None and disk_text.startswith("\ufeff")
    shown = {}
    for route, text in (("disk", disk_text), ("editor", disk_text[1:])):
        engine = Engine(str(tmp_path), load_project(tmp_path)[0])
        engine.open(path, path, text, 1)
        engine.rescore(path)
        shown[route] = _spans(engine.diagnostics(path)), _spans(engine.diagnostics(gold))
    # Line 1 as shown is " a<TAB> Y": the ID at column 1, the label at 4; line 2
    # is "  a<TAB>X", a duplicate ID at column 2.  Gold's line 1 is "c<TAB>X".
    after_the_mark = [
        ("missing-item", 0, 0, 0, ()),
        ("label-mismatch", 0, 4, 5, ()),
        ("unknown-label", 0, 4, 5, ()),
        ("format-duplicate-id", 1, 2, 3, ((0, 1, 2),)),
        ("extra-item", 1, 2, 3, ()),
    ]
    gold_shown = [("missing-item", 0, 0, 3, ())]
    assert shown["disk"] == ([("format-bom", 0, 0, 1, ())] + after_the_mark, gold_shown)
    assert shown["editor"] == (after_the_mark, gold_shown)
    # Segmentation: "a b c d" after the mark, gold "a bc d": 'b' at column 2, 'c' at 4.
    (tmp_path / "s.gold.txt").write_text("a bc d\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text("\ufeffa b c d\n", encoding="utf-8")
    path = str(tmp_path / "s.txt")
    for text in (read_disk_text(path), "a b c d\n"):
        engine = Engine(str(tmp_path), Settings())
        engine.open(path, path, text, 1)
        engine.rescore(path)
        assert [s for s in _spans(engine.diagnostics(path)) if s[0] != "format-bom"] == [
            ("segmentation-mismatch", 0, 2, 3, ()), ("segmentation-mismatch", 0, 4, 5, ())]


def test_a_first_pass_is_frozen_and_what_leaves_the_document_is_freed(tmp_path):
    """A full pass freezes what it made (out of the cyclic collector's way);
    segments that leave the document let go of their analysis, so reference
    counting frees them though frozen; closing unfreezes."""
    import gc
    workspace(tmp_path)
    gc.unfreeze()
    engine, path = open_pair(tmp_path, PRED)
    assert gc.get_freeze_count() > 0
    document = engine.documents[path]
    row = next(k for k, line in enumerate(PRED.split("\n")) if line.count("\t") == 9)
    at = document.store.segment_at(row)
    segment, neighbour = document.store.segments[at], document.store.segments[at + 1]
    assert segment.analysis is not None
    start = len("\t".join(PRED.split("\n")[row].split("\t")[:3])) + 1
    engine.change(path, 2, [((row, start), (row, start), "X")])  # its UPOS changes
    engine.rescore(path)
    assert segment not in document.store.segments and segment.analysis is None
    # The neighbour, cut again with it but the same text, is kept as it was.
    assert document.store.segments[at + 1] is neighbour and neighbour.analysis is not None
    kept = list(document.store.segments)
    engine.close(path)
    assert gc.get_freeze_count() == 0
    assert all(s.analysis is None for s in kept)


def test_a_gold_read_from_disk_goes_with_its_last_prediction(tmp_path):
    workspace(tmp_path)
    (tmp_path / "y.conllu").write_text(PRED, encoding="utf-8")
    (tmp_path / "annoscore.toml").write_text('[[pair]]\nfiles = "*.conllu"\ngold = "x.gold.conllu"\n')
    from annoscore.server.config import load_project
    engine = Engine(str(tmp_path), load_project(tmp_path)[0])
    gold = str(tmp_path / "x.gold.conllu")
    for name in ("x", "y"):
        path = str(tmp_path / f"{name}.conllu")
        engine.open(path, path, PRED, 1)
        engine.rescore(path)
    assert gold in engine.documents
    engine.close(str(tmp_path / "x.conllu"))
    assert gold in engine.documents  # y is still scored against it
    engine.close(str(tmp_path / "y.conllu"))
    assert set(engine.documents) == set()


def _one_word(form: str, sent_id: str | None) -> str:
    head = [f"# sent_id = {sent_id}"] if sent_id else []
    return "\n".join(head + [f"1\t{form}\t{form}\tX\t_\t_\t0\troot\t_\t_"])


@pytest.mark.parametrize("before,after", [
    # P0's typo frees gold A, which P3 (no sent_id; unmatched until then)
    # then takes by its text, far past the edit.
    (["A", "B", "C", "A"], ["Y", "B", "C", "A"]),
    # P0's fix takes gold A back from P2, which had taken it by text.
    (["Y", "B", "A"], ["A", "B", "A"]),
])
def test_pairing_again_around_an_edit_follows_what_it_changes_further_on(tmp_path, before, after):
    """A gold sentence that an edit frees or takes can change the pairing of
    a sentence far after it (by text): pairing again around the edit must
    carry on until that sentence, and equal a fresh engine."""
    gold = "\n\n".join(_one_word(form, f"g{k}") for k, form in enumerate("ABCD")) + "\n\n"
    ids = [f"g{k}" if k < 2 else None for k in range(len(before))]
    pred = "\n\n".join(_one_word(form, sent_id) for form, sent_id in zip(before, ids)) + "\n\n"
    workspace(tmp_path, pred, gold)
    engine, path = open_pair(tmp_path, pred)
    engine.diagnostics(path)
    row = pred.split("\n").index(_one_word(before[0], "g0").split("\n")[1])
    engine.change(path, 2, [((row, 2), (row, 3), after[0])])
    engine.rescore(path)
    lines = pred.split("\n")
    lines[row] = lines[row][:2] + after[0] + lines[row][3:]  # the FORM only, as the edit did
    fresh, fresh_path = open_pair(tmp_path, "\n".join(lines), name="x")
    assert snapshot(engine, path) == snapshot(fresh, fresh_path)
    assert results_of(engine.documents[path]).score.missing == results_of(fresh.documents[fresh_path]).score.missing
