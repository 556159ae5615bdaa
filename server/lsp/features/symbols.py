"""Go to a sentence by its sent_id (``workspace/symbol``), across the open
CoNLL-U documents (see `server.engine.symbols`)."""

from __future__ import annotations

from lsprotocol import types

from .base import LanguageFeature
from ...engine.symbols import find_sentences


class SentenceSymbols(LanguageFeature):
    def register(self) -> None:
        @self.server.feature(types.WORKSPACE_SYMBOL)
        async def symbols(ls, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
            return await ls.worker.run(self.find, params.query)

    def find(self, query: str) -> list[types.SymbolInformation]:
        """(On the engine thread.)"""
        ls = self.server
        return [types.SymbolInformation(
            name=found.sent_id, kind=types.SymbolKind.String, container_name="sentence",
            location=types.Location(uri=ls.uri_for(found.key),
                                    range=ls.client_range(found.key, found.line, 0, found.line, found.end)))
            for found in find_sentences(ls.engine, query)]
