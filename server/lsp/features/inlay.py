"""Inlay hints (``textDocument/inlayHint``): after each HEAD cell the head
word's FORM (``5 ▸ demir``, ``0 ▸ root``), after each DEPS item its head's,
so that an annotator reads the tree without counting lines.

Computed for the range the client asks (its visible lines) from the
sentences on it only (`server.engine.reading.inlay_hints`).  On by default;
``annoscore.inlayHints: false`` turns them off (the answer is then empty).
"""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..positions import to_client
from ..server import AnnoscoreServer
from ...engine.reading import inlay_hints


class InlayHints(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(self, params: types.InlayHintParams) -> list[types.InlayHint] | None:
        return await self.server.worker.run(self.hints, params.text_document.uri, params.range)

    def hints(self, uri: str, span: types.Range) -> list[types.InlayHint] | None:
        """(On the engine thread.)"""
        ls = self.server
        if not ls.engine.settings.inlay_hints:
            return []
        key, _ = ls.key_for(uri)
        document = ls.engine.documents.get(key)
        if document is None or document.format != "conllu":
            return None
        store = document.store
        last = min(span.end.line, store.last_line)
        out = []
        text_line, text = -1, ""
        for hint in inlay_hints(ls.engine, key, span.start.line, last):
            if hint.line != text_line:
                text_line, text = hint.line, store.line(hint.line)
            out.append(types.InlayHint(
                position=types.Position(hint.line, to_client(text, hint.column, ls.encoding)),
                label=hint.label, padding_left=True))
        return out
