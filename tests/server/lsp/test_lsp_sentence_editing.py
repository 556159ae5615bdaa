"""Structural edits through a real client (pytest-lsp, every preset): each
operation of ``annoscore.edit`` answers ONE versioned WorkspaceEdit, which
the test applies as a client does and sends back as a change; a request for
an older version than the server holds is refused, never applied; and gold's
value offered as a quick fix where the cursor is."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.lsp import PRED, cell, line_of, wait_for, workspace
from tests.server.lsp.test_lsp import open_document, shared_client, shared_server  # noqa: F401  (the fixtures, under every preset)

from annoscore.scorer.conllu.editing.operations import OPERATIONS

TEXT = "\n".join(row if row.startswith("#") else "\t".join(row.split()) for row in """\
# sent_id = s1
# text = du chat noir. Ça dort.
1-2 du _ _ _ _ _ _ _ _
1 de de ADP _ _ 3 case _ _
2 le le DET _ Definite=Def 3 det _ _
3 chat chat NOUN _ Number=Sing 0 root _ _
4 noir noir ADJ _ _ 3 amod _ SpaceAfter=No
5 . . PUNCT _ _ 3 punct _ _
6 Ça ça PRON _ _ 7 nsubj _ _
7 dort dormir VERB _ _ 3 parataxis _ SpaceAfter=No
8 . . PUNCT _ _ 7 punct _ _

# sent_id = s2
# text = Fin.
1 Fin fin NOUN _ _ 0 root _ SpaceAfter=No
2 . . PUNCT _ _ 1 punct _ _
""".split("\n"))


def utf16_offset(line: str, character: int) -> int:
    units = 0
    for k, c in enumerate(line):
        if units >= character:
            return k
        units += 2 if ord(c) > 0xFFFF else 1
    return len(line)


def apply_edit(text: str, edit: dict, uri: str, version: int) -> str:
    """A WorkspaceEdit (as JSON) applied as a client applies it: only to the
    version it names."""
    (change,) = edit["documentChanges"]
    assert change["textDocument"] == {"uri": uri, "version": version}
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: dict) -> int:
        return starts[position["line"]] + utf16_offset(lines[position["line"]], position["character"])
    for item in sorted(change["edits"], key=lambda e: offset(e["range"]["start"]), reverse=True):
        text = text[:offset(item["range"]["start"])] + item["newText"] + text[offset(item["range"]["end"]):]
    return text


class Session:
    """A document edited only through the server's operations."""

    def __init__(self, client: LanguageClient, path: Path, text: str) -> None:
        self.client, self.text, self.version = client, text, 1
        path.write_text(text)
        self.uri = open_document(client, path, text)

    async def run(self, operation: str, line: int, character: int = 0, version: int | None = None, **args) -> dict:
        return await self.client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="annoscore.edit", arguments=[{"uri": self.uri, "version": self.version if version is None
                                                  else version, "line": line, "character": character,
                                                  "operation": operation, **args}]))

    async def apply(self, operation: str, line: int, character: int = 0, **args) -> str:
        answer = await self.run(operation, line, character, **args)
        assert "edit" in answer, answer
        self.text = apply_edit(self.text, answer["edit"], self.uri, self.version)
        self.version += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=self.text)]))
        return answer["label"]

    def line(self, k: int) -> list[str]:
        return self.text.split("\n")[k].split("\t")


@pytest.mark.asyncio(loop_scope="module")
async def test_every_operation_answers_one_versioned_edit(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    s = Session(client, Path(client.root) / "a.conllu", TEXT)
    await wait_for(lambda: s.uri in client.diagnostics)
    done = set()
    assert await s.apply("insertAfter", 5, form="gros", upos="ADJ", head=3, deprel="amod") == \
        "Insert 'gros' after 3 'chat'"
    assert s.line(6)[:2] == ["4", "gros"] and s.line(7)[:2] == ["5", "noir"] and s.line(10)[6] == "3"
    assert s.text.split("\n")[1] == "# text = du chat gros noir. Ça dort."
    done.add("insertAfter")
    assert await s.apply("attach", 6, head=5, deprel="amod") == "Attach 4 'gros' to 5 'noir' as amod"
    assert s.line(6)[6] == "5"
    done.add("attach")
    assert (await s.run("attach", 7, head=4))["refused"].startswith("attaching 5 'noir' to 4 'gros' would make a cycle")
    assert await s.apply("delete", 6) == "Delete 4 'gros'"
    assert s.text == TEXT
    done.add("delete")
    assert await s.apply("insertBefore", 5, form="gros", upos="ADJ", head=3) == "Insert 'gros' before 3 'chat'"
    assert s.line(5)[:2] == ["3", "gros"]
    done.add("insertBefore")
    await s.apply("delete", 5)
    assert s.text == TEXT
    # A word split at the cursor (character 2 of "chat" is 'a'), merged again.
    form_at = s.text.split("\n")[5].index("chat")
    assert (await s.apply("splitWord", 5, form_at + 2)).startswith("Split 3 'chat' into 'ch' + 'at'")
    assert s.line(5)[:2] == ["3-4", "chat"]
    done.add("splitWord")
    assert await s.apply("mergeWithNext", 6) == "Merge 3 'ch' and 4 'at' into 'chat'"
    assert s.text == TEXT
    done.add("mergeWithNext")
    assert await s.apply("undoToken", 2) == "Undo the multiword token 1-2 'du'"
    assert await s.apply("makeToken", 2) == "Make words 1-2 the multiword token 'dele'"
    done |= {"undoToken", "makeToken"}
    s2 = Session(client, Path(client.root) / "b.conllu", TEXT)
    label = await s2.apply("splitSentence", 8)
    assert label == "Split the sentence before 6 'Ça' (new sent_id s1-2); 'dort' is the new root of the second part"
    assert "# sent_id = s1-2" in s2.text.split("\n") and "# text = Ça dort." in s2.text.split("\n")
    done.add("splitSentence")
    assert (await s2.apply("joinWithNext", 0)).startswith("Join with the next sentence; its root 'dort' attached to 'chat'")
    assert s2.text == TEXT
    done.add("joinWithNext")
    assert done == set(OPERATIONS)
    # Nothing of this was written by the server.
    assert (Path(client.root) / "a.conllu").read_text() == TEXT


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_asked_for_an_older_version_is_refused_while_rescores_race(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    s = Session(client, Path(client.root) / "a.conllu", TEXT)
    await wait_for(lambda: s.uri in client.diagnostics)
    for k in range(5):
        old = s.version
        # A change (which starts a rescore) and, right after it, requests for the old and the new version.
        s.version += 1
        s.text = s.text.replace(f"# sent_id = s2", f"# sent_id = s2{'x' * (k + 1)}", 1) if k == 0 else \
            s.text.replace("s2x", "s2xx", 1)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=s.uri, version=s.version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=s.text)]))
        stale = await s.run("delete", 6, version=old)
        assert stale == {"refused": f"the document changed since this edit was asked for (version {old}; "
                                    f"it is {s.version} now): nothing was changed, ask again"}
        fresh = await s.run("delete", 6)
        assert fresh["edit"]["documentChanges"][0]["textDocument"]["version"] == s.version


@pytest.mark.asyncio(loop_scope="module")
async def test_code_actions_at_the_cursor_offer_the_operations_without_input(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    s = Session(client, Path(client.root) / "a.conllu", TEXT)
    await wait_for(lambda: s.uri in client.diagnostics)
    here = types.Position(line=8, character=0)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=s.uri), range=types.Range(start=here, end=here),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Refactor])))
    titles = [a.title for a in actions]
    assert titles == ["Merge 6 'Ça' and 7 'dort' into 'Çadort'", "Make words 6-7 the multiword token 'Çadort'",
                      "Delete 6 'Ça'", "Split the sentence before 6 'Ça' (new sent_id s1-2); "
                      "'dort' is the new root of the second part", "Join with the next sentence; its root 'Fin' "
                      "attached to 'chat' as parataxis; its sent_id s2 goes"]
    assert all(a.kind == types.CodeActionKind.RefactorRewrite and a.edit.document_changes for a in actions)
    only_fixes = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=s.uri), range=types.Range(start=here, end=here),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix])))
    assert not only_fixes


@pytest.mark.asyncio(loop_scope="module")
async def test_wrong_arguments_are_refused_with_a_reason(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    s = Session(client, Path(client.root) / "a.conllu", TEXT)
    await wait_for(lambda: s.uri in client.diagnostics)
    with pytest.raises(Exception, match="'operation' must be one of"):
        await s.run("explode", 5)
    assert (await s.run("attach", 5, head="nine"))["refused"] == "the head must be a word's ID, not 'nine'"
    assert (await s.run("delete", 0))["refused"] == "put the cursor on a word's line"
    assert (await s.run("delete", 11))["refused"] == "put the cursor on a sentence's line"


def hand_inserted() -> tuple[str, int]:
    """TEXT with a line typed in after word 3 without renumbering (the new
    line takes ID 4, the old 4 keeps it), and that line's number."""
    lines = TEXT.split("\n")
    new = "\t".join("4 gros gros ADJ _ _ 3 amod _ _".split())
    lines.insert(6, new)
    return "\n".join(lines), 7  # the old word 4 is the first out of sequence


@pytest.mark.asyncio(loop_scope="module")
async def test_ids_out_of_sequence_show_one_cause_with_the_fix_that_renumbers(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    text, first_bad = hand_inserted()
    s = Session(client, Path(client.root) / "a.conllu", text)
    await wait_for(lambda: client.diagnostics.get(s.uri))
    diagnostics = client.diagnostics[s.uri]
    in_sentence = [d for d in diagnostics if d.range.start.line <= 11]
    (cause,) = [d for d in in_sentence if d.severity == types.DiagnosticSeverity.Error]
    assert cause.code == "ids-out-of-sequence" and cause.range.start.line == first_bad
    assert cause.message.startswith("IDs are out of sequence from here: 4 where 5 was expected")
    related = [r.message for r in cause.related_information]
    # The consequences, each at its place: IDs out of order, the word that is now its own head.
    assert any(m.startswith("format-id-order: word ID 4, expected 5") for m in related)
    assert any(m.startswith("cycle: ") for m in related)
    assert not any(d.code in ("format-id-order", "cycle", "word-id-sequence") for d in diagnostics)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=s.uri), range=cause.range,
        context=types.CodeActionContext(diagnostics=[cause], only=[types.CodeActionKind.QuickFix])))
    (fix,) = actions
    assert fix.title == "Renumber this sentence" and fix.is_preferred
    edit = fix.edit.document_changes[0]
    assert edit.text_document.version == s.version
    s.text = apply_edit(s.text, _unstructured(fix.edit), s.uri, s.version)
    expected = TEXT.split("\n")
    expected.insert(6, "\t".join("4 gros gros ADJ _ _ 3 amod _ _".split()))
    assert s.text.split("\n")[6:12] == expected[6:7] + [
        "\t".join("5 noir noir ADJ _ _ 3 amod _ SpaceAfter=No".split()),
        "\t".join("6 . . PUNCT _ _ 3 punct _ _".split()), "\t".join("7 Ça ça PRON _ _ 8 nsubj _ _".split()),
        "\t".join("8 dort dormir VERB _ _ 3 parataxis _ SpaceAfter=No".split()),
        "\t".join("9 . . PUNCT _ _ 8 punct _ _".split())]
    s.version += 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=s.uri, version=s.version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=s.text)]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=s.uri)))  # (rescored on save by default)
    await wait_for(lambda: client.versions.get(s.uri) == s.version)
    # Left in the sentence: the typed word is not in '# text' (a finding of its own, with its own fix).
    assert [d.code for d in client.diagnostics[s.uri] if d.severity == types.DiagnosticSeverity.Error
            and d.range.start.line <= 12] == ["text-form-mismatch"]


def _unstructured(edit: types.WorkspaceEdit) -> dict:
    return {"documentChanges": [{"textDocument": {"uri": c.text_document.uri, "version": c.text_document.version},
                                 "edits": [{"range": {"start": {"line": e.range.start.line,
                                                                "character": e.range.start.character},
                                                      "end": {"line": e.range.end.line,
                                                              "character": e.range.end.character}},
                                            "newText": e.new_text} for e in c.edits]}
                                for c in edit.document_changes]}


def test_check_still_reports_every_finding_as_the_validator_does(tmp_path: Path):
    import subprocess
    import sys
    text, _ = hand_inserted()
    path = tmp_path / "a.conllu"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "annoscore", "check", str(path)], capture_output=True, text=True)
    assert "ids-out-of-sequence" not in done.stdout
    assert "word-id-sequence" in done.stdout and "format-id-order" in done.stdout, done.stdout


# --- gold's value at the cursor ----------------------------------------------------
@pytest.mark.asyncio(loop_scope="module")
async def test_golds_value_is_offered_on_any_cell_that_differs_without_gold_diff_diagnostics(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
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
