"""Completion in CoNLL-U cells (``textDocument/completion``): UPOS tags,
relations, and HEADs offered as the sentence's words; with validation at
levels 4-5, the language's relation subtypes, features and auxiliaries (see
`server.engine.completion`).  Each item's edit replaces the span the engine
gives: the whole cell, or the FEATS item under the cursor."""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.completion import complete


class CellCompletion(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions())
    async def completion(self, params: types.CompletionParams) -> types.CompletionList | None:
        return await self.server.worker.run(self.items, params.text_document.uri, params.position)

    def items(self, uri: str, position: types.Position) -> types.CompletionList | None:
        """(On the engine thread.)"""
        ls = self.server
        looked = ls.conllu_lookup(uri, position, complete)
        if looked is None:
            return None
        key, found = looked
        cell = ls.client_range(key, found.line, found.start, found.line, found.end)
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=c.value, detail=c.detail, sort_text=c.sort, filter_text=c.value,
                                 kind=types.CompletionItemKind.EnumMember,
                                 text_edit=types.TextEdit(range=cell, new_text=c.value))
            for c in found.candidates])
