"""What the language server publishes while the UD validator's helpers
re-validate many blocks (issue 25, item 2), through a real client, with
edits and saves that do not wait for the server.

Every published set is compared with a fresh check of the version it names
(the default diagnostic limits are not reached: each fresh set is held
below them).  The one allowance, while blocks are pending (docs/reliability.md):
with ``u`` the last version whose published set was complete and ``changed``
the lines of the sentences whose text ``u`` did not have,

* annoscore's own diagnostics are exactly the fresh ones;
* a validator finding of the fresh check is missing only on a changed
  line, or when it is a document-wide check's that the last complete pass
  found as many times as the fresh check does not (by test id and
  message: the facts of that check changed, and its findings still show
  the last complete pass);
* a validator finding the fresh check lacks is one of the last complete
  pass's document-wide findings (by test id and message), on a line not
  changed;
* the last set published equals the fresh check.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.support.lsp import wait_for
from tests.support.flicker import VALIDATOR_CODES, Allowance, Fresh, big_document, rewritten
from tests.support.incremental import VALIDATION_EDITS, random_edit
from tests.server.lsp.test_lsp_incremental import racing_client  # noqa: F401  (the fixture)

def published_set(params: types.PublishDiagnosticsParams) -> set[tuple]:
    return {(d.code, d.range.start.line, d.range.start.character, d.range.end.character, d.message)
            for d in params.diagnostics}


def check_against_fresh(published: list, texts: dict, fresh) -> int:
    """The allowance of the module's docstring (`flicker_support.Allowance`),
    for every set in the order published; returns how many sets were
    incomplete (blocks pending)."""
    allowance = Allowance()
    return sum(not allowance.judge(p.version, published_set(p), fresh(p.version), texts[p.version])
               for p in published)


def whole_text(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def settle(client: LanguageClient, uri: str, version: int, fresh) -> None:
    """Until the last set published is the fresh check of ``version``."""
    await wait_for(lambda: client.published and client.published[-1].uri == uri
                   and client.published[-1].version == version
                   and published_set(client.published[-1]) == fresh(version).all, timeout=90)



def fresh_runs(root, path, texts: dict[int, str]):
    """A fresh run of each version's text (``texts[v]``), made once per version."""
    return functools.cache(lambda v: Fresh(root, path, texts[v]))

@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.asyncio(loop_scope="function")
async def test_every_publish_keeps_the_findings_of_unchanged_sentences(racing_client: LanguageClient, seed):
    client = racing_client
    rng = random.Random(seed)
    text = big_document()
    pred = client.root / "x.conllu"
    pred.write_text(text, encoding="utf-8")
    uri = pred.as_uri()
    texts = {1: text}
    fresh = fresh_runs(client.root, pred, texts)

    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=text)))
    await settle(client, uri, 1, fresh)
    version = 1
    for step in range(24):
        version += 1
        kind = rng.random()
        if kind < 0.3:  # many sentences rewritten at once (a paste, a formatter, the file again)
            start = rng.randrange(0, 200)
            text = rewritten(text, start, rng.randrange(620, 700), f"{version}")
            whole_text(client, uri, version, text)
        elif kind < 0.45:  # the whole text again, one blank line more (a sentence split)
            lines = text.split("\n")
            lines.insert(rng.randrange(1, 8), "")
            text = "\n".join(lines)
            whole_text(client, uri, version, text)
        else:
            change, text, _ = random_edit(text, VALIDATION_EDITS, rng)
            (l1, c1), (l2, c2), new = change
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=l1, character=c1),
                                      end=types.Position(line=l2, character=c2)), text=new)]))
        texts[version] = text
        if rng.random() < 0.6:  # saves not awaited
            save(client, uri)
        await asyncio.sleep(rng.choice([0, 0.01, 0.05, 0.3, 0.8]))
    save(client, uri)
    await settle(client, uri, version, fresh)
    incomplete = check_against_fresh([p for p in client.published if p.uri == uri], texts, fresh)
    assert len({p.version for p in client.published}) >= 6
    if len(os.sched_getaffinity(0)) >= 2:  # (one core: no helpers, nothing is ever pending)
        assert incomplete >= 1, "no set was published while blocks were pending: the test tests nothing"


@pytest.mark.asyncio(loop_scope="function")
async def test_ewt_dev_split_sentence_keeps_every_finding(racing_client: LanguageClient, shared):
    """The issue's reproduction: EWT dev with a copy of itself as gold; a blank
    line inside sentence 1, the whole text sent (as on a revert or a reload),
    saved.  No set published after that has fewer validator findings than
    the 416 of the text before."""
    client = racing_client
    source = shared("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    pred = client.root / "en_ewt-ud-dev.conllu"
    shutil.copy(source, pred)
    shutil.copy(source, client.root / "en_ewt-ud-dev.gold.conllu")
    text = pred.read_text(encoding="utf-8")
    uri = pred.as_uri()
    texts = {1: text}
    lines = text.split("\n")
    lines.insert(5, "")
    texts[2] = "\n".join(lines)
    fresh = fresh_runs(client.root, pred, texts)

    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="conllu", version=1, text=text)))
    await settle(client, uri, 1, fresh)
    before = sum(d.code in VALIDATOR_CODES for d in client.published[-1].diagnostics)
    n = len(client.published)
    whole_text(client, uri, 2, texts[2])
    save(client, uri)
    await settle(client, uri, 2, fresh)
    after = [sum(d.code in VALIDATOR_CODES for d in p.diagnostics) for p in client.published[n:]]
    assert before == 416 and after and min(after) >= before, (before, after)
    check_against_fresh(client.published, texts, fresh)
