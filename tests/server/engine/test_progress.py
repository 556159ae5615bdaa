"""Annotation progress: sentences with a HEAD in every word, and those
carrying the marker comment, in the score payload and the report."""

from __future__ import annotations

from dataclasses import replace

from tests.support.lsp import GOLD, PRED, line_of
from annoscore.server.config import Settings, apply_editor_settings
from tests.server.engine.test_tree import opened

MARKED = "\n".join([
    "# sent_id = a\n# annotated\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n",
    "# sent_id = b\n# annotated = yes\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n",
    "# sent_id = c\n#annotated: 2024-05-01 ana\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n",
    "# sent_id = d\n# annotated = no\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n",      # said not to be
    "# sent_id = e\n# annotated_by = ana\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n",   # another key
    "# sent_id = f\n1\tannotated\tx\tX\t_\t_\t0\troot\t_\tannotated\n",          # not a comment
    "# sent_id = g\n# checked\n1\tx\tx\tX\t_\t_\t_\t_\t_\t_\n",
]) + "\n"


def test_sentences_with_a_head_in_every_word(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    progress = engine.score(path)["progress"]
    # s4 lacks one HEAD, s5 every one: 7 of the 9.
    assert progress == {"sentences": 9, "annotated": 7, "marker": "annotated", "marked": 0}
    assert "Annotation progress: 7 of 9 sentences (77.78%) with a HEAD in every word; 0 marked '# annotated'" \
        in engine.report(path)


def test_the_marker_comment_and_its_forms(tmp_path):
    engine, path = opened(tmp_path, MARKED)
    assert engine.score(path)["progress"] == {"sentences": 7, "annotated": 6, "marker": "annotated", "marked": 3}
    engine.settings = replace(engine.settings, progress_marker="checked")
    assert engine.score(path)["progress"]["marked"] == 1
    engine.settings = replace(engine.settings, progress_marker="")
    progress = engine.score(path)["progress"]
    assert progress["marker"] is None and progress["marked"] is None
    assert "marked" not in engine.report(path)


def test_progress_follows_edits(tmp_path):
    """A HEAD filled in, a marker added (a line more, the same sentences):
    the index is patched, not made again, and the counts follow."""
    engine, path = opened(tmp_path, PRED)
    index = engine.documents[path].results.sentences
    assert engine.score(path)["progress"]["marked"] == 0
    s4 = line_of(PRED, "# sent_id = s4")
    row = PRED.split("\n")[s4 + 2]  # "2 g g X _ _ _ dep _ _"
    head = row.index("\t_\tdep") + 1
    engine.change(path, 2, [((s4 + 2, head), (s4 + 2, head + 1), "1")])
    engine.change(path, 3, [((s4, 0), (s4, 0), "# annotated\n")])
    engine.rescore(path)
    assert engine.documents[path].results.sentences is index  # patched in place
    assert engine.score(path)["progress"] == {"sentences": 9, "annotated": 8, "marker": "annotated", "marked": 1}


def test_the_marker_setting_is_checked(tmp_path):
    settings, problems = apply_editor_settings(Settings(), {"progressMarker": "done"})
    assert settings.progress_marker == "done" and not problems
    for bad in ("two words", "a=b", 3, "x" * 41):
        settings, problems = apply_editor_settings(Settings(), {"progressMarker": bad})
        assert settings.progress_marker == "annotated" and len(problems) == 1 and "progressMarker" in problems[0].message
    (tmp_path / "annoscore.toml").write_text('progress_marker = "reviewed"\n', encoding="utf-8")
    from annoscore.server.config import load_project
    settings, problems = load_project(str(tmp_path))
    assert settings.progress_marker == "reviewed" and not problems


def test_against_a_test_split_progress_stays_and_gold_is_not_shown(tmp_path):
    """Gold withheld (a declared test split): the score and the report still
    say how far the annotation has come; the tree and next say why they show
    no gold, instead of "not scored yet"."""
    from annoscore.server.engine.seek import find
    from annoscore.server.engine.tree import sentence_tree
    from tests.server.engine.test_engine_splits import opened as opened_in, workspace
    engine = workspace(tmp_path)
    path = opened_in(engine, tmp_path, "test.conllu")
    payload = engine.score(path)
    assert payload["testSplit"] is True
    assert payload["progress"]["sentences"] == payload["progress"]["annotated"] == 3
    report = engine.report(path)
    assert "--final" in report and "Annotation progress: 3 of 3 sentences" in report
    tree = sentence_tree(engine, path, 2)
    assert tree["gold"] is None and "test split" in tree["goldNote"]
    found = find(engine, path, 0, 0, "gold-diff")
    assert found.line is None and found.message == "no cell that differs from gold: gold is a declared " \
        "test split (test split: run annoscore evaluate --final)"
