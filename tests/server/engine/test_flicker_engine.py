"""What the engine shows while the UD validator's helpers re-validate many
blocks (issue 25, item 2): the findings of the sentences not changed stay
(moved with the text), those of the changed ones go until their validation
is done, and then everything equals a fresh check of the text."""

from __future__ import annotations

import pytest

from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import IN_EDITOR
from annoscore.server.engine.conllu import validation
from tests.support.flicker import big_document, rewritten


def opened(tmp_path, text: str) -> tuple[Engine, str]:
    engine = Engine(str(tmp_path), Settings(), presentation=IN_EDITOR)  # as the language server's
    engine.background_validation = True  # as the language server's
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, text, 1)
    engine.rescore(path)
    return engine, path


def shown(engine: Engine, path: str) -> set[tuple]:
    return {(p.code, p.line, p.start, p.end, p.message) for p in engine.diagnostics(path)}


def fresh(tmp_path, text: str) -> set[tuple]:
    engine = Engine(str(tmp_path), Settings(), presentation=IN_EDITOR)
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, text, 1)
    engine.rescore(path)
    return shown(engine, path)


def settled(engine: Engine, path: str) -> None:
    pending = engine.validation_pending(path)
    if pending is not None:
        pending.result(timeout=60)
        engine.rescore(path)


@pytest.fixture
def helpers(monkeypatch):
    """Blocks go to the helpers on a one-core machine too."""
    monkeypatch.setattr(validation, "helpers", lambda: 2)


def sentence_lines(text: str, first: int, count: int) -> set[int]:
    """The lines of sentences ``first`` .. ``first + count - 1`` (blank lines after them included)."""
    lines, line = set(), 0
    for k, block in enumerate(text.split("\n\n")):
        n = block.count("\n") + 2
        if first <= k < first + count:
            lines.update(range(line, line + n))
        line += n
    return lines


def test_a_whole_new_text_validates_only_the_blocks_it_changed(tmp_path, helpers):
    text = big_document()
    engine, path = opened(tmp_path, text)
    settled(engine, path)
    before = shown(engine, path)
    assert sum(1 for d in before if d[0] == "non-unique-sent-id") >= 5
    assert sum(1 for d in before if d[0] == "missing-text") >= 30
    lines = text.split("\n")
    lines.insert(3, "")  # a blank line inside sentence 1: one sentence becomes two
    edited = "\n".join(lines)
    engine.change(path, 2, [edited])  # as an editor sending the whole text
    engine.rescore(path)
    assert engine.validation_pending(path) is None  # nothing left to the helpers
    assert shown(engine, path) == fresh(tmp_path, edited)


def test_findings_of_unchanged_sentences_stay_while_the_helpers_validate(tmp_path, helpers):
    text = big_document()
    engine, path = opened(tmp_path, text)
    settled(engine, path)
    start, count = 100, validation.MIN_BLOCKS + 50
    edited = rewritten(text, start, count, "x")
    engine.change(path, 2, [edited])
    engine.rescore(path)
    assert engine.validation_pending(path) is not None, "the edit must leave blocks to the helpers"
    during, expected = shown(engine, path), fresh(tmp_path, edited)
    changed = sentence_lines(edited, start, count)
    # Nothing lost off the changed sentences, nothing shown that a fresh check
    # lacks (here the document-wide findings are those of the fresh check too).
    lost = {d for d in expected - during if d[1] not in changed}
    assert not lost, sorted(lost)[:5]
    assert during <= expected
    assert any(d[0] == "non-unique-sent-id" and d[1] not in changed for d in during)
    assert any(d[0] == "missing-text" and d[1] > max(changed) for d in during)  # moved with the text
    assert expected - during  # (those of the changed sentences are pending)
    settled(engine, path)
    assert shown(engine, path) == expected
