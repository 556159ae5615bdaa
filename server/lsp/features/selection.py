"""Selection ranges (``textDocument/selectionRange``): expanding the
selection goes from the cell to the word's line to the sentence
(`server.engine.reading.selection_ranges`)."""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.reading import selection_ranges


class CellSelection(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_SELECTION_RANGE)
    async def selection_range(self, params: types.SelectionRangeParams) -> list[types.SelectionRange] | None:
        return await self.server.worker.run(self.ranges, params.text_document.uri, params.positions)

    def ranges(self, uri: str, positions: list[types.Position]) -> list[types.SelectionRange] | None:
        """(On the engine thread.)  One chain per position, as the protocol asks."""
        ls = self.server
        out = []
        for position in positions:
            where = ls.conllu_position(uri, position.line, position.character)
            if where is None:
                return None
            key = where[0]
            chain = None
            for l1, c1, l2, c2 in reversed(selection_ranges(ls.engine, key, position.line, where[1])):
                chain = types.SelectionRange(range=ls.client_range(key, l1, c1, l2, c2), parent=chain)
            out.append(chain or types.SelectionRange(range=types.Range(position, position)))
        return out
