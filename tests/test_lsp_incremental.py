"""Incremental equals fresh through the real server.

An editor does not wait for the server: edits arrive while a rescore runs,
saves come in bursts or not at all.  Whatever the timing, every score and
every set of diagnostics the server publishes must be what a fresh engine
gives for the text of the version it names.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from lsp_support import GOLD, PRED, SERVER, wait_for, workspace
from server.config import Settings
from server.engine import Engine
from test_engine import TEXT_EDITS, copies, random_edit
from test_lsp import prepare_client, start_session

RACING_PRESETS = ["visual-studio-code", "neovim@v0.11.0"]


@pytest_lsp.fixture(params=RACING_PRESETS, config=ClientServerConfig(server_command=SERVER))
async def racing_client(request, lsp_client: LanguageClient, tmp_path: Path):
    prepare_client(lsp_client, tmp_path, request.param)
    lsp_client.published = []  # type: ignore[attr-defined]
    keep = lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_diagnostics(params: types.PublishDiagnosticsParams):
        keep(params)
        lsp_client.published.append(params)  # type: ignore[attr-defined]

    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_diagnostics
    await start_session(lsp_client, tmp_path, request.param)
    yield
    await lsp_client.shutdown_session()


def fresh_results(root: Path, path: Path, text: str) -> tuple[dict, list]:
    engine = Engine(str(root), Settings())
    engine.open(str(path), str(path), text, 1)
    engine.rescore(str(path))
    score = engine.score(str(path))
    diagnostics = sorted((p.code, p.line, p.start, p.end) for p in engine.diagnostics(str(path)))
    return score, diagnostics


def metrics_of(payload) -> dict:
    return {name: (m.precision, m.recall, m.f1) for name, m in payload.metrics._asdict().items()}


def counts_of(payload) -> dict:
    return dict(payload.counts._asdict())


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.asyncio(loop_scope="function")
async def test_every_publish_equals_a_fresh_engine_on_its_version(racing_client: LanguageClient, seed):
    client = racing_client
    rng = random.Random(seed)
    text = copies(PRED, 3)
    pred, _ = workspace(client.root, text, copies(GOLD, 3))
    uri = pred.as_uri()
    texts = {1: text}
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=text)))
    version = 1
    for _ in range(120):
        change, text, _ = random_edit(text, TEXT_EDITS, rng)
        version += 1
        texts[version] = text
        (l1, c1), (l2, c2), new = change
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=l1, character=c1),
                                  end=types.Position(line=l2, character=c2)), text=new)]))
        if rng.random() < 0.35:  # saves in bursts, never awaited
            client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
        await asyncio.sleep(rng.choice([0, 0, 0, 0.001, 0.004, 0.02]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: any(s.version == version for s in client.scores)
                   and any(p.version == version for p in client.published), timeout=60)
    checked = 0
    fresh: dict[int, tuple] = {}
    for payload in client.scores:
        v = payload.version
        fresh.setdefault(v, fresh_results(client.root, pred, texts[v]))
        expected = fresh[v][0]
        assert counts_of(payload) == expected["counts"], v
        assert metrics_of(payload) == {n: (m["precision"], m["recall"], m["f1"])
                                       for n, m in expected["metrics"].items()}, v
        checked += 1
    for params in client.published:
        v = params.version
        fresh.setdefault(v, fresh_results(client.root, pred, texts[v]))
        got = sorted((d.code, d.range.start.line, d.range.start.character, d.range.end.character)
                     for d in params.diagnostics)
        assert got == fresh[v][1], v
        checked += 1
    assert checked >= 4


@pytest.mark.asyncio(loop_scope="function")
async def test_a_moved_line_never_reuses_the_range_of_the_line_that_was_there(racing_client: LanguageClient):
    """Two comments among token lines, with as many code points but not as
    many UTF-8 bytes or UTF-16 units; a line above them goes: the second
    comment moves onto the first one's line and must get its own range."""
    client = racing_client
    astral, ascii_ = "# 𝔷𝔩𝔲𝔱 kůň", "# abcdefgh"
    assert len(astral) == len(ascii_)
    text = ("# note\n# sent_id = a\n1\tThe\tthe\tDET\t_\t_\t0\troot\t_\t_\n\n# sent_id = b\n"
            f"1\tThe\tthe\tDET\t_\t_\t2\tdet\t_\t_\n{astral}\n{ascii_}\n"
            "2\tcat\tcat\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
    pred = client.root / "y.conllu"
    pred.write_text(text, encoding="utf-8")
    uri = pred.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=text)))
    await wait_for(lambda: any(p.uri == uri and p.version == 1 for p in client.published))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=1, character=0)),
            text="")]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: any(p.uri == uri and p.version == 2 for p in client.published))
    after = next(p for p in reversed(client.published) if p.uri == uri and p.version == 2)
    utf8 = client.preset.startswith("neovim")  # type: ignore[attr-defined]
    width = {astral: len(astral.encode("utf-8")) if utf8 else len(astral.encode("utf-16-le")) // 2,
             ascii_: len(ascii_)}
    ends = sorted((d.range.start.line, d.range.end.character) for d in after.diagnostics
                  if d.code == "format-comment-position")
    assert ends == [(5, width[astral]), (6, width[ascii_])]
