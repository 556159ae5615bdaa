"""The annotator's requests through a real LSP client (pytest-lsp): the
sentence's tree (``annoscore/tree``)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_support import PRED, line_of
from test_lsp import client, open_sample  # noqa: F401  (the fixture, under every preset)


def plain(value):
    """pygls's answer objects as dicts and lists."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@pytest.mark.asyncio(loop_scope="function")
async def test_the_tree_of_the_sentence_under_the_cursor(client: LanguageClient):
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


@pytest.mark.asyncio(loop_scope="function")
async def test_bad_tree_params_are_refused(client: LanguageClient):
    uri = await open_sample(client)
    for params, words in [({"uri": uri}, "position"), ({"uri": 3, "position": {"line": 0, "character": 0}}, "uri"),
                          ({"uri": uri, "position": {"line": -1, "character": 0}}, "position"),
                          ({"uri": uri, "position": {"line": 0, "character": 0}, "format": "svg"}, "format")]:
        with pytest.raises(JsonRpcException) as refused:
            await client.protocol.send_request_async("annoscore/tree", params)
        assert refused.value.code == types.ErrorCodes.InvalidParams and words in refused.value.message
