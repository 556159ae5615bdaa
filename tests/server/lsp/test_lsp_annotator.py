"""The annotator's requests through a real LSP client (pytest-lsp), under every
client preset: the sentence's tree, the outline, navigation."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.support.lsp import PRED, line_of, wait_for
from tests.server.lsp.test_lsp import open_sample, shared_client, shared_server  # noqa: F401  (the fixtures, under every preset)


def plain(value):
    """pygls's answer objects as dicts and lists."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@pytest.mark.asyncio(loop_scope="module")
async def test_the_tree_of_the_sentence_under_the_cursor(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    s1 = line_of(PRED, "# sent_id = s1")
    answer = plain(await client.protocol.send_request_async(
        "annoscore/tree", {"uri": uri, "position": {"line": s1 + 2, "character": 3}}))
    assert answer["uri"] == uri and answer["sentId"] == "s1" and answer["line"] == s1
    assert [(w["form"], w["head"], w["deprel"], w["line"]) for w in answer["words"]] == [
        ("The", 2, "det", s1 + 1), ("cat", 3, "nsubj", s1 + 2), ("sat", 0, "root", s1 + 3)]
    assert answer["words"][1]["problems"] == ["low-confidence"]
    gold = answer["gold"]
    assert gold["uri"] == (client.root / "x.gold.conllu").as_uri() and "path" not in gold
    assert [w["differs"] for w in gold["words"]] == [[], ["upos"], []]
    # The text tree for clients that show text, with the document line of each of its lines.
    answer = plain(await client.protocol.send_request_async(
        "annoscore/tree", {"uri": uri, "position": {"line": s1, "character": 0}, "format": "text"}))
    lines = answer["text"].split("\n")
    assert lines[0] == "s1 · The cat sat · UAS 3/3 LAS 3/3"
    assert lines[3].endswith("2 cat VERB nsubj low-conf UPOS  ✗ gold: UPOS NOUN")
    assert answer["rows"] == [None, s1, s1 + 1, s1 + 2, s1 + 3]
    # No sentence on a blank line, or past the end.
    for line in (s1 + 4, 999):
        assert await client.protocol.send_request_async(
            "annoscore/tree", {"uri": uri, "position": {"line": line, "character": 0}}) is None


@pytest.mark.asyncio(loop_scope="module")
async def test_bad_tree_params_are_refused(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    for params, words in [({"uri": uri}, "position"), ({"uri": 3, "position": {"line": 0, "character": 0}}, "uri"),
                          ({"uri": uri, "position": {"line": -1, "character": 0}}, "position"),
                          ({"uri": uri, "position": {"line": 0, "character": 0}, "format": "svg"}, "format")]:
        with pytest.raises(JsonRpcException) as refused:
            await client.protocol.send_request_async("annoscore/tree", params)
        assert refused.value.code == types.ErrorCodes.InvalidParams and words in refused.value.message
    at = {"uri": uri, "position": {"line": 0, "character": 0}}
    for params, words in [({**at, "kind": "typo"}, "low-confidence, refused, unparsed"),
                          ({**at, "kind": "refused", "direction": "up"}, "direction"),
                          ({"uri": uri, "kind": "refused"}, "position")]:
        with pytest.raises(JsonRpcException) as refused:
            await client.protocol.send_request_async("annoscore/next", params)
        assert refused.value.code == types.ErrorCodes.InvalidParams and words in refused.value.message


@pytest.mark.asyncio(loop_scope="module")
async def test_the_outline_lists_the_sentences(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    s2 = line_of(PRED, "# sent_id = s2")
    if isinstance(found[0], types.DocumentSymbol):
        assert [s.name for s in found] == ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s10"]
        second = found[1]
        assert second.detail == "refused: cycle · a b c" and found[4].detail == "unparsed · h i"
        assert (second.range.start.line, second.range.end.line) == (s2, s2 + 3)
        assert second.range.end.character == len(PRED.split("\n")[s2 + 3])
        assert second.selection_range.start.line == s2 == second.selection_range.end.line
    else:  # a client without hierarchical symbols
        assert found[1].name == "s2 · refused: cycle · a b c"
        assert found[1].location.uri == uri and found[1].location.range.start.line == s2


@pytest.mark.asyncio(loop_scope="module")
async def test_next_goes_to_each_place_and_says_when_there_is_none(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    s2, s3, s4 = (line_of(PRED, f"# sent_id = {s}") for s in ("s2", "s3", "s4"))

    async def next_of(kind: str, line: int, character: int = 0, direction: str = "next"):
        return plain(await client.protocol.send_request_async("annoscore/next", {
            "uri": uri, "position": {"line": line, "character": character}, "kind": kind,
            "direction": direction}))

    first = await next_of("refused", 0)
    assert first["found"] and first["sentId"] == "s2" and first["range"]["start"]["line"] == s2 + 2
    second = await next_of("refused", first["range"]["start"]["line"], first["range"]["start"]["character"])
    assert second["sentId"] == "s3" and second["range"]["start"]["line"] == s3 + 1
    third = await next_of("refused", s4 - 1)
    assert third["sentId"] == "s4" and "cycle" not in third["message"]
    back = await next_of("refused", s2, direction="previous")
    assert back == {"found": False, "kind": "refused", "direction": "previous", "total": 5,
                    "message": f"no further refused sentence above line {s2 + 1} (5 refused sentences in the document)"}
    diff = await next_of("gold-diff", 0)  # goldDiff is off: found from the pairing all the same
    assert diff["found"] and diff["range"]["start"]["line"] == line_of(PRED, "# sent_id = s1") + 2
    # The UD validator's first finding after the top (level 3: the sample's name has no language).
    from annoscore.scorer.validation import ValidationSettings, validate_text
    findings = sorted((i.line, i.start) for i in validate_text(PRED, ValidationSettings(level=3)).incidents)
    validation = await next_of("validation", 0)
    assert validation["found"] and validation["kind"] == "validation"
    assert (validation["range"]["start"]["line"], validation["range"]["start"]["character"]) == \
        next(place for place in findings if place > (0, 0))


@pytest.mark.asyncio(loop_scope="module")
async def test_the_score_says_how_far_the_annotation_has_come(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    await wait_for(lambda: client.scores)  # (the score comes after the diagnostics)
    notified = plain(client.scores[-1])
    assert notified["progress"] == {"sentences": 9, "annotated": 7, "marker": "annotated", "marked": 0}
    answer = plain(await client.protocol.send_request_async("annoscore/score", {"uri": uri}))
    assert answer["progress"] == notified["progress"]
    report = plain(await client.protocol.send_request_async("annoscore/report", {"uri": uri}))
    assert "Annotation progress: 7 of 9 sentences (77.78%) with a HEAD in every word" in report["text"]


def test_outline_for_a_client_without_hierarchical_symbols_follows_edits(tmp_path):
    """Raw messages (no client library): a client that did not say it takes
    DocumentSymbols gets SymbolInformation; the answer follows an edit; a
    last line with a character outside the BMP ends where UTF-16 counts."""
    from tests.support.lsp import RawServer
    text = "# sent_id = a\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n# sent_id = b\n1\t𝒳\tx\tX\t_\t_\t0\troot\t_\t_\n\n"
    path = tmp_path / "raw.conllu"
    path.write_text(text, encoding="utf-8")
    server = RawServer(tmp_path)
    try:
        server.initialize()
        uri = path.as_uri()
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "conllu", "version": 1, "text": text}}})
        server.send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/documentSymbol",
                     "params": {"textDocument": {"uri": uri}}})
        first = server.answer(1)["result"]
        assert [s["name"] for s in first] == ["a · x", "b · 𝒳"]
        last_line = text.split("\n")[4]
        assert first[1]["location"] == {"uri": uri, "range": {
            "start": {"line": 3, "character": 0},
            "end": {"line": 4, "character": len(last_line.encode("utf-16-le")) // 2}}}
        assert len(last_line.encode("utf-16-le")) // 2 == len(last_line) + 1
        server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {
                "start": {"line": 0, "character": 12}, "end": {"line": 0, "character": 13}}, "text": "renamed"}]}})
        server.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
                     "params": {"textDocument": {"uri": uri}}})
        assert [s["name"] for s in server.answer(2)["result"]] == ["renamed · x", "b · 𝒳"]
    finally:
        server.stop()
