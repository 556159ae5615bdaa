"""Folding ranges (``textDocument/foldingRange``): one per sentence, its
comments included, and one per multiword token (its range line over its
words), from `server.engine.reading.folding_ranges`.

A 1M-word document has some 60,000 sentences: the answer is written as
JSON text (`protocol.Encoded`), as the outline's is, not through
lsprotocol's objects.  Only lines are sent (``startLine``/``endLine``), so
no column needs converting.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..protocol import Encoded
from ..server import AnnoscoreServer
from ...engine.reading import folding_ranges


class SentenceFolding(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding_range(self, params: types.FoldingRangeParams) -> Any:
        return await self.server.worker.run(self.ranges, params.text_document.uri)

    def ranges(self, uri: str) -> Encoded | None:
        """(On the engine thread.)"""
        key, _ = self.server.key_for(uri)
        found = folding_ranges(self.server.engine, key)
        if found is None:
            return None
        return Encoded("[" + ", ".join(f'{{"startLine": {a}, "endLine": {b}, "kind": "region"}}'
                                       for a, b in found) + "]")
