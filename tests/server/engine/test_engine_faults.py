"""Input the scorer must survive, and the engine's own faults made visible.

Numbers past what a machine integer holds (a HEAD of 2^63, a DEPS head of
10^20) are numbers to ``int()``, as the official scorer reads them: they
must come out as ``head-out-of-range`` / ``format-deps`` with the rest
scored, in ``evaluate``, ``check`` and the engine alike (the UD validator
says so too, as ``unknown-head`` / ``unknown-ehead``: one diagnostic, which
carries its test id).  And when the engine itself fails on a document (a
bug), the document says so and the score is null, never a confident zero.
"""

from __future__ import annotations

import json

import pytest

from tests.support.data import conllu, write
from annoscore.scorer.conllu.evaluate import evaluate_files
from annoscore.server.cli import main
from annoscore.server.config import Settings
from annoscore.server.engine import Engine

# (Valid UD, so that the one problem made below is all there is to report.)
GOLD = conllu("# sent_id = a\n# text = The cat\n1 The the DET DT _ 2 det 2:det _\n2 cat cat NOUN NN _ 0 root 0:root _",
              "# sent_id = b\n# text = It sat\n1 It it PRON PRP _ 2 nsubj 2:nsubj|2:nsubj:xsubj _\n"
              "2 sat sit VERB VBD _ 0 root 0:root _")
HUGE = ["9223372036854775808", "99999999999999999999", "1" + "0" * 60]


def with_cell(text: str, row: int, column: int, value: str) -> str:
    lines = text.split("\n")
    cells = lines[row].split("\t")
    cells[column] = value
    lines[row] = "\t".join(cells)
    return "\n".join(lines)


CASES = [(6, h, "head-out-of-range", "unknown-head") for h in HUGE] + \
    [(8, f"{h}:det", "format-deps", "unknown-ehead") for h in HUGE]


@pytest.mark.parametrize("column,value,code,test_id", CASES)
def test_numbers_past_int64_are_reported_and_the_rest_scored(tmp_path, capsys, column, value, code, test_id):
    pred = with_cell(GOLD, 2, column, value)
    pred_path, gold_path = write(tmp_path, "x.conllu", pred), write(tmp_path, "x.gold.conllu", GOLD)
    result = evaluate_files(pred_path, gold_path)
    assert result.refused.count == 1
    assert [p.code for p in result.refused.items[0].reasons] == [code]
    assert result.counts.score("LAS").gold_total == 4 and result.counts.score("LAS").correct >= 2
    # check (the engine, through the command line)
    status = main(["check", str(pred_path), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    codes = [(d["code"], d.get("test_id")) for d in report["files"][0]["diagnostics"]]
    assert codes == [(code, test_id)]
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

    from annoscore.server.engine.engine import HANDLERS

    def broken(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(HANDLERS["conllu"], "rescore", broken)
    assert engine.rescore(key) == [key]
    problems = engine.diagnostics(key)
    assert [p.code for p in problems] == ["internal-error"] and "RuntimeError: a bug" in problems[0].message
    assert engine.score(key) is None
    assert any("Traceback" in message for message in logged)
    monkeypatch.undo()  # the bug is gone: the next rescore starts afresh and scores
    engine.rescore(key)
    assert engine.diagnostics(key) == []
    assert engine.score(key)["metrics"]["LAS"]["f1"] == 1.0


# --- tree messages ------------------------------------------------------------------

ROOTS_GOLD = conllu("# sent_id = r\n1 Yes yes INTJ _ _ 3 discourse _ _\n2 it it PRON _ _ 3 nsubj _ _\n"
                    "3 works work VERB _ _ 0 root _ _")
ROOTS_PRED = conllu("# sent_id = r\n1 Yes yes INTJ _ _ 0 root _ _\n2 it it PRON _ _ 3 nsubj _ _\n"
                    "3 works work VERB _ _ 0 root _ _")


def engine_with(tmp_path, pred: str, gold: str | None):
    path = write(tmp_path, "t.conllu", pred)
    if gold is not None:
        write(tmp_path, "t.gold.conllu", gold)
    engine = Engine(str(tmp_path), Settings())
    engine.open(str(path), str(path), pred, 1)
    engine.rescore(str(path))
    return engine, str(path)


def head_cells(problems, code, text):
    lines = text.split("\n")
    return [(p.line, lines[p.line].split("\t")[0], lines[p.line][p.start:p.end]) for p in problems if p.code == code]


def test_without_gold_every_root_is_marked_and_the_roots_named(tmp_path):
    engine, path = engine_with(tmp_path, ROOTS_PRED, None)
    problems = engine.diagnostics(path)
    assert head_cells(problems, "multiple-roots", ROOTS_PRED) == [(1, "1", "0"), (3, "3", "0")]
    assert all("2 words have HEAD 0: 1 (Yes), 3 (works)" in p.message for p in problems)


def test_with_gold_only_the_root_gold_disagrees_with_is_marked(tmp_path):
    engine, path = engine_with(tmp_path, ROOTS_PRED, ROOTS_GOLD)
    problems = [p for p in engine.diagnostics(path) if p.code == "multiple-roots"]
    assert head_cells(problems, "multiple-roots", ROOTS_PRED) == [(1, "1", "0")]
    assert "word 1 (Yes) has HEAD 0 where gold attaches it to word 3 (works)" in problems[0].message
    # A gold that makes both roots' words non-roots: nothing tells which, both stay marked.
    both = conllu("# sent_id = r\n1 Yes yes INTJ _ _ 3 discourse _ _\n2 it it PRON _ _ 0 root _ _\n"
                  "3 works work VERB _ _ 2 ccomp _ _")
    engine, path = engine_with(tmp_path, ROOTS_PRED, both)
    assert len([p for p in engine.diagnostics(path) if p.code == "multiple-roots"]) == 2


def test_a_cycle_marks_each_head_from_its_own_word_and_a_report_names_it_once(tmp_path, capsys):
    pred = conllu("# sent_id = c\n1 a a X _ _ 0 root _ _\n2 b b X _ _ 3 dep _ _\n3 c c X _ _ 4 dep _ _\n"
                  "4 d d X _ _ 2 dep _ _")
    engine, path = engine_with(tmp_path, pred, None)
    cycle = [p for p in engine.diagnostics(path) if p.code == "cycle"]
    assert head_cells(cycle, "cycle", pred) == [(2, "2", "3"), (3, "3", "4"), (4, "4", "2")]
    assert [p.message.split(" (")[0] for p in cycle] == [
        "word 2 is its own ancestor: 2 → 3 → 4 → 2", "word 3 is its own ancestor: 3 → 4 → 2 → 3",
        "word 4 is its own ancestor: 4 → 2 → 3 → 4"]
    assert [[r.line for r in p.related] for p in cycle] == [[3, 4], [4, 2], [2, 3]]
    gold = write(tmp_path, "g.conllu", pred.replace("2\tb\tb\tX\t_\t_\t3", "2\tb\tb\tX\t_\t_\t1"))
    main(["evaluate", path, str(gold), "--json"])
    refused = json.loads(capsys.readouterr().out)["sentences"]["refused"]["first"][0]
    assert [r["code"] for r in refused["reasons"]] == ["cycle"]


def test_a_long_cycle_costs_linear_time_and_output(tmp_path, capsys):
    n = 3000
    pred = "# sent_id = c\n" + "".join(f"{i}\tw\tw\tX\t_\t_\t{i % n + 1}\tdep\t_\t_\n" for i in range(1, n + 1)) + "\n"
    path = write(tmp_path, "c.conllu", pred)
    main(["evaluate", str(path), str(path), "--json"])
    assert len(capsys.readouterr().out) < 20_000  # a cycle named once, not once per word
    main(["check", str(path), "--json"])
    out = capsys.readouterr().out
    diagnostics = json.loads(out)["files"][0]["diagnostics"]
    cycle = [d for d in diagnostics if d["code"] == "cycle"]
    assert len(cycle) == n  # check lists everything: each HEAD of the cycle once
    # Each of them short (the cycle's words cut short in the middle): a few
    # hundred characters (indented JSON) beside the path, which pytest's workers make long.
    assert len(out) < (400 + len(str(path))) * n
    # The editor's view is capped, per kind and per document: the first ones, and one summary.
    for settings in (Settings(max_diagnostics_per_document=10_000), Settings()):
        engine = Engine(str(tmp_path), settings)
        engine.open(str(path), str(path), pred, 1)
        engine.rescore(str(path))
        everything = engine.diagnostics(str(path))
        shown = [p for p in everything if p.code == "cycle"]
        assert "more 'cycle' diagnostics" in shown[-1].message
        assert len(shown) - 1 + int(shown[-1].message.split()[0]) == n  # (each one shown or counted)
        assert len(everything) <= settings.max_diagnostics_per_document
        if settings.max_diagnostics_per_document == 10_000:
            assert len(shown) == settings.max_diagnostics + 1
    assert len(everything) == Settings().max_diagnostics_per_document  # (the summaries take places)


# --- low confidence -----------------------------------------------------------------

CONFIDENT = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ Conf=UPOS:0.5,HEAD:0.4,LEMMA:0.99\n"
                   "2 cat cat NOUN NN _ 0 root _ Conf=0.3",
                   "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ Conf=0.95\n2 sat sit VERB VBD _ 0 root _ Conf=DEPREL:0.1")


def low(tmp_path, **settings):
    path = write(tmp_path, "low.conllu", CONFIDENT)
    engine = Engine(str(tmp_path), Settings(**settings))
    engine.open(str(path), str(path), CONFIDENT, 1)
    engine.rescore(str(path))
    return [p for p in engine.diagnostics(str(path)) if p.code == "low-confidence"], engine.score(str(path))


def test_low_confidence_is_one_quiet_diagnostic_per_word_by_default(tmp_path):
    from annoscore.scorer.problems import Severity
    problems, score = low(tmp_path)
    assert score["counts"]["lowConfidence"] == 2 + 6 + 1  # cells
    assert [p.line for p in problems] == [1, 2, 6]  # words
    assert all(p.severity == Severity.HINT for p in problems)
    first = CONFIDENT.split("\n")[1]
    assert problems[0].message == "low confidence: UPOS 'DET' 0.50, HEAD '2' 0.40 (below 0.8)"
    assert first[problems[0].start:problems[0].end].startswith("DET") and first[:problems[0].end].endswith("\t2")
    cells, _ = low(tmp_path, low_confidence="cell")
    assert len(cells) == 9


def test_past_the_cap_the_cells_left_are_summed_up(tmp_path):
    problems, _ = low(tmp_path, max_diagnostics=1)
    assert len(problems) == 2
    assert problems[-1].message.startswith("7 more cells below the confidence threshold 0.8 are not shown")


# --- sentence boundaries --------------------------------------------------------------

SPLIT_GOLD = conllu("# sent_id = g1\n1 Hi hi INTJ _ _ 0 root _ _\n2 . . PUNCT _ _ 1 punct _ _",
                    "# sent_id = g2\n1 Go go VERB _ _ 0 root _ _\n2 now now ADV _ _ 1 advmod _ _",
                    "# sent_id = g3\n1 Yes yes INTJ _ _ 0 root _ _\n2 , , PUNCT _ _ 3 punct _ _\n"
                    "3 sure sure ADJ _ _ 1 conj _ _")
# The parser joined g1 and g2, and cut g3 after the comma (no sent_ids: aligned as one running text).
SPLIT_PRED = conllu("1 Hi hi INTJ _ _ 0 root _ _\n2 . . PUNCT _ _ 1 punct _ _\n3 Go go VERB _ _ 1 parataxis _ _\n"
                    "4 now now ADV _ _ 3 advmod _ _",
                    "1 Yes yes INTJ _ _ 0 root _ _\n2 , , PUNCT _ _ 1 punct _ _",
                    "1 sure sure ADJ _ _ 0 root _ _")


def test_where_the_predicted_split_differs_from_golds_it_says_so(tmp_path):
    engine, path = engine_with(tmp_path, SPLIT_PRED, SPLIT_GOLD)
    found = [(p.line, SPLIT_PRED.split("\n")[p.line][p.start:p.end], p.message)
             for p in engine.diagnostics(path) if p.code == "sentence-boundary"]
    assert [(line, form) for line, form, _ in found] == [(1, "."), (6, ",")]
    assert found[0][2].startswith("gold's sentence g1 ends after '.', where this one goes on")
    assert found[1][2].startswith("this sentence ends after ',', where gold's sentence g3 goes on")
    # The same file with gold's split has none.
    engine, path = engine_with(tmp_path, SPLIT_GOLD, SPLIT_GOLD)
    assert not [p for p in engine.diagnostics(path) if p.code == "sentence-boundary"]


def test_sentence_boundaries_on_a_real_parsers_output(tmp_path):
    """The CoNLL 2018 baseline did its own sentence splitting: every
    predicted sentence end gold does not have, and every gold end the
    prediction does not have, is one sentence-boundary diagnostic."""
    import shutil
    from tests.support.data import shared_path
    from annoscore.scorer.conllu.reader import read_text
    source = shared_path("data", "predicted", "conll2018")
    shutil.copy(source / "pred" / "fr_gsd.conll18-baseline.conllu", tmp_path / "fr.conllu")
    shutil.copy(source / "gold" / "fr_gsd.conllu", tmp_path / "fr.gold.conllu")

    def ends(path) -> set[int]:
        out, offset = [], 0
        for sentence in read_text(path.read_text(encoding="utf-8")).sentences:
            offset += len(sentence.chars)
            out.append(offset)
        return set(out[:-1])

    predicted, gold = ends(tmp_path / "fr.conllu"), ends(tmp_path / "fr.gold.conllu")
    engine = Engine(str(tmp_path), Settings())
    path = str(tmp_path / "fr.conllu")
    engine.open(path, path, (tmp_path / "fr.conllu").read_text(encoding="utf-8"), 1)
    engine.rescore(path)
    messages = [p.message for p in engine.diagnostics(path) if p.code == "sentence-boundary"]
    assert sum(m.startswith("this sentence ends") for m in messages) == len(predicted - gold) > 0
    assert sum(m.startswith("gold's sentence") for m in messages) == len(gold - predicted) > 0
