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
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.support.lsp import GOLD, PRED, SERVER, wait_for, workspace
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import IN_EDITOR
from tests.support.incremental import TEXT_EDITS, copies, random_edit
from tests.server.lsp.test_lsp import prepare_client, start_session

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
    engine = Engine(str(root), Settings(), presentation=IN_EDITOR)  # as the language server's engine
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


LONE_CR = ("# sent_id = a\n1\tab\rcd\tab\tX\t_\t_\t0\troot\t_\t_\n\n"
           "# sent_id = b\n1\tx\tx\tX\t_\t_\t2\tdep\t_\t_\n2\ty\ty\tX\t_\t_\t1\tdep\t_\t_\n\n")


CLIENT_NAMES = {"Neovim": False, "Eglot": False, "Visual Studio Code": True}  # name: lone CR ends a line


@pytest_lsp.fixture(params=list(CLIENT_NAMES), config=ClientServerConfig(server_command=SERVER))
async def named_client(request, lsp_client: LanguageClient, tmp_path: Path):
    """A client that gives its name in initialize, as real editors do."""
    prepare_client(lsp_client, tmp_path, "neovim@v0.11.0")
    lsp_client.name = request.param  # type: ignore[attr-defined]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim@v0.11.0"), root_uri=tmp_path.as_uri(),
        client_info=types.ClientInfo(name=request.param)))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
async def test_a_lone_cr_is_reported_where_the_editor_sees_it(named_client: LanguageClient, tmp_path):
    """Neovim and Emacs keep a lone CR inside the line; the server must count
    lines as they do (the diagnostics below it on their own lines), say
    where the CR is, and empty with the buffer."""
    lsp_client = named_client
    cr_ends_line = CLIENT_NAMES[lsp_client.name]  # type: ignore[attr-defined]
    path = tmp_path / "cr.conllu"
    path.write_text(LONE_CR, encoding="utf-8", newline="")
    uri = path.as_uri()
    lsp_client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=LONE_CR)))
    await wait_for(lambda: uri in lsp_client.diagnostics)
    found = {(d.code, d.range.start.line, d.range.start.character) for d in lsp_client.diagnostics[uri]}
    cycle_lines = {line for code, line, _ in found if code == "cycle"}
    if cr_ends_line:  # the LSP's own model: the CR ends line 1
        assert cycle_lines == {5, 6} and not any(code == "format-newline" for code, _, _ in found)
    else:
        assert cycle_lines == {4, 5}
        assert ("format-newline", 1, 4) in found
    # The whole buffer deleted, as Neovim sends it (to the end of its own last line).
    last = len(LONE_CR.split("\n")) - 2 if not cr_ends_line else len(LONE_CR.split("\n")) - 1
    lsp_client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0),
                              end=types.Position(line=last, character=0)), text="")]))
    lsp_client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: any(s.version == 2 for s in lsp_client.scores))
    score = next(s for s in lsp_client.scores if s.version == 2)
    assert score.counts.sentences == 0


@pytest.mark.asyncio(loop_scope="function")
async def test_hover_keeps_gold_for_the_sentences_an_edit_did_not_touch(racing_client: LanguageClient):
    client = racing_client
    from tests.support.lsp import cell, line_of
    pred, _ = workspace(client.root)
    uri = pred.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=PRED)))
    await wait_for(lambda: any(s.version == 1 for s in client.scores))

    async def hover_text(line: int, character: int) -> str:
        found = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
        return found.contents.value

    s1 = line_of(PRED, "# sent_id = s1")
    upos = cell(PRED, s1 + 2, 3)  # VERB where gold has NOUN
    assert "NOUN" in await hover_text(upos[0], upos[1])
    s7 = line_of(PRED, "# sent_id = s7")
    form = cell(PRED, s7 + 1, 2)  # s7's LEMMA: an edit there, and one undone, no save
    for version, text in ((2, "dog"), (3, "dug")):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=form[0], character=form[1]),
                                  end=types.Position(line=form[0], character=form[2])), text=text)]))
    assert "gold: `NOUN`" in await hover_text(upos[0], upos[1]) or "gold: 'NOUN'" in await hover_text(upos[0], upos[1])


@pytest.mark.asyncio(loop_scope="function")
async def test_a_long_first_pass_shows_its_progress(racing_client: LanguageClient):
    """Work-done progress for the first scoring of a large document: begin,
    percentages that grow, end, before the score is published."""
    client = racing_client
    if not (client.capabilities.window and client.capabilities.window.work_done_progress):
        pytest.skip("this preset's client does not show progress")
    text, gold = copies(PRED, 700), copies(GOLD, 700)  # 7,000 sentences
    pred, _ = workspace(client.root, text, gold)
    uri = pred.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=text)))
    await wait_for(lambda: any(s.version == 1 for s in client.scores), timeout=60)
    (reports,) = client.progress_reports.values()
    kinds = [type(r).__name__ for r in reports]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"
    percentages = [r.percentage for r in reports[1:-1]]
    assert len(percentages) >= 3 and percentages == sorted(percentages) and max(percentages) <= 100
    # A one-cell edit afterwards is quick: no progress for it.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=2, character=2), end=types.Position(line=2, character=2)),
            text="x")]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: any(s.version == 2 for s in client.scores), timeout=60)
    assert len(client.progress_reports) == 1
