"""The reading aids through a real client: inlay hints, document highlight,
folding and selection ranges, each compared with what a fresh parse of the
whole text says (`scorer.conllu.parse.parse_blocks`)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.lsp import wait_for
from annoscore.scorer.conllu.parse import parse_blocks
from tests.server.lsp.test_lsp import settings_client, shared_client, shared_server, configure, open_document  # noqa: F401  (the fixtures, under every preset)

TEXT = (
    "# sent_id = a\n# text = du vin\n"
    "1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\tde\tde\tADP\t_\t_\t3\tcase\t3:case\t_\n"
    "2\tle\tle\tDET\t_\t_\t3\tdet\t3:det|1.1:x\t_\n"
    "1.1\tX\t_\t_\t_\t_\t_\t_\t2:y\t_\n"
    "3\tvin\tvin\tNOUN\t_\t_\t0\troot\t0:root\t_\n"
    "\n"
    "# sent_id = b\n# text = ok\n"
    "1\tok\tok\tX\t_\t_\t0\troot\t_\t_\n"
    "\n")
LINES = TEXT.split("\n")


def _doc(client: LanguageClient, text: str = TEXT) -> str:
    path = client.root / "read.conllu"
    path.write_text(text)
    return open_document(client, path)


def _tdi(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


@pytest.mark.asyncio(loop_scope="module")
async def test_inlay_hints_name_the_head_after_head_and_deps_and_can_be_turned_off(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    uri = _doc(client)
    await wait_for(lambda: uri in client.diagnostics)
    whole = types.Range(types.Position(0, 0), types.Position(len(LINES), 0))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_tdi(uri), range=whole))
    got = [(h.position.line, LINES[h.position.line][:h.position.character].split("\t")[-1], h.label) for h in hints]
    assert got == [(3, "3", "▸ vin"), (3, "3:case", "▸ vin"), (4, "3", "▸ vin"), (4, "3:det", "▸ vin"),
                   (4, "3:det|1.1:x", "▸ X"), (5, "2:y", "▸ le"), (6, "0", "▸ root"), (6, "0:root", "▸ root"),
                   (10, "0", "▸ root")]
    # Only the range asked for.
    part = types.Range(types.Position(6, 0), types.Position(6, 5))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=_tdi(uri), range=part))
    assert [h.position.line for h in hints] == [6, 6]
    configure(client, {"inlayHints": False})

    async def none_left():
        return not await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=_tdi(uri), range=whole))

    for _ in range(100):
        if await none_left():
            break
        await __import__("asyncio").sleep(0.05)
    assert await none_left()


@pytest.mark.asyncio(loop_scope="module")
async def test_highlight_marks_the_word_its_head_and_its_dependents(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = _doc(client)
    await wait_for(lambda: uri in client.diagnostics)
    got = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=_tdi(uri), position=types.Position(4, 10)))  # "le", head "vin"
    assert [(h.range.start.line, h.range.start.character, h.range.end.character, h.kind) for h in got] == \
        [(4, 2, 4, types.DocumentHighlightKind.Text), (6, 2, 5, types.DocumentHighlightKind.Write)]
    got = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=_tdi(uri), position=types.Position(6, 0)))  # "vin": the root, two dependents
    assert [(h.range.start.line, h.kind) for h in got] == \
        [(6, types.DocumentHighlightKind.Text), (3, types.DocumentHighlightKind.Read),
         (4, types.DocumentHighlightKind.Read)]
    assert await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=_tdi(uri), position=types.Position(0, 3))) is None  # a comment


@pytest.mark.asyncio(loop_scope="module")
async def test_folding_per_sentence_and_multiword_token(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = _doc(client)
    await wait_for(lambda: uri in client.diagnostics)
    got = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=_tdi(uri)))
    assert [(r.start_line, r.end_line) for r in got] == [(0, 6), (2, 4), (8, 10)]


@pytest.mark.asyncio(loop_scope="module")
async def test_selection_grows_from_cell_to_line_to_sentence(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    uri = _doc(client)
    await wait_for(lambda: uri in client.diagnostics)
    (chain,) = await client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=_tdi(uri), positions=[types.Position(3, 19)]))  # in DEPREL "case"
    spans = []
    while chain is not None:
        r = chain.range
        spans.append((r.start.line, r.start.character, r.end.line, r.end.character))
        chain = chain.parent
    assert spans == [(3, 18, 3, 22), (3, 0, 3, len(LINES[3])), (0, 0, 6, len(LINES[6]))]


def test_reading_aids_equal_a_fresh_parse_on_generated_and_real_sentences():
    """Property: over generated documents (and the shared UD data when
    present), each aid says what a fresh parse of the whole text says."""
    import random
    from pathlib import Path

    from annoscore.scorer.conllu.columns import cell_span
    from annoscore.server.engine import Engine
    from annoscore.server.engine.reading import folding_ranges, highlights, inlay_hints

    rng = random.Random(27)
    texts = [_generated(rng) for _ in range(30)]
    ud = Path("/work/shared/data/ud")
    if ud.is_dir():
        for path in sorted(ud.glob("*/*.conllu"))[:6]:
            texts.append("\n".join(path.read_text(encoding="utf-8").split("\n")[:3000]).rsplit("\n\n", 1)[0] + "\n\n")
    for n, text in enumerate(texts):
        engine = Engine()
        engine.open(f"k{n}", None, text, language="conllu")
        lines = text.split("\n")
        fresh = parse_blocks(text, 0)
        expect_hints, expect_folds, expect_marks = [], [], {}
        for s in fresh:
            forms = {"0": "root", **{str(i + 1): f for i, f in enumerate(s.form)}}
            for r in s.empty_lines:
                c = s.lines[r].split("\t")
                forms[c[0]] = c[1]
            for r, line in enumerate(s.lines):
                if line.startswith("#") or line.count("\t") < 9:
                    continue
                c = line.split("\t")
                at = s.first_line + r
                if c[6] in forms:
                    expect_hints.append((at, cell_span(line, 6)[1], "▸ " + forms[c[6]]))
                if c[8] != "_":
                    end = cell_span(line, 8)[0]
                    for item in c[8].split("|"):
                        end += len(item)
                        if item.split(":", 1)[0] in forms:
                            expect_hints.append((at, end, "▸ " + forms[item.split(":", 1)[0]]))
                        end += 1
            if s.n_lines > 1:
                expect_folds.append((s.first_line, s.first_line + s.n_lines - 1))
            for m in s.mwts:
                expect_folds.append((s.first_line + m.line, s.first_line + s.word_line[m.end - 1]))
            for i in range(len(s.form)):
                want = {(s.first_line + s.word_line[i], "word")}
                if s.heads[i] and s.heads[i] <= len(s.form):
                    want.add((s.first_line + s.word_line[s.heads[i] - 1], "head"))
                want |= {(s.first_line + s.word_line[j], "dependent")
                         for j, h in enumerate(s.heads) if h == i + 1 and j != i}
                expect_marks[s.first_line + s.word_line[i]] = want
        got = [(h.line, h.column, h.label) for h in inlay_hints(engine, f"k{n}", 0, len(lines))]
        assert got == expect_hints, n
        assert sorted(folding_ranges(engine, f"k{n}")) == sorted(expect_folds), n
        for line, want in list(expect_marks.items())[:200]:
            assert {(m.line, m.role) for m in highlights(engine, f"k{n}", line)} == want, (n, line)
        # Visible range only: a window's hints are the whole's on those lines.
        a = rng.randrange(len(lines))
        assert [(h.line, h.column, h.label) for h in inlay_hints(engine, f"k{n}", a, a + 20)] == \
            [h for h in expect_hints if a <= h[0] <= a + 20]


def _generated(rng) -> str:
    out = []
    for k in range(rng.randint(1, 6)):
        n = rng.randint(1, 8)
        lines = [f"# sent_id = s{k}"] if rng.random() < 0.8 else []
        lines.append("# text = x")
        mwt = rng.randint(1, n - 1) if n > 1 and rng.random() < 0.5 else None
        root = rng.randint(1, n)
        for i in range(1, n + 1):
            if i == mwt:
                lines.append(f"{i}-{i + 1}\tmw{i}\t_\t_\t_\t_\t_\t_\t_\t_")
            head = 0 if i == root else rng.choice([root, rng.randint(0, n + 1), "_"])
            deps = "_" if rng.random() < 0.5 else "|".join(sorted({f"{rng.randint(0, n)}:dep"
                                                                  for _ in range(rng.randint(1, 3))}))
            lines.append(f"{i}\tw{i}_{rng.randint(0, 9)}\tl\tNOUN\t_\t_\t{head}\tdep\t{deps}\t_")
            if rng.random() < 0.1:
                lines.append(f"{i}.1\te{i}\t_\t_\t_\t_\t_\t_\t{rng.randint(0, n)}:x\t_")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n\n"


@pytest.mark.asyncio(loop_scope="module")
async def test_did_you_mean_offers_the_nearest_upos_and_relation_never_preferred(shared_client: LanguageClient):
    client = shared_client  # the module's server (shared_client: why it may)
    text = ("# sent_id = a\n# text = de vin\n"
            "1\tde\tde\tADPP\t_\t_\t2\tcsae\t_\t_\n"
            "2\tvin\tvin\tnoun\t_\t_\t0\troot\t_\t_\n\n")
    uri = _doc(client, text)
    diagnostics = await _diagnostics_with(client, uri, {"unknown-upos", "unknown-udeprel"})
    got = {}
    for d in diagnostics:
        if d.code not in ("unknown-upos", "unknown-udeprel"):
            continue
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=_tdi(uri), range=d.range, context=types.CodeActionContext(diagnostics=[d])))
        guesses = [a for a in actions or [] if a.title.startswith("Did you mean")]
        assert guesses and not any(a.is_preferred for a in guesses)
        got[(d.code, d.range.start.line)] = [a.edit.changes[uri][0].new_text for a in guesses]
    assert got[("unknown-upos", 2)][0] == "ADP"
    assert got[("unknown-upos", 3)][0] == "NOUN"  # case only: first
    assert got[("unknown-udeprel", 2)][0] == "case"


async def _diagnostics_with(client, uri, codes):
    await wait_for(lambda: codes <= {d.code for d in client.diagnostics.get(uri, [])}, timeout=30)
    return client.diagnostics[uri]
