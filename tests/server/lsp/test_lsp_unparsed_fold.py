"""An unparsed sentence over the wire (every client preset): one ``unparsed``
diagnostic whose relatedInformation holds the UD validator's findings on
the missing HEADs, at their cells in the client's units and in the
document; ``foldUnparsedFindings: false`` publishes each; parsing the
sentence takes both away (see server/engine/conllu/unparsed_fold.py)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp.test_lsp import client, configure, diagnostics_for, open_document  # noqa: F401  (the fixture, every preset)
from tests.server.lsp.test_lsp_validation import cell_range, range_of
from tests.server.engine.test_unparsed_fold import PARSED, unparsed

TEXT = PARSED + unparsed("a2", "rüns")  # (ü: client units differ from code points after it)
HEADS = [(line, 6) for line in (8, 9, 10)]  # the unparsed sentence's word lines, the HEAD column


def head_findings(diagnostics) -> list:
    return [d for d in diagnostics if d.code in ("invalid-head", "unknown-head")]


@pytest.mark.asyncio(loop_scope="function")
async def test_an_unparsed_sentence_publishes_one_diagnostic_carrying_its_head_findings(client: LanguageClient):
    path = client.root / "en_fold-ud-dev.conllu"  # a UD name: English, level 5
    path.write_text(TEXT, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    assert head_findings(diagnostics) == []
    folded, = [d for d in diagnostics if d.code == "unparsed"]
    assert "folded here: the UD validator's 6 findings on the missing HEADs (invalid-head, unknown-head; " \
           "annoscore.foldUnparsedFindings: false shows each)" in folded.message
    related = folded.related_information
    assert [r.location.uri for r in related] == [uri] * 6
    assert [r.message.split(": ")[0] for r in related] == ["invalid-head", "unknown-head"] * 3
    cells = [cell_range(client, TEXT, line, column) for line, column in HEADS]
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
