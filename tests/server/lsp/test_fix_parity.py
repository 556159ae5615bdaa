"""``annoscore fix`` makes the editor's quick fix: for each certain fix, the
text `fix --select CODE` writes equals the text the editor has after
applying the quick fixes the server offers for that code's diagnostics."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.fix import FAULTY_CODES, FAULTY_TEXT
from tests.support.lsp import PRESETS
from annoscore.server.cli import main
from tests.server.lsp.test_lsp import client, diagnostics_for, open_document  # noqa: F401  (the fixture)
from tests.server.lsp.test_lsp_sentence_editing import utf16_offset


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """Text edits applied as a client applies them (UTF-16 positions, the last first)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return starts[position.line] + utf16_offset(lines[position.line], position.character)
    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


@pytest.mark.asyncio(loop_scope="function")
async def test_each_certain_fix_is_the_editors_quick_fix(client: LanguageClient, tmp_path, capsys):
    if client.preset != PRESETS[0]:
        pytest.skip("one client is enough (the positions are converted as everywhere: test_lsp_validation.py)")
    path = client.root / "faults.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    offered: dict[str, list[types.TextEdit]] = {}
    for diagnostic in diagnostics:
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
        # (the certain fix is the preferred one; "did you mean" guesses never are)
        preferred = [a for a in actions or () if a.is_preferred and a.kind == types.CodeActionKind.QuickFix]
        if not preferred:
            continue
        (action,) = preferred
        edit = action.edit
        edits = list(edit.changes[uri]) if edit.changes else [e for c in edit.document_changes for e in c.edits]
        offered.setdefault(str(diagnostic.code), []).extend(edits)
    assert set(offered) == FAULTY_CODES  # every fault has its quick fix, and fix makes each
    for code, edits in sorted(offered.items()):
        # (two findings of one mend, e.g. # text: the editor's first fix mends both)
        unique = list({(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character,
                        e.new_text): e for e in edits}.values())
        editor = applied(FAULTY_TEXT, unique)
        target = tmp_path / f"{code}.conllu"
        target.write_text(FAULTY_TEXT, encoding="utf-8")
        assert main(["fix", "--select", code, str(target)]) == 0, code
        assert target.read_text(encoding="utf-8") == editor, code
    capsys.readouterr()
