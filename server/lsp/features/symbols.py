"""Go to a sentence by its sent_id (``workspace/symbol``), across the open
CoNLL-U documents (see `server.engine.symbols`)."""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.symbols import find_sentences


class SentenceSymbols(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.WORKSPACE_SYMBOL)
    async def symbols(self, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        return await self.server.worker.run(self.find, params.query)

    def find(self, query: str) -> list[types.SymbolInformation]:
        """(On the engine thread.)"""
        ls = self.server
        return [types.SymbolInformation(
            name=found.sent_id, kind=types.SymbolKind.String, container_name="sentence",
            location=types.Location(uri=ls.uri_for(found.key),
                                    range=ls.client_range(found.key, found.line, 0, found.line, found.end)))
            for found in find_sentences(ls.engine, query)]
