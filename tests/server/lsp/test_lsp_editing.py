"""Helping the annotator edit, through a real client: quick fixes offered
where the cursor is."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.lsp import PRED, cell, line_of, wait_for, workspace
from tests.server.lsp.test_lsp import client, open_document  # noqa: F401  (the fixture, under every preset)


@pytest.mark.asyncio(loop_scope="function")
async def test_golds_value_is_offered_on_any_cell_that_differs_without_gold_diff_diagnostics(client: LanguageClient):
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    await wait_for(lambda: client.scores)
    assert not any(d.code == "gold-diff" for d in client.diagnostics[uri])  # off by default
    s1 = line_of(PRED, "# sent_id = s1")
    line, start, end = cell(PRED, s1 + 2, 3)  # VERB where gold has NOUN

    async def actions_at(line: int, character: int):
        here = types.Position(line=line, character=character)
        return await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=here, end=here),
            context=types.CodeActionContext(diagnostics=[])))

    actions = await actions_at(line, start + 1)
    # (the sentence operations at the cursor come after the fixes, as refactorings: test_lsp_sentence_editing.py)
    assert [a.title for a in actions if a.kind == types.CodeActionKind.QuickFix] == ["Use gold's UPOS 'NOUN'"]
    assert all(a.kind == types.CodeActionKind.RefactorRewrite for a in actions[1:])
    (edit,) = actions[0].edit.changes[uri]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character, edit.new_text) == \
        (line, start, end, "NOUN")
    same = cell(PRED, s1 + 2, 2)  # LEMMA cat, as gold has it
    assert all(a.kind == types.CodeActionKind.RefactorRewrite for a in await actions_at(same[0], same[1]))
    # A comment line: no fix; of the sentence operations only joining needs no word.
    assert [a.title for a in await actions_at(s1, 2)] == [
        "Join with the next sentence; its root 'a' attached to 'sat' as parataxis; its sent_id s2 goes"]
