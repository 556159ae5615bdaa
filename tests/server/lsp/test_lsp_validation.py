"""UD validation live in the editor, through a real client (pytest-lsp) under
the VS Code and Neovim presets: the test id as the code and in ``data``,
the exact cells in the client's position units, an edit validated again,
one diagnostic for a problem annoscore finds too, the settings, the notes,
and the quick fixes; an unparsed sentence: one ``unparsed`` diagnostic whose
relatedInformation holds the UD validator's findings on the missing HEADs,
at their cells in the client's units; ``foldUnparsedFindings: false``
publishes each; parsing the sentence takes both away (see
server/engine/conllu/unparsed_fold.py)."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.lsp import tabs, wait_for
from tests.server.lsp.test_lsp import client, settings_client, shared_client, shared_server, configure, diagnostics_for, open_document  # noqa: F401  (the fixtures, every preset)
from tests.server.engine.test_unparsed_fold import PARSED, unparsed

# Two sentences, valid UD but for what the tests break; "Ñandú" makes the
# columns after it differ in code points, UTF-16 units and UTF-8 bytes.
VALID = tabs("""
# sent_id = v1
# text = Ñandú runs.
1 Ñandú ñandú PROPN NNP Number=Sing 2 nsubj _ _
2 runs run VERB VBZ Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No
3 . . PUNCT . _ 2 punct _ _

# sent_id = v2
# text = It runs.
1 It it PRON PRP Case=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs 2 nsubj _ _
2 runs run VERB VBZ Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No
3 . . PUNCT . _ 2 punct _ _
""")


def units(client: LanguageClient, text: str) -> int:
    """The length of ``text`` in the client's position units."""
    if client.preset == "neovim@v0.11.0":  # (the preset that asks for UTF-8)
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def cell_range(client: LanguageClient, text: str, line: int, column: int) -> tuple[int, int, int]:
    row = text.split("\n")[line]
    cells = row.split("\t")
    before = "\t".join(cells[:column]) + ("\t" if column else "")
    return line, units(client, before), units(client, before + cells[column])


def range_of(d: types.Diagnostic) -> tuple[int, int, int]:
    assert d.range.start.line == d.range.end.line
    return d.range.start.line, d.range.start.character, d.range.end.character


def save(client: LanguageClient, uri: str, version: int, line: int, start: int, end: int, new: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line, start), end=types.Position(line, end)), text=new)]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


@pytest.mark.asyncio(loop_scope="module")
async def test_findings_on_their_cells_with_the_test_id_and_an_edit_validated_again(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    text = VALID.replace("1\tÑandú\tñandú\tPROPN", "1\tÑandú\tñandú\tNOUNX")
    path = client.root / "en_live-ud-dev.conllu"  # a UD name: English, level 5
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    upos = [d for d in diagnostics if d.code == "unknown-upos"]
    assert len(upos) == 1
    assert range_of(upos[0]) == cell_range(client, text, 2, 3)  # the UPOS cell, after Ñandú's two cells
    assert upos[0].data == {"test_id": "unknown-upos", "level": 2, "class": "MORPHO"}
    assert upos[0].severity == types.DiagnosticSeverity.Error and upos[0].source == "annoscore"
    # Number with a UPOS English does not know: level 4, from the language's data.
    assert {d.code for d in diagnostics} == {"unknown-upos", "feature-upos-not-permitted"}
    # The UPOS mended: both go; the second sentence gets a FEATS out of order.
    line, start, end = cell_range(client, text, 2, 3)
    save(client, uri, 2, line, start, end, "PROPN")
    after = await diagnostics_for(client, uri, version=2)
    assert list(after) == []
    text = text.replace("\tNOUNX\t", "\tPROPN\t")
    line, start, end = cell_range(client, text, 8, 5)
    save(client, uri, 3, line, start, end, "Person=3|Case=Nom|Gender=Neut|Number=Sing|PronType=Prs")
    after = await diagnostics_for(client, uri, version=3)
    assert [(d.code, d.data["test_id"]) for d in after] == [("unsorted-features", "unsorted-features")]
    assert range_of(after[0]) == (line, start, start + units(client, "Person=3|Case=Nom|Gender=Neut|"
                                                                      "Number=Sing|PronType=Prs"))
    # Its quick fix sorts them back.
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=after[0].range,
        context=types.CodeActionContext(diagnostics=list(after))))
    (action,) = [a for a in actions if a.diagnostics]
    assert action.title == "Sort the features" and action.kind == types.CodeActionKind.QuickFix
    (edit,) = action.edit.changes[uri]
    assert edit.new_text == "Case=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs"
    assert (edit.range.start.character, edit.range.end.character) == (start, range_of(after[0])[2])


@pytest.mark.asyncio(loop_scope="module")
async def test_a_problem_annoscore_finds_too_is_one_diagnostic_and_a_duplicate_sent_id(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    # Word 1 of v2 gets HEAD 1: its own head, annoscore's cycle and the validator's head-self-loop.
    text = VALID.replace("1\tIt\tit\tPRON\tPRP\tCase=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs\t2",
                         "1\tIt\tit\tPRON\tPRP\tCase=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs\t1")
    text = text.replace("# sent_id = v2", "# sent_id = v1")
    path = client.root / "en_twins-ud-dev.conllu"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    codes = sorted((d.code, (d.data or {}).get("test_id")) for d in diagnostics)
    assert codes == [("cycle", "head-self-loop")]  # the tree check stops the sentence's other checks
    assert range_of(diagnostics[0]) == cell_range(client, text, 8, 6)
    # The tree mended: now the sentence is read on, to its sent_id used before.
    line, start, end = cell_range(client, text, 8, 6)
    save(client, uri, 2, line, start, end, "2")
    after = await diagnostics_for(client, uri, version=2)
    assert [(d.code, d.range.start.line, d.data) for d in after] == [
        ("non-unique-sent-id", 8, {"test_id": "non-unique-sent-id", "level": 2, "class": "METADATA"})]
    assert (after[0].range.start.character, after[0].range.end.character) == (0, units(client, text.split("\n")[8]))


@pytest.mark.asyncio(loop_scope="function")
async def test_settings_turn_checks_off_and_a_missing_language_is_told_once(client: LanguageClient):
    text = VALID.replace("# text = It runs.\n", "").replace("\tNNP\tNumber=Sing\t", "\tNNP\tNumber=Sing|Zzz=Yes\t")
    path = client.root / "plain.conllu"  # no language in the name
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    assert [d.code for d in diagnostics] == ["missing-text"]  # level 3: no feature list to check against
    await wait_for(lambda: client.messages)
    assert len(client.messages) == 1 and "levels 4-5 need a language" in client.messages[0].message
    # The language set: level 5, Zzz is no English feature; METADATA left out.
    configure(client, {"validation": {"lang": "en", "exclude": ["METADATA"]}})
    await wait_for(lambda: [d.code for d in client.diagnostics.get(uri, [])] == ["feature-unknown"])
    configure(client, {"validation": {"level": "off"}})
    await wait_for(lambda: list(client.diagnostics.get(uri, [None])) == [])
    configure(client, {"validation": {"level": 9}})  # a bad value: said, and the default used
    await wait_for(lambda: any("validation.level" in m.message for m in client.messages))
    await wait_for(lambda: [d.code for d in client.diagnostics.get(uri, [])] == ["missing-text"])
    await asyncio.sleep(0.2)
    assert sum("levels 4-5 need a language" in m.message for m in client.messages) == 1  # told once


# --- an unparsed sentence: its HEAD findings folded ------------------------------
UNPARSED_TEXT = PARSED + unparsed("a2", "rüns")  # (ü: client units differ from code points after it)
HEADS = [(line, 6) for line in (8, 9, 10)]  # the unparsed sentence's word lines, the HEAD column


def head_findings(diagnostics) -> list:
    return [d for d in diagnostics if d.code in ("invalid-head", "unknown-head")]


@pytest.mark.asyncio(loop_scope="module")
async def test_an_unparsed_sentence_publishes_one_diagnostic_carrying_its_head_findings(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    path = client.root / "en_fold-ud-dev.conllu"  # a UD name: English, level 5
    path.write_text(UNPARSED_TEXT, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    assert head_findings(diagnostics) == []
    folded, = [d for d in diagnostics if d.code == "unparsed"]
    assert "folded here: the UD validator's 6 findings on the missing HEADs (invalid-head, unknown-head; " \
           "annoscore.foldUnparsedFindings: false shows each)" in folded.message
    related = folded.related_information
    assert [r.location.uri for r in related] == [uri] * 6
    assert [r.message.split(": ")[0] for r in related] == ["invalid-head", "unknown-head"] * 3
    cells = [cell_range(client, UNPARSED_TEXT, line, column) for line, column in HEADS]
    assert [(r.location.range.start.line, r.location.range.start.character, r.location.range.end.character)
            for r in related] == [c for c in cells for _ in range(2)]

    # Shown one by one, as `check` lists them: on the same cells.
    configure(client, {"foldUnparsedFindings": False})
    diagnostics = await diagnostics_for(client, uri, previous=diagnostics)
    each = head_findings(diagnostics)
    assert sorted((d.code, *range_of(d)) for d in each) == \
        sorted((r.message.split(": ")[0], r.location.range.start.line, r.location.range.start.character,
                r.location.range.end.character) for r in related)
    assert {d.message for d in each} == {r.message.split(": ", 1)[1] for r in related}
    plain, = [d for d in diagnostics if d.code == "unparsed"]
    assert not plain.related_information and "folded" not in plain.message

    # Folded again, then the sentence parsed: neither the unparsed diagnostic nor the findings.
    configure(client, {"foldUnparsedFindings": True})
    diagnostics = await diagnostics_for(client, uri, previous=diagnostics)
    assert head_findings(diagnostics) == [] and [d.code for d in diagnostics].count("unparsed") == 1
    parsed = PARSED + unparsed("a2", "rüns").replace("\t_\t_\t_\t_\n", "\t2\tnsubj\t_\t_\n", 1) \
        .replace("\t_\t_\t_\tSpaceAfter=No", "\t0\troot\t_\tSpaceAfter=No").replace("\t_\t_\t_\t_\t_\n", "\t_\t2\tpunct\t_\t_\n")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=parsed)]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    diagnostics = await diagnostics_for(client, uri, version=2)
    assert list(diagnostics) == []
