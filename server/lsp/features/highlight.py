"""Document highlight (``textDocument/documentHighlight``): with the cursor
on a word's line, its FORM, its head's FORM (kind Write, the strong colour)
and its dependents' FORMs (kind Read) are highlighted: the word's place in
the tree at a glance (`server.engine.reading.highlights`)."""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.reading import highlights

KINDS = {"word": types.DocumentHighlightKind.Text, "head": types.DocumentHighlightKind.Write,
         "dependent": types.DocumentHighlightKind.Read}


class TreeHighlight(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def document_highlight(self, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
        return await self.server.worker.run(self.marks, params.text_document.uri, params.position)

    def marks(self, uri: str, position: types.Position) -> list[types.DocumentHighlight] | None:
        """(On the engine thread.)"""
        ls = self.server
        where = ls.conllu_position(uri, position.line, position.character)
        if where is None:
            return None
        key = where[0]
        return [types.DocumentHighlight(range=ls.client_range(key, m.line, m.start, m.line, m.end), kind=KINDS[m.role])
                for m in highlights(ls.engine, key, position.line)] or None
