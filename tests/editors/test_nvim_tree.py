""":AnnoscoreTree in a real, headless Neovim: the tree of the sentence under
the cursor follows it (one render per sentence, none within one), <CR> on
a line of the tree goes there; and navigation past the diagnostics' cap."""

from __future__ import annotations

import pytest

from annoscore.server.engine import Engine
from annoscore.server.engine.tree import sentence_tree
from annoscore.server.engine.treetext import render_tree
from tests.editors.test_nvim import SERVER, demo_pair, lines_of, run_scenario, runs, token_line


@pytest.fixture(scope="module", params=[p for p in runs() if p.values[0] is None or p.values[0][1] == "auto"])
def session(request, tmp_path_factory):
    nvim = request.param[0]
    folder = tmp_path_factory.mktemp("nvim-tree")
    pred, gold = demo_pair(folder)
    lines = lines_of(pred)
    engine = Engine(str(folder))
    engine.open(str(pred), str(pred), pred.read_text(encoding="utf-8"), 1)
    engine.rescore(str(pred))

    def expected(line: int) -> tuple[list[str], list]:
        return render_tree(sentence_tree(engine, str(pred), line))

    other = token_line(lines, "demo-4", 3)
    other_rows = expected(other)[1]
    jump_to = token_line(lines, "demo-4", 6)
    spec = {"scenario": "tree", "options": {"cmd": SERVER, "settings": {"maxDiagnostics": 2}},
            "tree": {"first": token_line(lines, "demo-2", 2), "same": token_line(lines, "demo-2", 5),
                     "other": other, "jump_row": other_rows.index(jump_to) + 1}}
    results = run_scenario(nvim, folder, spec, file=pred.name)
    return {"results": results, "spec": spec, "expected": expected, "lines": lines, "jump_to": jump_to}


def test_the_tree_shows_the_sentence_under_the_cursor(session):
    first = session["results"]["tree"]["first"]
    text, rows = session["expected"](session["spec"]["tree"]["first"])
    assert first["lines"] == text and first["renders"] == 1
    assert first["lines"][0].startswith("demo-2 · Annotators don't like broken trees.")
    assert any("✗ gold has no word for this (gold: do n't)" in line for line in first["lines"])
    # The tree's cursor is on the word the cursor is on.
    assert rows[first["row"] - 1] == session["spec"]["tree"]["first"]


def test_moving_within_the_sentence_does_not_render_again(session):
    same = session["results"]["tree"]["same"]
    first = session["results"]["tree"]["first"]
    assert (same["renders"], same["pending"], same["lines"]) == (first["renders"], False, first["lines"])
    _, rows = session["expected"](session["spec"]["tree"]["same"])
    assert rows[same["row"] - 1] == session["spec"]["tree"]["same"]  # it followed the cursor all the same


def test_moving_to_another_sentence_renders_it_once(session):
    other = session["results"]["tree"]["other"]
    text, _ = session["expected"](session["spec"]["tree"]["other"])
    assert other["lines"] == text and other["renders"] == session["results"]["tree"]["same"]["renders"] + 1
    assert other["lines"][0].startswith("demo-4 ·") and any("cycle" in line for line in other["lines"])
    assert other["windows"] == session["results"]["tree"]["first"]["windows"]  # the same split, not a new one


def test_enter_on_a_line_of_the_tree_goes_to_it(session):
    jumped = session["results"]["tree"]["jumped"]
    assert jumped["in_source"] and tuple(jumped["cursor"]) == (session["jump_to"], 0)


def test_navigation_goes_past_the_diagnostics_cap(session):
    """maxDiagnostics 2: two low-confidence diagnostics (and a summary) are
    published, and the command still reaches all seven words."""
    navigation = session["results"]["navigation"]
    low = [d for d in navigation["diagnostics"] if d["code"] == "low-confidence"]
    assert len(low) == 3
    lines = session["lines"]
    words = [n for n, line in enumerate(lines) if "\t" in line and "Conf=" in line
             and any(float(v.split(":")[-1]) < 0.8 for v in line.split("Conf=")[1].split("|")[0].split(","))]
    assert [c[0] for c in navigation["walk"]] == words and len(words) == 7
    assert not navigation["walk_end"]["found"]

