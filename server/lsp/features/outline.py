"""The sentences of a CoNLL-U document as its outline (``textDocument/documentSymbol``),
for editors' outline views and breadcrumbs (see `server.engine.outline`).

A sentence is a symbol named by its sent_id, its detail the start of its
text, marked ``unparsed`` or ``refused: CODES``; its range is its lines,
its selection range its first line.  Clients that take hierarchical
symbols get `DocumentSymbol`s, others `SymbolInformation`.

A 1M-word document has some 60,000 sentences: through lsprotocol's objects
(or pygls's converter) their answer would take seconds.  So the answer is
written as JSON text here and sent as it is (`protocol.Encoded`): each
entry's name and detail are encoded once and kept with it (entries live on
their segment, see the engine's outline), and only the line numbers are
filled in per answer.  Editors ask again and again while nothing changed
(VS Code after each edit, for its breadcrumbs): the last answer per
document is kept, for its text version and settings.
"""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..positions import to_client
from ..protocol import Encoded
from ..server import AnnoscoreServer
from ...engine.outline import OutlineEntry, segment_outlines

KIND = int(types.SymbolKind.String)


class SentenceOutline(LanguageFeature):
    server: AnnoscoreServer

    def __init__(self, server: AnnoscoreServer) -> None:
        super().__init__(server)
        self.hierarchical = True
        # Per document key: ((text version, threshold, encoding, shape), answer).
        self._answers: dict[str, tuple[tuple, Encoded]] = {}

    @handles(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def outline(self, params: types.DocumentSymbolParams) -> Any:
        return await self.server.worker.run(self.outline_of, params.text_document.uri)

    def initialize(self, params: types.InitializeParams) -> None:
        text_document = params.capabilities.text_document if params.capabilities else None
        symbols = text_document.document_symbol if text_document else None
        self.hierarchical = bool(symbols and symbols.hierarchical_document_symbol_support)

    def outline_of(self, uri: str) -> Encoded | None:
        """(On the engine thread.)"""
        ls = self.server
        key, _ = ls.key_for(uri)
        walk = segment_outlines(ls.engine, key)
        if walk is None:
            self._answers.pop(key, None)
            return None
        state = (ls.engine.documents[key].store.version, ls.engine.settings.threshold, ls.encoding,
                 self.hierarchical, uri)
        kept = self._answers.get(key)
        if kept is not None and kept[0] == state:
            return kept[1]
        encoding = ls.encoding
        parts = []
        if self.hierarchical:
            for base, entries in walk:
                for e in entries:
                    head, last_end, first_end = self._encoded(e, encoding, base)
                    first, last = base + e.first_line, base + e.last_line
                    parts.append(f'{head}"range": {{"start": {{"line": {first}, "character": 0}}, "end": '
                                 f'{{"line": {last}, "character": {last_end}}}}}, "selectionRange": '
                                 f'{{"start": {{"line": {first}, "character": 0}}, "end": {{"line": {first}, '
                                 f'"character": {first_end}}}}}}}')
        else:
            where = json.dumps(uri)
            for base, entries in walk:
                for e in entries:
                    head, last_end, _ = self._encoded(e, encoding, base)
                    first, last = base + e.first_line, base + e.last_line
                    parts.append(f'{head}"location": {{"uri": {where}, "range": {{"start": {{"line": {first}, '
                                 f'"character": 0}}, "end": {{"line": {last}, "character": {last_end}}}}}}}}}')
        answer = Encoded("[" + ", ".join(parts) + "]")
        self._answers[key] = (state, answer)
        return answer

    def _encoded(self, entry: OutlineEntry, encoding: str, base: int) -> tuple[str, int, int]:
        """The entry's JSON up to its ranges (``{"name": …, "kind": 15, ``),
        and the ends of its last and first lines in the client's units: kept
        with the entry, but for a name made from its line number."""
        kept = entry.encoded
        if kept is None or kept[0] != (encoding, self.hierarchical):
            rest = f', "detail": {json.dumps(entry.detail)}' if self.hierarchical else ""
            kept = entry.encoded = ((encoding, self.hierarchical), self._name(entry, 0) if entry.sent_id else None,
                                    f'{rest}, "kind": {KIND}, ',
                                    to_client(entry.last_text, len(entry.last_text), encoding),
                                    to_client(entry.first_text, len(entry.first_text), encoding))
        _, name, rest, last_end, first_end = kept
        return f'{{"name": {name or self._name(entry, base)}{rest}', last_end, first_end

    def _name(self, entry: OutlineEntry, base: int) -> str:
        """The entry's name as JSON (for clients without hierarchical symbols, with its detail)."""
        name = entry.name(base + entry.first_line)
        if not self.hierarchical and entry.detail:
            name = f"{name} · {entry.detail}"
        return json.dumps(name)
