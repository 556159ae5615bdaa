"""Diagnostics link to their code's entry on the reference page (codeDescription)
when docsUrl is set, and carry no link when it is not; over the wire (pytest-lsp)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_lsp import LanguageClient

from tests.project.test_docs_site import anchors
from tests.server.lsp.test_lsp import configure, diagnostics_for, open_sample, settings_client, shared_client, shared_server  # noqa: F401  (the fixtures, every preset)
from tests.support.lsp import wait_for

BASE = "https://annoscore.example/reference/codes/"
CODES_PAGE = Path(__file__).resolve().parents[3] / "docs" / "reference" / "codes.md"


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_link_to_their_entry_only_with_a_docs_url(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    uri = await open_sample(client)
    before = client.diagnostics[uri]
    assert before and all(d.code_description is None for d in before)  # the default: no links
    configure(client, {"docsUrl": BASE})
    # A settings change republishes (the cached JSON of each diagnostic has no link).
    await wait_for(lambda: client.diagnostics[uri] and all(d.code_description for d in client.diagnostics[uri]))
    linked = client.diagnostics[uri]
    page = anchors(CODES_PAGE)
    for d in linked:
        href = d.code_description.href
        assert href == f"{BASE}#{d.code}", href  # annoscore's own entry (multiple-roots: not the validator's)
        assert href.rpartition("#")[2] in page  # the generated page has that anchor
    assert {"multiple-roots", "low-confidence"} <= {d.code for d in linked}
    configure(client, {"docsUrl": ""})
    await wait_for(lambda: client.diagnostics[uri] is not linked
                   and all(d.code_description is None for d in client.diagnostics[uri]))


@pytest.mark.asyncio(loop_scope="module")
async def test_an_invalid_docs_url_is_reported_and_no_link_made(settings_client: LanguageClient):
    client = settings_client  # the module's server, its settings reset afterwards
    configure(client, {"docsUrl": "annoscore.example/codes"})
    await wait_for(lambda: client.messages)
    assert "docsUrl" in client.messages[-1].message
    uri = await open_sample(client)
    diagnostics = await diagnostics_for(client, uri)
    assert diagnostics and all(d.code_description is None for d in diagnostics)
