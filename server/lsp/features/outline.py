"""The sentences of a CoNLL-U document as its outline (``textDocument/documentSymbol``),
for editors' outline views and breadcrumbs (see `server.engine.outline`).

A sentence is a symbol named by its sent_id, its detail the start of its
text, marked ``unparsed`` or ``refused: CODES``; its range is its lines,
its selection range its first line.  Clients that take hierarchical
symbols get `DocumentSymbol`s, others `SymbolInformation`.  The answer is
made of plain dicts: a 1M-word document has some 60,000 sentences, and
turning that many lsprotocol objects into JSON would take far longer than
finding them.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from .base import LanguageFeature
from ..positions import to_client
from ...engine.outline import sentence_outline

KIND = int(types.SymbolKind.String)


class SentenceOutline(LanguageFeature):
    def __init__(self, server) -> None:
        super().__init__(server)
        self.hierarchical = True

    def register(self) -> None:
        @self.server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
        async def outline(ls, params: types.DocumentSymbolParams) -> list[Any] | None:
            return await ls.worker.run(self.outline_of, params.text_document.uri)

    def initialize(self, params: types.InitializeParams) -> None:
        text_document = params.capabilities.text_document if params.capabilities else None
        symbols = text_document.document_symbol if text_document else None
        self.hierarchical = bool(symbols and symbols.hierarchical_document_symbol_support)

    def outline_of(self, uri: str) -> list[dict[str, Any]] | None:
        """(On the engine thread.)"""
        ls = self.server
        key, _ = ls.key_for(uri)
        entries = sentence_outline(ls.engine, key)
        if entries is None:
            return None
        encoding = ls.encoding
        out = []
        for entry in entries:
            first = {"line": entry.first_line, "character": 0}
            whole = {"start": first, "end": {"line": entry.last_line,
                                             "character": to_client(entry.last_text, len(entry.last_text), encoding)}}
            if self.hierarchical:
                out.append({"name": entry.name, "detail": entry.detail, "kind": KIND, "range": whole,
                            "selectionRange": {"start": first, "end": {
                                "line": entry.first_line,
                                "character": to_client(entry.first_text, len(entry.first_text), encoding)}}})
            else:
                out.append({"name": f"{entry.name} · {entry.detail}" if entry.detail else entry.name,
                            "kind": KIND, "location": {"uri": uri, "range": whole}})
        return out
