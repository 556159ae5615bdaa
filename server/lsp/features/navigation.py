"""Moving along the dependency tree: ``textDocument/definition`` and
``textDocument/references`` on CoNLL-U token lines.

"Go to definition" on a word's HEAD or DEPREL goes to the word it depends
on; "find references" on a word lists the HEAD cells of the words that
depend on it (and, when the client asks for the declaration too, the word
itself).  Positions are turned between the client's encoding and code
points against the engine's own copy of each line.
"""

from __future__ import annotations

from lsprotocol import types

from annoscore.scorer.conllu.sentence import DEPREL, FORM, HEAD

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.cells import Cell, describe


class TreeNavigation(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(self, params: types.DefinitionParams) -> types.Location | None:
        return await self.server.worker.run(self.head_of, params.text_document.uri, params.position)

    @handles(types.TEXT_DOCUMENT_REFERENCES)
    async def references(self, params: types.ReferenceParams) -> list[types.Location] | None:
        return await self.server.worker.run(self.dependents_of, params.text_document.uri, params.position,
                                            params.context.include_declaration)

    # --- on the engine thread ---------------------------------------------------------

    def _cell(self, uri: str, position: types.Position) -> tuple[str, Cell] | None:
        looked = self.server.conllu_lookup(uri, position, describe)
        return looked if looked is not None and isinstance(looked[1], Cell) else None

    def _location(self, key: str, uri: str, where: tuple[int, int, int]) -> types.Location:
        line, start, end = where
        return types.Location(uri=uri, range=self.server.client_range(key, line, start, line, end))

    def head_of(self, uri: str, position: types.Position) -> types.Location | None:
        found = self._cell(uri, position)
        if found is None or found[1].column not in (HEAD, DEPREL):
            return None
        key, cell = found
        target = cell.head_word()
        return None if target is None else self._location(key, uri, target)

    def dependents_of(self, uri: str, position: types.Position,
                      include_declaration: bool) -> list[types.Location] | None:
        found = self._cell(uri, position)
        if found is None or found[1].word is None:
            return None
        key, cell = found
        places = cell.dependents()
        if include_declaration:
            places.insert(0, cell.word_cell(cell.word, FORM))  # type: ignore[arg-type]
        return [self._location(key, uri, where) for where in places]
