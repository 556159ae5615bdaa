"""The language server end to end, through a real LSP client over stdio (pytest-lsp),
under several client capability presets."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import pytest_asyncio
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.support.lsp import GOLD, PRED, PRESETS, SERVER, cell, line_of, span, tabs, wait_for, workspace
from annoscore.scorer.conllu.evaluate import evaluate_files


def prepare_client(lsp_client: LanguageClient, tmp_path: Path, preset: str) -> None:
    """Handlers every test client needs, and where the tests read what came."""
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params):  # pytest-lsp does not answer this by itself
        return None

    lsp_client.scores = []  # type: ignore[attr-defined]
    lsp_client.versions = {}  # type: ignore[attr-defined]

    def on_diagnostics(params: types.PublishDiagnosticsParams):
        if not mine(lsp_client, params.uri):
            return
        lsp_client.diagnostics[params.uri] = params.diagnostics
        lsp_client.versions[params.uri] = params.version  # type: ignore[attr-defined]

    # pytest-lsp keeps only the diagnostics; keep the version they are for too.
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_diagnostics

    @lsp_client.feature("annoscore/score")
    def on_score(params):
        if mine(lsp_client, params.uri):
            lsp_client.scores.append(params)  # type: ignore[attr-defined]

    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    lsp_client.preset = preset  # type: ignore[attr-defined]


async def start_session(lsp_client: LanguageClient, tmp_path: Path, preset: str) -> None:
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(preset),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")]))


@pytest_lsp.fixture(params=PRESETS, config=ClientServerConfig(server_command=SERVER))
async def client(request, lsp_client: LanguageClient, tmp_path: Path):
    prepare_client(lsp_client, tmp_path, request.param)
    await start_session(lsp_client, tmp_path, request.param)
    yield
    await lsp_client.shutdown_session()


def mine(lsp_client: LanguageClient, uri: str) -> bool:
    """Whether a notification is about the current test's documents: always
    on a client of its own; on a shared server (``shared_client``), only
    what is under the test's folder (a late one about an earlier test's
    document is not this test's)."""
    folder = getattr(lsp_client, "only_under", None)
    return folder is None or uri.startswith(folder)


@pytest_lsp.fixture(scope="module", params=PRESETS, config=ClientServerConfig(server_command=SERVER))
async def shared_server(request, lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    """One server per module and preset, for the tests whose server state
    ends with their documents (``shared_client``): starting a server costs
    about 3 s, most of an LSP test's time."""
    root = tmp_path_factory.mktemp("shared-workspace")
    prepare_client(lsp_client, root, request.param)
    await start_session(lsp_client, root, request.param)
    lsp_client.workspace_root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_asyncio.fixture(loop_scope="module")
async def shared_client(shared_server: LanguageClient, request):
    """The module's server (every preset), as if fresh to this test: its own
    folder of the workspace as ``client.root``, no diagnostics, scores or
    versions seen before, and only notifications about its own folder kept.
    Afterwards every document it opened is closed, and a request answered,
    so the server holds nothing of it. For tests that change no settings,
    write no project file, read no stderr and no messages: those start a
    server of their own (``client``).  The tests using it are marked
    ``@pytest.mark.asyncio(loop_scope="module")`` (the server's loop)."""
    client = shared_server
    root: Path = client.workspace_root  # type: ignore[attr-defined]
    folder = root / f"t{len(list(root.iterdir()))}"
    folder.mkdir()
    client.root = folder  # type: ignore[attr-defined]
    client.only_under = folder.as_uri() + "/"  # type: ignore[attr-defined]
    client.diagnostics.clear()
    client.scores = []  # type: ignore[attr-defined]
    client.versions = {}  # type: ignore[attr-defined]
    client.messages.clear()
    opened: list[str] = []
    did_open = client.text_document_did_open

    def opening(params: types.DidOpenTextDocumentParams) -> None:
        opened.append(params.text_document.uri)
        did_open(params)

    client.text_document_did_open = opening  # type: ignore[method-assign]
    try:
        yield client
    finally:
        del client.text_document_did_open
        for uri in opened:
            client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
        left = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))  # the closes are done
        assert not left, f"documents left open on the module's server: {left}"
        client.only_under = "\0"  # no document's: nothing is kept until the next test


async def probe_state(client: LanguageClient, version: int) -> tuple:
    """What the module's server shows of its settings: the sample pair
    opened in the workspace's ``probe`` folder (at ``version``), its
    diagnostics as published (code, range, severity, message, link) and
    its inlay hints, then closed again.  Settings that reach the wire change
    it: goldDiff, threshold, validation, foldUnparsedFindings, docsUrl,
    inlayHints, severities..."""
    probe = client.workspace_root / "probe"  # type: ignore[attr-defined]
    probe.mkdir(exist_ok=True)
    pred, _ = workspace(probe)
    client.only_under = probe.as_uri() + "/"  # type: ignore[attr-defined]
    client.diagnostics.pop(pred.as_uri(), None)
    uri = open_document(client, pred, version=version)
    shown = await diagnostics_for(client, uri, version=version)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(0, 0), end=types.Position(len(PRED.split("\n")), 0))))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    client.only_under = "\0"  # type: ignore[attr-defined]
    return (sorted((d.code, span(d), d.severity, d.message, d.code_description and d.code_description.href)
                   for d in shown),
            sorted((h.position.line, h.position.character, str(h.label)) for h in hints or ()))


# The default settings, said explicitly (a push of {} is no change: Neovim 0.7), and
# settings the probe tells apart from them (gold-diff diagnostics).
DEFAULTS = {"goldDiff": False}
MARKER = {"goldDiff": True}


async def reset_settings(client: LanguageClient) -> tuple:
    """Back to the default settings, proved applied after whatever the test set:
    first ``MARKER``, waited for until the probe shows it, then ``DEFAULTS``,
    waited for until the probe no longer does (each change is applied after
    the one before it).  The probe's state at the end."""
    client.probes += 1  # type: ignore[attr-defined]
    configure(client, MARKER)
    await wait_for_probe(client, lambda state: any(d[0] == "gold-diff" for d in state[0]))
    configure(client, DEFAULTS)
    return await wait_for_probe(client, lambda state: not any(d[0] == "gold-diff" for d in state[0]))


async def wait_for_probe(client: LanguageClient, predicate, timeout: float = 20.0) -> tuple:
    """The probe's state once ``predicate`` holds (each look opens it at a new version)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        client.probes += 1  # type: ignore[attr-defined]
        state = await probe_state(client, client.probes)  # type: ignore[attr-defined]
        if predicate(state):
            return state
        if loop.time() > end:
            raise AssertionError(f"the settings were not applied in {timeout} s: {state}")


@pytest_asyncio.fixture(loop_scope="module")
async def settings_client(shared_client: LanguageClient):
    """The module's server (every preset) for a test that changes settings
    (``configure``): ``shared_client``, and afterwards the default settings
    restored (`reset_settings`) and the server asserted back to the state it
    started in: the probe shows what it showed before the module's first
    such test, so a test's settings cannot leak into the next test.  (Tests
    that write a project file, read the server's stderr or need a fresh
    server's first settings still start their own: ``client``.)"""
    client = shared_client
    if not hasattr(client, "initial_probe"):
        client.probes = 0  # type: ignore[attr-defined]
        client.initial_probe = await probe_state(client, 0)  # type: ignore[attr-defined]
        client.only_under = client.root.as_uri() + "/"  # type: ignore[attr-defined]
    yield client
    client.only_under = "\0"  # type: ignore[attr-defined]
    state = await reset_settings(client)
    assert state == client.initial_probe, "the server is not back to its initial settings"
    client.messages.clear()


# The presets whose clients answer workspace/configuration.
PULLING = ["visual-studio-code", "neovim@v0.11.0"]


@pytest_lsp.fixture(params=PULLING, config=ClientServerConfig(server_command=SERVER))
async def slow_settings_client(request, lsp_client: LanguageClient, tmp_path: Path):
    """A client that answers the server's workspace/configuration request
    only when the test sets ``settings_ready``."""
    prepare_client(lsp_client, tmp_path, request.param)
    lsp_client.settings_ready = asyncio.Event()  # type: ignore[attr-defined]

    async def configuration(params: types.ConfigurationParams):
        await lsp_client.settings_ready.wait()  # type: ignore[attr-defined]
        return [{"goldDiff": True} for _ in params.items]

    # (in place of pytest-lsp's own answer)
    lsp_client.protocol.fm.features[types.WORKSPACE_CONFIGURATION] = configuration
    await start_session(lsp_client, tmp_path, request.param)
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=version, text=path.read_text() if text is None else text)))
    return uri


async def diagnostics_for(client: LanguageClient, uri: str, previous=None, timeout: float = 20.0,
                          version: int | None = None):
    await wait_for(lambda: uri in client.diagnostics and client.diagnostics[uri] is not previous
                   and (version is None or client.versions.get(uri) == version), timeout=timeout)
    return client.diagnostics[uri]


async def open_sample(client: LanguageClient) -> str:
    """The sample prediction (with its gold) opened and scored once."""
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    await diagnostics_for(client, uri)
    return uri


def configure(client: LanguageClient, settings: dict) -> None:
    """Change settings as the client would: VS Code and Neovim 0.8+ answer
    workspace/configuration (and send settings: null); Neovim 0.7 sends them."""
    client.set_configuration(settings, section="annoscore")
    pulls = bool(client.capabilities.workspace and client.capabilities.workspace.configuration)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings=None if pulls else {"annoscore": settings}))


def by_code(diagnostics) -> dict[str, list[tuple[int, int, int]]]:
    out: dict[str, list] = {}
    for d in diagnostics:
        out.setdefault(d.code, []).append(span(d))
    return out


@pytest.mark.asyncio(loop_scope="module")
async def test_every_diagnostic_code_with_its_range(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    found = by_code(await diagnostics_for(client, uri))
    text = PRED
    assert all(d.source == "annoscore" for d in client.diagnostics[uri])

    s2 = line_of(text, "# sent_id = s2")
    assert sorted(found["cycle"]) == [cell(text, s2 + 2, 6), cell(text, s2 + 3, 6)]
    s3 = line_of(text, "# sent_id = s3")
    assert found["multiple-roots"] == [cell(text, s3 + 2, 6)]
    s4 = line_of(text, "# sent_id = s4")
    assert found["missing-head"] == [cell(text, s4 + 2, 6)]
    s5 = line_of(text, "# sent_id = s5")
    assert found["unparsed"] == [(s5 + 1, 0, len(text.split("\n")[s5 + 1]))]
    s6 = line_of(text, "# sent_id = s6")
    assert found["head-out-of-range"] == [cell(text, s6 + 2, 6)]
    s1 = line_of(text, "# sent_id = s1")
    assert found["low-confidence"] == [cell(text, s1 + 2, 3)]
    s7 = line_of(text, "# sent_id = s7")
    line, start, _ = cell(text, s7 + 1, 1)
    assert found["text-mismatch"] == [(line, start + 1, start + 2)]  # 'u' of "dug" vs 'o' of "dog"
    s8 = line_of(text, "# sent_id = s8")
    assert sorted(found["segmentation-mismatch"]) == [cell(text, s8 + 1, 1), cell(text, s8 + 2, 1)]
    s10 = line_of(text, "# sent_id = s10")
    assert found["format-columns"] == [(s10 + 2, 0, len(text.split("\n")[s10 + 2]))]
    assert found["missing-sentence"] == [(0, 0, 0)]
    assert "gold-diff" not in found  # off unless enabled
    messages = {d.code: d.message for d in client.diagnostics[uri]}
    assert "gold has 'ab'" in messages["segmentation-mismatch"]
    assert "s9" in messages["missing-sentence"]
    assert "0.30" in messages["low-confidence"] and "UPOS" in messages["low-confidence"]
    cycle = next(d for d in client.diagnostics[uri] if d.code == "cycle")
    assert cycle.related_information and cycle.related_information[0].location.uri == uri
    assert cycle.severity == types.DiagnosticSeverity.Error
    assert next(d for d in client.diagnostics[uri] if d.code == "low-confidence").severity == \
        types.DiagnosticSeverity.Hint


@pytest.mark.asyncio(loop_scope="module")
async def test_score_notification_and_request_equal_evaluate(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    pred, gold = workspace(client.root)
    uri = open_document(client, pred)
    await wait_for(lambda: client.scores)
    payload = client.scores[-1]
    expected = evaluate_files(pred, gold).counts
    assert payload.uri == uri and payload.format == "conllu" and payload.gold == gold.as_uri()
    for name in ("UPOS", "LAS", "MLAS", "Tokens"):
        score = expected.score(name)
        metric = getattr(payload.metrics, name)
        assert metric.f1 == pytest.approx(score.f1) and metric.precision == pytest.approx(score.precision)
    assert (payload.counts.sentences, payload.counts.unparsed, payload.counts.lowConfidence) == (9, 1, 1)
    assert payload.counts.refused == 5  # s2 cycle, s3 roots, s4 missing head, s6 range, s10 columns
    answer = await client.protocol.send_request_async("annoscore/score", {"uri": uri})
    assert answer.metrics.LAS.f1 == pytest.approx(expected.score("LAS").f1)
    report = await client.protocol.send_request_async("annoscore/report", {"uri": uri})
    assert "LAS" in report.text and "Signature:" in report.text


@pytest.mark.asyncio(loop_scope="module")
async def test_editing_one_sentence_changes_only_its_diagnostics_and_the_score(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    pred, gold = workspace(client.root)
    uri = open_document(client, pred)
    before = await diagnostics_for(client, uri)
    await wait_for(lambda: client.scores)
    las_before = client.scores[-1].metrics.LAS.f1
    # Mend the cycle of s2: word 2 gets its gold head 1.
    s2 = line_of(PRED, "# sent_id = s2")
    line, start, end = cell(PRED, s2 + 2, 6)
    edited = PRED.split("\n")
    edited[line] = edited[line][:start] + "1" + edited[line][end:]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=start),
                              end=types.Position(line=line, character=end)), text="1")]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    after = await diagnostics_for(client, uri, previous=before, version=2)
    removed = {(d.code, span(d)) for d in before} - {(d.code, span(d)) for d in after}
    added = {(d.code, span(d)) for d in after} - {(d.code, span(d)) for d in before}
    assert {code for code, _ in removed} == {"cycle"}
    # A tree again: the UD validator now reads the sentence on, to its missing # text.
    assert added == {("missing-text", (s2 + 1, 0, len(PRED.split("\n")[s2 + 1])))}
    await wait_for(lambda: client.scores[-1].metrics.LAS.f1 != las_before)
    pred.write_text("\n".join(edited), encoding="utf-8")
    expected = evaluate_files(pred, gold).counts.score("LAS")
    assert client.scores[-1].metrics.LAS.f1 == pytest.approx(expected.f1)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_tells_the_cell_its_confidence_and_gold(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    s1 = line_of(PRED, "# sent_id = s1")
    line, start, end = cell(PRED, s1 + 2, 3)  # UPOS VERB, Conf=UPOS:0.30, gold NOUN

    async def hover(line: int, character: int):
        return await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character)))

    found = await hover(line, start + 1)
    assert found is not None
    text = found.contents.value
    assert "UPOS" in text and "VERB" in text and "cat" in text
    assert "0.30" in text and "below the threshold" in text
    assert "gold: `NOUN`" in text or "gold: 'NOUN'" in text
    assert (found.range.start.line, found.range.start.character, found.range.end.character) == (line, start, end)
    head = (await hover(*cell(PRED, s1 + 2, 6)[:2])).contents.value
    assert "HEAD" in head and "sat" in head  # what 3 points to
    s2 = line_of(PRED, "# sent_id = s2")
    summary = (await hover(s2, 3)).contents.value
    assert "s2" in summary and "cycle" in summary and "LAS 2/3" in summary
    assert await hover(s2 - 1, 0) is None  # the blank line between sentences


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_goes_to_the_head_and_references_list_the_dependents(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    s1 = line_of(PRED, "# sent_id = s1")  # The <-det- cat <-nsubj- sat (root)
    doc = types.TextDocumentIdentifier(uri=uri)
    head = cell(PRED, s1 + 2, 6)  # cat's HEAD
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc, position=types.Position(head[0], head[1])))
    location = found[0] if isinstance(found, list) else found
    assert location.uri == uri
    assert (location.range.start.line, location.range.start.character, location.range.end.character) == \
        cell(PRED, s1 + 3, 1)  # "sat"
    root = cell(PRED, s1 + 3, 6)
    assert await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc, position=types.Position(root[0], root[1]))) is None
    references = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc, position=types.Position(s1 + 3, 0),
        context=types.ReferenceContext(include_declaration=True)))
    assert [(r.range.start.line, r.range.start.character, r.range.end.character) for r in references] == \
        [cell(PRED, s1 + 3, 1), cell(PRED, s1 + 2, 6)]  # sat itself, then cat's HEAD


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_in_a_head_cell_offers_the_sentences_words(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    s1 = line_of(PRED, "# sent_id = s1")
    head = cell(PRED, s1 + 2, 6)  # cat's HEAD
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(head[0], head[2])))
    items = found.items if isinstance(found, types.CompletionList) else found
    assert [(i.label, i.detail) for i in items] == [("0", "the root"), ("1", "word 1: The"), ("3", "word 3: sat")]
    edit = items[1].text_edit
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == head
    upos = cell(PRED, s1 + 2, 3)
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(upos[0], upos[1] + 1)))
    items = found.items if isinstance(found, types.CompletionList) else found
    assert "PROPN" in [i.label for i in items] and len(items) == 17


@pytest.mark.asyncio(loop_scope="module")
async def test_a_sentence_is_found_by_its_sent_id(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = await open_sample(client)
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="s2"))
    assert [(f.name, f.location.uri, f.location.range.start.line) for f in found] == [
        ("s2", uri, line_of(PRED, "# sent_id = s2"))]


@pytest.mark.asyncio(loop_scope="module")
async def test_quick_fix_takes_golds_value_as_an_edit(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    pred, gold = workspace(client.root)
    configure(client, {"goldDiff": True})
    uri = open_document(client, pred)
    s1 = line_of(PRED, "# sent_id = s1")
    upos = cell(PRED, s1 + 2, 3)
    await wait_for(lambda: upos in [span(d) for d in client.diagnostics.get(uri, []) if d.code == "gold-diff"])
    before = client.diagnostics[uri]
    diagnostic = next(d for d in before if d.code == "gold-diff" and span(d) == upos)
    unfixable = next(d for d in before if d.code == "cycle")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic, unfixable])))
    # (the sentence operations at the cursor follow as refactorings: test_lsp_sentence_editing.py)
    fixes = [a for a in actions or () if a.kind == types.CodeActionKind.QuickFix]
    assert len(fixes) == 1 and actions[0] is fixes[0]
    action = actions[0]
    assert action.title == "Use gold's UPOS 'NOUN'" and action.kind == types.CodeActionKind.QuickFix
    for only, answered in (([types.CodeActionKind.Source], False), ([types.CodeActionKind.QuickFix], True)):
        again = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only)))
        assert bool(again) == answered
    (edit,) = action.edit.changes[uri]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character, edit.new_text) == \
        (*upos, "NOUN")
    assert pred.read_text(encoding="utf-8") == PRED  # the server wrote nothing
    # The editor applies the edit: that diagnostic goes, and UPOS goes up.
    await wait_for(lambda: client.scores)
    upos_before = client.scores[-1].metrics.UPOS.f1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    after = await diagnostics_for(client, uri, previous=before, version=2)
    assert upos not in [span(d) for d in after if d.code == "gold-diff"]
    await wait_for(lambda: client.scores[-1].metrics.UPOS.f1 > upos_before)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("how", ["in place", "atomic rename"])
async def test_gold_changed_on_disk_rescores(shared_client: LanguageClient, how: str):
    client = shared_client  # the module's server (shared_client: why it may)
    pred, gold = workspace(client.root)
    uri = open_document(client, pred)
    await wait_for(lambda: client.scores)
    seen = len(client.scores)
    upos_before = client.scores[-1].metrics.UPOS.f1
    new_gold = GOLD.replace("2\tcat\tcat\tNOUN", "2\tcat\tcat\tVERB")  # now the prediction is right
    if how == "in place":
        gold.write_text(new_gold, encoding="utf-8")
    else:
        temp = client.root / ".x.gold.conllu.tmp"
        temp.write_text(new_gold, encoding="utf-8")
        os.replace(temp, gold)
    # (Written in place, the file is truncated first: the watcher may read it
    # empty or half-written and publish a score from that, then the whole
    # file's; so wait for the score the new gold gives, not for any change.)
    await wait_for(lambda: len(client.scores) > seen and client.scores[-1].metrics.UPOS.f1 > upos_before,
                   timeout=30)
    assert client.scores[-1].uri == uri and client.scores[-1].metrics.UPOS.f1 > upos_before


@pytest.mark.asyncio(loop_scope="module")
async def test_bad_documents_never_stop_the_server(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    root = client.root
    cases = {
        "binary.conllu": "\x00\x01\x02 garbage",
        "huge.conllu": "1\t" + "x" * 2_000_000 + "\t_\t_\t_\t_\t0\troot\t_\t_\n\n",
        "junk.conllu": "\t\t\n###\n\n\n1-\t\n5.5.5\tx\n" * 50,
        "empty.conllu": "",
    }
    uris = []
    for name, text in cases.items():
        path = root / name
        path.write_text(text, encoding="utf-8")
        uris.append(open_document(client, path, text))
    for uri in uris:
        await diagnostics_for(client, uri)
    # Still serving: a request answers, and a good document gets its score.
    pred, _ = workspace(root)
    good = open_document(client, pred)
    await diagnostics_for(client, good)
    answer = await client.protocol.send_request_async("annoscore/score", {"uri": good})
    assert answer is not None and answer.counts.sentences == 9
    binary = client.diagnostics[uris[0]]
    # A NUL in text: noted at its place (information), the text checked as it is.
    assert [(d.code, d.severity, d.range.start.character) for d in binary if d.code == "format-binary"] == [
        ("format-binary", 3, 0)]


@pytest.mark.asyncio(loop_scope="module")
async def test_positions_follow_the_clients_encoding(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    text = tabs("# sent_id = e1\n1 😀x 😀x X _ _ 0 root _ Conf=UPOS:0.1\n2 y y X _ _ 1 dep _ _")
    path = client.root / "emoji.conllu"
    path.write_text(text, encoding="utf-8")
    uri = open_document(client, path)
    diagnostics = await diagnostics_for(client, uri)
    (low,) = [d for d in diagnostics if d.code == "low-confidence"]
    # UPOS starts after "1\t😀x\t😀x\t": 8 code points; 10 UTF-16 units; 14 UTF-8 bytes.
    expected = {"visual-studio-code": 10, "neovim@v0.11.0": 14, "neovim@v0.7.0": 10}[client.preset]
    assert low.range.start.character == expected

    # The FORM "😀x" becomes "ab": the same problem, at the same code points,
    # now starts one UTF-16 unit / three bytes earlier — not where it was
    # shown before (the server keeps each diagnostic's JSON between edits).
    form_end = {"visual-studio-code": 5, "neovim@v0.11.0": 7, "neovim@v0.7.0": 5}[client.preset]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(1, 2), end=types.Position(1, form_end)), text="ab")]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    diagnostics = await diagnostics_for(client, uri, version=2)
    (low,) = [d for d in diagnostics if d.code == "low-confidence"]
    expected = {"visual-studio-code": 9, "neovim@v0.11.0": 11, "neovim@v0.7.0": 9}[client.preset]
    assert low.range.start.character == expected

    # Hover and completion count the same way: the UPOS cell of line 1,
    # asked for and answered in the client's units.
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, expected + 1)))
    assert "UPOS" in hover.contents.value
    assert (hover.range.start.character, hover.range.end.character) == (expected, expected + 1)
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, expected + 1)))
    items = found.items if isinstance(found, types.CompletionList) else found
    assert items[0].text_edit.range.start.character == expected


@pytest.mark.asyncio(loop_scope="module")
async def test_typing_rescores_when_run_is_on_type(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    configure(client, {"run": "onType"})
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    before = await diagnostics_for(client, uri)
    s3 = line_of(PRED, "# sent_id = s3")
    line, start, end = cell(PRED, s3 + 2, 6)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=start),
                              end=types.Position(line=line, character=end)), text="1")]))
    after = await diagnostics_for(client, uri, previous=before, version=2)  # no save
    assert "multiple-roots" not in {d.code for d in after}


@pytest.mark.asyncio(loop_scope="function")
async def test_settings_that_arrive_after_a_document_was_scored_rescore_it(slow_settings_client: LanguageClient):
    """Editors open documents right after `initialized`; the settings the
    server pulls then may come after the first scoring, and must still
    apply to what is open (here: gold-diff turned on)."""
    client = slow_settings_client
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    first = await diagnostics_for(client, uri)
    assert "gold-diff" not in {d.code for d in first}
    client.settings_ready.set()  # type: ignore[attr-defined]
    await wait_for(lambda: "gold-diff" in {d.code for d in client.diagnostics[uri]})


@pytest.mark.asyncio(loop_scope="module")
async def test_invalid_settings_are_reported_and_replaced(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    configure(client, {"threshold": "high", "run": "sometimes", "goldDiff": True})
    # (Another message may come first: an earlier test's document told that
    # it lacks a language for levels 4-5.)
    await wait_for(lambda: [m for m in client.messages if "threshold" in m.message])
    text = next(m.message for m in client.messages if "threshold" in m.message)
    assert "run" in text
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    found = by_code(await diagnostics_for(client, uri))
    assert "low-confidence" in found  # the default threshold (0.8) still applies
    # Exactly 0.8, not below it: 0.79 is low, 0.8 and 0.81 are not (an
    # off-by-threshold comparison, or another threshold, would show more or fewer).
    near = tabs("# sent_id = t1\n1 a a X _ _ 0 root _ Conf=UPOS:0.79\n"
                "2 b b X _ _ 1 dep _ Conf=UPOS:0.8\n3 c c X _ _ 1 dep _ Conf=UPOS:0.81") + "\n\n"
    (client.root / "near.conllu").write_text(near, encoding="utf-8")
    near_uri = open_document(client, client.root / "near.conllu")
    low = by_code(await diagnostics_for(client, near_uri)).get("low-confidence")
    assert low == [cell(near, 1, 3)]  # the UPOS cell of the word with 0.79
    await wait_for(lambda: "gold-diff" in {d.code for d in client.diagnostics[uri]})
    s1 = line_of(PRED, "# sent_id = s1")
    gold_diff = [span(d) for d in client.diagnostics[uri] if d.code == "gold-diff"]
    assert cell(PRED, s1 + 2, 3) in gold_diff  # UPOS VERB where gold has NOUN


@pytest.mark.asyncio(loop_scope="function")
async def test_project_file_problems_are_diagnostics_on_it(client: LanguageClient):
    config = client.root / "annoscore.toml"
    # The watcher starts after initialization: write until it has seen the file.
    for _ in range(10):
        config.write_text('threshold = 7\n[[pair]]\nfiles = "*.conllu"\n', encoding="utf-8")
        try:
            await wait_for(lambda: client.diagnostics.get(config.as_uri()), timeout=3)
            break
        except AssertionError:
            continue
    lines = sorted(d.range.start.line for d in client.diagnostics[config.as_uri()])
    assert lines == [0, 1]
    config.write_text("threshold = 0.5\n", encoding="utf-8")
    await wait_for(lambda: not client.diagnostics[config.as_uri()], timeout=30)


@pytest.mark.asyncio(loop_scope="function")
async def test_segmentation_and_label_files(client: LanguageClient):
    root = client.root
    (root / "seg.gold.txt").write_text("これ は テスト です 。\n猫 が いる\n", encoding="utf-8")
    seg = root / "seg.txt"
    seg.write_text("これ は テス ト です 。\n猫が いる\n", encoding="utf-8")
    uri = open_document(client, seg)
    diagnostics = await diagnostics_for(client, uri)
    found = by_code(diagnostics)
    # "テス" and "ト" are not gold words; neither is "猫が" (columns in the client's units).
    lines = seg.read_text(encoding="utf-8").split("\n")

    def units(line: int, column: int) -> int:
        prefix = lines[line][:column]
        return len(prefix.encode("utf-8")) if client.preset == "neovim@v0.11.0" else len(prefix)

    expected = [(line, units(line, a), units(line, b)) for line, a, b in [(0, 5, 7), (0, 8, 9), (1, 0, 2)]]
    assert sorted(found["segmentation-mismatch"]) == expected
    await wait_for(lambda: any(s.uri == uri for s in client.scores))
    payload = [s for s in client.scores if s.uri == uri][-1]
    assert payload.format == "space" and payload.metrics.Word.recall == pytest.approx(5 / 8)

    (root / "annoscore.toml").write_text('[[pair]]\nfiles = "items.tsv"\ngold = "items.gold.tsv"\n'
                                         'format = "labels"\n', encoding="utf-8")
    (root / "items.gold.tsv").write_text("1\til\n2\telle\n3\til\n", encoding="utf-8")
    items = root / "items.tsv"
    items.write_text("1\til\n2\til\n3\tça\n", encoding="utf-8")
    configure(client, {})  # the project file is read again with the settings
    labels_uri = open_document(client, items)
    # (scored first as plain text if it came before the settings were applied:
    # applying them scores it again as labels, which is what is waited for)
    await wait_for(lambda: "label-mismatch" in by_code(client.diagnostics.get(labels_uri, [])))
    found = by_code(client.diagnostics[labels_uri])
    end = 5 if client.preset == "neovim@v0.11.0" else 4  # "ça": 3 bytes in UTF-8
    assert found["label-mismatch"] == [(1, 2, 4), (2, 2, end)]
    assert found["unknown-label"] == [(2, 2, end)]
    await wait_for(lambda: any(s.uri == labels_uri for s in client.scores))
    payload = [s for s in client.scores if s.uri == labels_uri][-1]
    assert payload.format == "labels" and payload.metrics.Accuracy.f1 == pytest.approx(1 / 3)


def large_pair(folder: Path, sentences: int) -> tuple[Path, Path]:
    """A pair large enough for the server to score it first in two processes
    (server.engine.conllu.parts.MIN_SENTENCES), with label errors to count."""
    gold, pred = [], []
    for k in range(sentences):
        rows = [("1", f"w{k}", "X", "0", "root"), ("2", "b", "X", "1", "dep"), ("3", "c", "Y", "2", "dep")]
        gold.append(f"# sent_id = g{k}\n" + "\n".join(f"{i}\t{f}\t{f}\t{u}\t_\t_\t{h}\t{d}\t_\t_"
                                                      for i, f, u, h, d in rows))
        wrong = [(i, f, "Z" if k % 7 == 0 and i == "2" else u, "3" if k % 11 == 0 and i == "2" else h,
                  d, "Conf=0.4" if k % 13 == 0 else "_") for i, f, u, h, d in rows]
        if k % 11 == 0:  # 2 -> 3 and 3 -> 2 would be a cycle; keep a tree
            wrong[2] = ("3", "c", "Y", "1", "dep", "_")
        pred.append(f"# sent_id = g{k}\n" + "\n".join(f"{i}\t{f}\t{f}\t{u}\t_\t_\t{h}\t{d}\t_\t{m}"
                                                      for i, f, u, h, d, m in wrong))
    (folder / "big.gold.conllu").write_text("\n\n".join(gold) + "\n\n", encoding="utf-8")
    (folder / "big.conllu").write_text("\n\n".join(pred) + "\n\n", encoding="utf-8")
    return folder / "big.conllu", folder / "big.gold.conllu"


@pytest.mark.asyncio(loop_scope="function")
async def test_a_large_document_is_first_scored_in_two_processes(client: LanguageClient, capfd):
    """The forkserver path inside the real server (threads and all): the
    score equals evaluate's, the server keeps answering, edits still work."""
    if client.preset != PRESETS[0]:
        pytest.skip("one client is enough for the server's internals")
    import annoscore.server.engine.conllu.parts as parts
    pred, gold = large_pair(client.root, parts.MIN_SENTENCES + 500)
    uri = open_document(client, pred)
    await wait_for(lambda: client.scores, timeout=120)
    expected = evaluate_files(pred, gold).counts
    metrics = client.scores[-1].metrics
    for name in ("UPOS", "UAS", "LAS", "CLAS"):
        assert getattr(metrics, name).f1 == pytest.approx(expected.score(name).f1)
    assert expected.score("UPOS").f1 < 1 and expected.score("UAS").f1 < 1
    assert client.scores[-1].counts.lowConfidence > 0
    await wait_for(lambda: "first pass in two processes" in capfd.readouterr().err, timeout=10)

    # One more wrong tag: one fewer UPOS right, counted in place.
    lines = pred.read_text(encoding="utf-8").split("\n")
    row = next(k for k, line in enumerate(lines) if line.startswith("1\tw5\t"))
    before = len(client.scores)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(row, 8), end=types.Position(row, 9)), text="Q")]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: len(client.scores) > before, timeout=30)
    upos = client.scores[-1].metrics.UPOS
    assert upos.precision * expected.score("UPOS").system_total == pytest.approx(
        expected.score("UPOS").correct - 1)

def empty_change(client: LanguageClient, uri: str, version: int) -> None:
    """A didChange that changes nothing (some clients send one, e.g. after an undo)."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[]))


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("run", ["onSave", "onType"])
async def test_an_empty_change_still_advances_the_version(settings_client: LanguageClient, run: str):
    client = settings_client  # the module's server, its settings reset afterwards
    """An empty change is a change like any other: the document is at its
    version from then on.  It is rescored when any change would be (after
    the typing delay with onType, on save with onSave), and diagnostics,
    the score notification and the request all say the new version."""
    configure(client, {"run": run})
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    before = await diagnostics_for(client, uri, version=1)
    await wait_for(lambda: client.scores and client.scores[-1].version == 1)
    empty_change(client, uri, 2)
    answer = await client.protocol.send_request_async("annoscore/score", {"uri": uri})
    assert answer.version == 2
    if run == "onSave":
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
    after = await diagnostics_for(client, uri, previous=before, version=2, timeout=10)
    await wait_for(lambda: client.scores[-1].version == 2, timeout=10)
    assert {(d.code, span(d)) for d in after} == {(d.code, span(d)) for d in before}  # the same text
    assert client.scores[-1].metrics.LAS.f1 == client.scores[0].metrics.LAS.f1


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def plain_client(lsp_client: LanguageClient, tmp_path: Path):
    """A client that shows hovers only as plain text."""
    prepare_client(lsp_client, tmp_path, "visual-studio-code")
    capabilities = client_capabilities("visual-studio-code")
    capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")]))
    yield
    await lsp_client.shutdown_session()


# Values Markdown would eat: underscores (emphasis), '*' and '~~' (emphasis,
# strikethrough), backticks (code spans), '<b>', '&amp;' and '[l](u)' (HTML,
# an entity, a link), '\' (an escape).
ODD_ID = "weblog-_nominations_20041117172713_ENG_20041117_-*a*"
ODD_GOLD_ID = "g_1_*2*"
ODD = [("1", "*", "*", "PUNCT", "`c", "2", "punct"),
       ("2", "_x_", "a``b`", "X", "\\_", "0", "root"),
       ("3", "<b>&amp;", "[l](u)", "X", "~~s~~", "2", "dep")]


def odd_text(sent_id: str, xpos_of_1: str) -> str:
    rows = [f"# sent_id = {sent_id}"]
    for i, form, lemma, upos, xpos, head, deprel in ODD:
        rows.append("\t".join([i, form, lemma, upos, xpos_of_1 if i == "1" else xpos, "_", head, deprel, "_", "_"]))
    return "\n".join(rows) + "\n\n"


def odd_expectations() -> list[tuple[int, int | None, str]]:
    """(line, column, what the hover must show) for the sample (column None: a comment line), in plain words
    with code in quotes; built here from the values, not from the server."""
    (_, f1, _, _, x1, _, _), (_, f2, l2, _, x2, _, _), (_, f3, l3, _, x3, _, _) = ODD
    where = f"in sentence {ODD_ID}"
    return [
        (1, 1, f"FORM · word 1 of 3, {f1}, {where}\n\n'{f1}'\n\ngold: aligned with word 1, {f1}, of {ODD_GOLD_ID}"),
        (1, 4, f"XPOS · word 1 of 3, {f1}, {where}\n\n'{x1}'\n\ngold: '`c`'"),
        (2, 1, f"FORM · word 2 of 3, {f2}, {where}\n\n'{f2}'\n\ngold: aligned with word 2, {f2}, of {ODD_GOLD_ID}"),
        (2, 2, f"LEMMA · word 2 of 3, {f2}, {where}\n\n'{l2}'\n\ngold: '{l2}' (the same)"),
        (2, 4, f"XPOS · word 2 of 3, {f2}, {where}\n\n'{x2}'\n\ngold: '{x2}' (the same)"),
        (3, 1, f"FORM · word 3 of 3, {f3}, {where}\n\n'{f3}'\n\ngold: aligned with word 3, {f3}, of {ODD_GOLD_ID}"),
        (3, 2, f"LEMMA · word 3 of 3, {f3}, {where}\n\n'{l3}'\n\ngold: '{l3}' (the same)"),
        (3, 4, f"XPOS · word 3 of 3, {f3}, {where}\n\n'{x3}'\n\ngold: '{x3}' (the same)"),
        (3, 6, f"HEAD · word 3 of 3, {f3}, {where}\n\n'2' → {f2}\n\ngold: '2' → {f2} (the same)"),
        (0, None, f"{ODD_ID} · 3 words\n\ncounted against gold {ODD_GOLD_ID}\n\nUAS 3/3 (100.0%), LAS 3/3 (100.0%)"),
    ]


def rendered(markdown: str) -> str:
    """What a user sees of Markdown: rendered as VS Code's renderer would
    (markdown-it, CommonMark with GFM tables and strikethrough), code spans
    shown in quotes, other markup gone."""
    import html
    import re as regex
    from markdown_it import MarkdownIt
    page = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)
    page = regex.sub(r"<code>(.*?)</code>", lambda m: "'" + m[1] + "'", page, flags=regex.S)
    paragraphs = regex.findall(r"<p>(.*?)</p>", page, flags=regex.S)
    assert "".join(f"<p>{p}</p>\n" for p in paragraphs) == page  # nothing but paragraphs
    return "\n\n".join(html.unescape(regex.sub(r"</?(em|strong)>", "", p)) for p in paragraphs)


async def check_odd_hovers(client: LanguageClient, kind: types.MarkupKind) -> None:
    text = odd_text(ODD_ID, "`c")
    pred, _ = workspace(client.root, pred=text, gold=odd_text(ODD_GOLD_ID, "`c`"))
    uri = open_document(client, pred)
    await diagnostics_for(client, uri)
    for line, column, expected in odd_expectations():
        character = 3 if column is None else cell(text, line, column)[1] + 1
        found = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character)))
        assert found.contents.kind == kind
        shown = rendered(found.contents.value) if kind == types.MarkupKind.Markdown else found.contents.value
        assert shown == expected, (line, character, found.contents.value)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_every_value_as_it_is_in_markdown(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    await check_odd_hovers(client, types.MarkupKind.Markdown)


@pytest.mark.asyncio(loop_scope="function")
async def test_hover_shows_every_value_as_it_is_in_plain_text(plain_client: LanguageClient):
    await check_odd_hovers(plain_client, types.MarkupKind.PlainText)


@pytest.mark.asyncio(loop_scope="function")
async def test_requests_with_bad_params_are_refused_with_invalid_params(client: LanguageClient, capfd):
    """A non-string uri, params that are not an object, a negative position:
    InvalidParams naming what is wrong, one log line each, no traceback, and
    the server goes on serving."""
    from pygls.exceptions import JsonRpcException
    uri = await open_sample(client)
    # (Opening it told why UD validation runs at level 3 here; that is not the client's mistake.)
    await wait_for(lambda: client.messages)
    assert ["levels 4-5 need a language" in m.message for m in client.messages] == [True]
    client.messages.clear()
    capfd.readouterr()
    def position(line: int, character: int) -> types.Position:
        """A position lsprotocol would refuse to make (its validator is skipped)."""
        made = types.Position(0, 0)
        object.__setattr__(made, "line", line)
        object.__setattr__(made, "character", character)
        return made

    document = types.TextDocumentIdentifier(uri=uri)
    bad = [("annoscore/score", {"uri": 5}, "uri"), ("annoscore/report", [uri], "uri"),
           ("annoscore/score", "x", "uri"),
           ("textDocument/hover", types.HoverParams(document, position(-1, 0)), "Position.line"),
           ("textDocument/definition", types.DefinitionParams(document, position(0, -4)), "Position.character"),
           ("workspace/executeCommand", types.ExecuteCommandParams("annoscore.rescore", [5]), "URI")]
    for method, params, words in bad:
        with pytest.raises(JsonRpcException) as refused:
            await client.protocol.send_request_async(method, params)
        assert refused.value.code == types.ErrorCodes.InvalidParams and words in refused.value.message, \
            (method, refused.value.message)
    # A notification cannot be answered: it is logged, and changes nothing.
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=9),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(position(-2, 0), position(0, 0)), text="x")]))
    answer = await client.protocol.send_request_async("annoscore/score", {"uri": uri})
    assert answer.counts.sentences == 9 and answer.version == 1
    await asyncio.sleep(0.2)
    err = capfd.readouterr().err
    assert err.count("annoscore WARNING: refused:") == len(bad) + 1, err
    assert "Traceback" not in err and "Error in server" not in err, err
    assert not client.messages  # nothing shown to the user for a client's mistake
