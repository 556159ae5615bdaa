"""Open, changed, saved and closed documents, into the engine.

Every change goes to the engine thread in order; positions are turned from
the client's encoding into code points there, against the engine's own copy
of the line.  Once the engine has it, every feature hears of it
(`LanguageFeature.document_opened` … `document_closed`): that is how a
document is rescored (`Scoring`) and its folder watched (`FileWatching`).
A didChange with no changes (clients send one now and then) is a change
like any other: the document takes its version, and it is rescored when
any change would be.
"""

from __future__ import annotations

import logging

from lsprotocol import types

from annoscore.scorer.gcpause import gc_paused

from ..feature import LanguageFeature, handles
from ..positions import from_client
from .. import shown_cache
from ..server import AnnoscoreServer
from .scoring import Scoring

logger = logging.getLogger("annoscore")


class DocumentSync(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        ls = self.server
        document = params.text_document
        key, path = ls.key_for(document.uri)
        # A large document opened again: what it showed, at once (see shown_cache).
        # Both calls are queued here, in this order, before anything else
        # the client sent next (a didChange) can be: the engine has the
        # document before any change to it.
        looked_up = ls.worker.submit(self._kept, key, path, document.text)
        opening = ls.worker.submit(ls.engine.open, key, path, document.text, document.version,
                                   document.language_id)
        kept = await looked_up
        if kept is not None:
            ls.get_feature(Scoring).publish_kept(key, *kept, document.version)
        opened = await opening
        # The engine has the text: let go of the copy in the message (pygls
        # keeps the message while the handler and the first scoring run).
        document.text = ""
        if opened is not None:
            ls.announce(lambda feature: feature.document_opened(key))

    @handles(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        ls = self.server
        key, _ = ls.key_for(params.text_document.uri)
        ls.keep_shown.pop(key, None)  # (another text than the one opened: not kept)
        await ls.worker.run(self._apply, key, params.text_document.version, params.content_changes)
        ls.announce(lambda feature: feature.document_changed(key))

    @handles(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        key, _ = self.server.key_for(params.text_document.uri)
        self.server.announce(lambda feature: feature.document_saved(key))

    @handles(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        ls = self.server
        uri = params.text_document.uri
        key, _ = ls.key_for(uri)
        ls.announce(lambda feature: feature.document_closed(key))
        await ls.worker.run(self._close, key)
        ls.publish_diagnostics(uri, [])

    # --- on the engine thread -------------------------------------------------------

    def _kept(self, key: str, path: str | None, text: str) -> tuple[list[str], dict | None] | None:
        """What the document showed when last opened with this text and these
        settings, if kept (`shown_cache`); its entry key is noted for its
        first complete publication to be kept under (see Scoring)."""
        ls = self.server
        ls.shown_from_cache.pop(key, None)
        ls.keep_shown.pop(key, None)
        if key in ls.engine.documents:  # (open already, as another's gold: shows more than its own)
            return None
        try:
            # Without the collector: after a close (`Engine.close` unfreezes
            # what earlier passes froze), the strings made here would set
            # off a full collection of the whole heap, ~50 ms of a reopening's
            # 0.23 s, before the first publication.
            with gc_paused():
                entry = shown_cache.entry_key(ls.engine, key, path, text, ls.uri_for(key), ls.encoding)
                kept = None if entry is None else shown_cache.load(entry)
        except Exception:  # a fault in the cache costs the cache only: the document opens as always
            logger.exception("the cache of what %s showed could not be read; opened without it", key)
            return None
        if entry is None:
            return None
        if kept is None:
            ls.keep_shown[key] = entry
        return kept

    def _close(self, key: str) -> None:
        """The document goes, and what was kept to show it."""
        self.server.engine.close(key)
        self.server.forget_diagnostics(key)
        self.server.shown_from_cache.pop(key, None)
        self.server.keep_shown.pop(key, None)

    def _apply(self, key: str, version: int, changes) -> None:
        """Client positions to code points, then the edit."""
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
