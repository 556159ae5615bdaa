"""Open, changed, saved and closed documents, into the engine.

Every change goes to the engine thread in order; positions are turned from
the client's encoding into code points there, against the engine's own copy
of the line.  Rescoring happens on save, or while typing when the setting
``run`` is ``onType`` (debounced).  A didChange with no changes (clients
send one now and then) is a change like any other: the document takes its
version, and it is rescored when any change would be.
"""

from __future__ import annotations

from lsprotocol import types

from .base import LanguageFeature
from .scoring import Scoring
from .watching import FileWatching
from ..positions import from_client


class DocumentSync(LanguageFeature):
    TYPING_DELAY = 0.3  # seconds of quiet before rescoring while typing

    def register(self) -> None:
        server = self.server

        @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
        async def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
            document = params.text_document
            key, path = ls.key_for(document.uri)
            opened = await ls.worker.run(ls.engine.open, key, path, document.text, document.version,
                                         document.language_id)
            # The engine has the text: let go of the copy in the message (pygls
            # keeps the message while the handler and the first scoring run).
            document.text = ""
            if opened is not None:
                self._scoring().schedule(key)
                ls.get_feature(FileWatching).refresh()

        @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
        async def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
            key, _ = ls.key_for(params.text_document.uri)
            await ls.worker.run(self._apply, key, params.text_document.version, params.content_changes)
            if ls.engine.settings.run == "onType":
                self._scoring().schedule(key, self.TYPING_DELAY)

        @server.feature(types.TEXT_DOCUMENT_DID_SAVE,
                        types.SaveOptions(include_text=False))
        async def did_save(ls, params: types.DidSaveTextDocumentParams) -> None:
            key, _ = ls.key_for(params.text_document.uri)
            self._scoring().schedule(key)

        @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
        async def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
            uri = params.text_document.uri
            key, _ = ls.key_for(uri)
            self._scoring().cancel(key)
            await ls.worker.run(self._close, key)
            ls.publish_diagnostics(uri, [])

    def _close(self, key: str) -> None:
        """On the engine thread: the document goes, and what was kept to show it."""
        self.server.engine.close(key)
        self.server.forget_diagnostics(key)

    def _scoring(self) -> Scoring:
        return self.server.get_feature(Scoring)

    def _apply(self, key: str, version: int, changes) -> None:
        """On the engine thread: client positions to code points, then the edit."""
        engine = self.server.engine
        document = engine.documents.get(key)
        if document is None:
            return
        if not changes:
            # A change that changes nothing still moves the document to its
            # version: what is published next says that version.
            engine.change(key, version, [])
            return
        encoding = self.server.encoding
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangeWholeDocument) or getattr(change, "range", None) is None:
                engine.change(key, version, [change.text])
                continue
            start, end = change.range.start, change.range.end
            store = document.store
            begin = (start.line, from_client(store.line(start.line), start.character, encoding))
            finish = (end.line, from_client(store.line(end.line), end.character, encoding))
            engine.change(key, version, [(begin, finish, change.text)])
