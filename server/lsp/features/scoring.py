"""Rescoring, and telling the client: diagnostics and ``annoscore/score``.

A document is rescored when it is opened or saved, while typing when the
setting ``run`` is ``onType`` (debounced), and when the settings or files
on disk change what it shows: the events every feature hears
(`server.lsp.feature.LanguageFeature`).

A rescore is scheduled per document; scheduling again before it started
replaces it (so a burst of saves or keystrokes costs one rescore, and a newer
change supersedes stale work).  The engine does the work on its thread; the
results go out from the event loop.

Requests: ``annoscore/score`` ``{uri}`` returns the score payload (or null);
``annoscore/report`` ``{uri}`` returns ``{uri, text}``, the plain-text report.
Command ``annoscore.rescore`` (optional argument: a URI, or ``{uri}``;
default every open document).  Params of another shape are refused with
InvalidParams before a handler runs (`AnnoscoreProtocol.check_params`).

UD validation: a large document's first validation runs in helper
processes and is not waited for (`Engine.validation_pending`); when it is
done the document is rescored again, which publishes its findings.  Why
some validation did not run (no language for levels 4-5, no UD data) is
told once, as a message (`Engine.new_notes`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from ..feature import LanguageFeature, command, handles
from ..params import uri_of, uri_problem
from ..progress import PassProgress
from .. import shown_cache
from ..server import AnnoscoreServer, ShownFromCache
from ..transport import shown
from ...engine.editing import sent_ids
from ...textstore import TextStore

logger = logging.getLogger("annoscore")

SCORE = "annoscore/score"
REPORT = "annoscore/report"
RESCORE = "annoscore.rescore"


def rescore_arguments_problem(arguments: Any) -> str | None:
    """What is wrong with annoscore.rescore's arguments: none, a URI or {uri}."""
    if arguments is None or arguments == []:
        return None
    if not isinstance(arguments, list):
        return f"the arguments must be an array (of at most one URI), not {shown(arguments)}"
    if len(arguments) > 1:
        return f"expected at most one argument (a URI), not {len(arguments)}"
    (argument,) = arguments
    if isinstance(argument, str) or (isinstance(argument, dict) and isinstance(argument.get("uri"), str)):
        return None
    return f"expected a URI or {{\"uri\": URI}}, not {shown(argument)}"


class Scoring(LanguageFeature):
    server: AnnoscoreServer
    TYPING_DELAY = 0.3  # seconds of quiet before rescoring while typing

    def __init__(self, server: AnnoscoreServer) -> None:
        super().__init__(server)
        self._pending: dict[str, asyncio.Task] = {}
        self._validating: dict[str, Any] = {}  # key -> the validation future waited for

    @handles(SCORE, check=uri_problem)
    async def score(self, params: Any) -> dict[str, Any] | None:
        uri = uri_of(params)
        if uri is None:
            return None
        ls = self.server
        return await ls.worker.run(ls.score_payload, ls.key_for(uri)[0])

    @handles(REPORT, check=uri_problem)
    async def report(self, params: Any) -> dict[str, Any] | None:
        uri = uri_of(params)
        if uri is None:
            return None
        ls = self.server
        text = await ls.worker.run(ls.engine.report, ls.key_for(uri)[0])
        return None if text is None else {"uri": uri, "text": text}

    @command(RESCORE, check=rescore_arguments_problem)
    async def rescore_command(self, *args: Any) -> None:
        ls = self.server
        uri = uri_of(args[0]) if args else None
        if isinstance(args[0] if args else None, str):
            uri = args[0]
        if uri:
            self.schedule(ls.key_for(uri)[0])
        else:
            for document in list(ls.engine.documents.values()):
                if document.in_editor:
                    self.schedule(document.key)

    # --- events: what is rescored when --------------------------------------

    def document_opened(self, key: str) -> None:
        self.schedule(key)

    def document_changed(self, key: str) -> None:
        if self.server.engine.settings.run == "onType":
            self.schedule(key, self.TYPING_DELAY)

    def document_saved(self, key: str) -> None:
        self.schedule(key)

    def document_closed(self, key: str) -> None:
        self.cancel(key)

    def settings_changed(self, keys: list[str]) -> None:
        for key in keys:
            self.schedule(key)

    def files_changed(self, keys: list[str]) -> None:
        for key in keys:
            self.schedule(key)

    # --- scheduling ----------------------------------------------------------

    def schedule(self, key: str, delay: float = 0.0) -> None:
        self.cancel(key)
        self._pending[key] = self.server.tasks.spawn(self._later(key, delay), f"rescore {key}")

    def cancel(self, key: str) -> None:
        task = self._pending.pop(key, None)
        if task is not None and not task.done():
            task.cancel()

    async def _later(self, key: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        self._pending.pop(key, None)
        await self.rescore(key)

    async def rescore(self, key: str) -> None:
        """Rescore and read the results in one job on the engine thread, so
        that an edit arriving meanwhile cannot slip in between: what is
        published is what was scored, with the version that was scored."""
        ls = self.server
        progress = None
        if key not in ls.shown_from_cache and PassProgress.wanted(ls) \
                and await ls.worker.run(ls.engine.long_pass_ahead, key):
            progress = PassProgress(ls, key)
            if not await progress.begin():
                progress = None
        try:
            results = await ls.worker.run(self._rescore_and_results, key,
                                          progress.report if progress is not None else None)
        finally:
            if progress is not None:
                progress.end()
        for other, found, notes, validating in results:
            self._send(other, *found, complete=validating is None)
            entry = ls.keep_shown.pop(other, None) if validating is None and found[0] is not None else None
            if entry is not None:
                ls.tasks.spawn(ls.worker.run(self._keep_shown, other, entry, found[0], found[1], found[2]),
                               f"keeping what {other} shows")
            for note in notes:
                ls.window_show_message(types.ShowMessageParams(
                    type=types.MessageType.Info, message=f"annoscore: UD validation: {note}"))
                logger.info("UD validation: %s", note)
            if validating is not None and self._validating.get(other) is not validating:
                self._validating[other] = validating
                ls.tasks.spawn(self._after_validation(other, validating), f"validation of {other}")
        # Bring the document's sent_ids up to date now, after publishing: a
        # sentence split needs them, and gathering a 1M-word document's the
        # first time (~0.5 s) would put that split far over its 50 ms.
        await ls.worker.run(self._prepare_edits, key)

    def _prepare_edits(self, key: str) -> None:
        """(On the engine thread.)"""
        document = self.server.engine.documents.get(key)
        if document is not None and document.in_editor and document.format == "conllu" \
                and isinstance(document.store, TextStore):
            sent_ids(document.store)

    def _rescore_and_results(self, key: str, progress=None) -> list[tuple]:
        """(On the engine thread.)"""
        engine = self.server.engine
        return [(other, self._results(other), engine.new_notes(other), engine.validation_pending(other))
                for other in engine.rescore(key, progress)]

    async def _after_validation(self, key: str, validating) -> None:
        """A first validation left to the helpers is done: show it."""
        try:
            await asyncio.wrap_future(validating)
        finally:
            if self._validating.get(key) is validating:
                del self._validating[key]
        self.schedule(key)

    def publish_kept(self, key: str, diagnostics: list[str], payload: dict | None, version: int | None) -> None:
        """What a document opened again showed before (`shown_cache`), sent
        with the version it was opened with, and noted for `_send` (which
        sends the live model's publication of that version only if it differs)."""
        ls = self.server
        uri = ls.uri_for(key)  # (the URI the live model's publications name)
        ls.publish_diagnostics(uri, diagnostics, version)
        if payload is not None:
            payload = {**payload, "uri": uri, "version": version}
            ls.protocol.notify(SCORE, payload)
        ls.shown_from_cache[key] = ShownFromCache(version, sorted(diagnostics), payload)

    def _keep_shown(self, key: str, entry: str, diagnostics: list[str], payload, version) -> None:
        """(On the engine thread.)  A large document's first complete
        publication, on the text it was opened with: kept (`shown_cache`) if
        the document is still that text with those settings (its key, made
        again now, is the one it was opened with)."""
        ls = self.server
        document = ls.engine.documents.get(key)
        if document is None or document.version != version or not document.in_editor:
            return
        uri = ls.uri_for(key)
        if shown_cache.entry_key(ls.engine, key, document.path, document.store.text, uri, ls.encoding) == entry:
            shown_cache.save(entry, diagnostics, payload)

    def _send(self, key: str, diagnostics, payload, version, complete: bool = True) -> None:
        ls = self.server
        if diagnostics is None:
            return
        kept = ls.shown_from_cache.get(key)
        if kept is not None:
            # What the cache published stands while the live model shows the
            # same version without all of it yet (its validation still in the
            # helpers: no flicker), and when it shows the same.
            if version == kept.version and not complete:
                return
            del ls.shown_from_cache[key]
            if version == kept.version and sorted(diagnostics) == kept.diagnostics and payload == kept.payload:
                return
            if version == kept.version:
                logger.warning("what %s showed from the cache differed from its scoring: published again", key)
        ls.publish_diagnostics(ls.uri_for(key), diagnostics, version)
        if payload is not None:
            ls.protocol.notify(SCORE, payload)

    def _results(self, key: str):
        """On the engine thread: LSP diagnostics, the score payload, the version."""
        ls = self.server
        document = ls.engine.documents.get(key)
        if document is None:
            return None, None, None
        diagnostics = ls.lsp_diagnostics(key, ls.engine.diagnostics(key, ordered=False))
        payload = ls.score_payload(key) if document.in_editor else None
        return diagnostics, payload, document.version if document.in_editor else None
