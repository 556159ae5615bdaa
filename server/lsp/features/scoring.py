"""Rescoring, and telling the client: diagnostics and ``annoscore/score``.

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

from .base import LanguageFeature
from ..progress import PassProgress
from ..transport import shown
from ...engine.editing import sent_ids
from ...textstore import TextStore

logger = logging.getLogger("annoscore")

SCORE = "annoscore/score"
REPORT = "annoscore/report"
RESCORE = "annoscore.rescore"


def _uri_of(params: Any) -> str | None:
    if isinstance(params, dict):
        return params.get("uri")
    uri = getattr(params, "uri", None)
    if uri is None and isinstance(params, (list, tuple)) and params:
        return _uri_of(params[0])
    return uri


def uri_problem(params: Any) -> str | None:
    """What is wrong with the params ``{"uri": "…"}`` of a request, or None."""
    if not isinstance(params, dict):
        return f"expected an object with a \"uri\", not {shown(params)}"
    uri = params.get("uri")
    if not isinstance(uri, str):
        return f"\"uri\" must be a string (a document's URI), not {shown(uri)}"
    return None


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
    def __init__(self, server) -> None:
        super().__init__(server)
        self._pending: dict[str, asyncio.Task] = {}
        self._validating: dict[str, Any] = {}  # key -> the validation future waited for

    def register(self) -> None:
        server = self.server
        for name, check in ((SCORE, uri_problem), (REPORT, uri_problem), (RESCORE, rescore_arguments_problem)):
            server.protocol.check_params(name, check)

        @server.feature(SCORE)
        async def score(ls, params: Any) -> dict[str, Any] | None:
            uri = _uri_of(params)
            if uri is None:
                return None
            key, _ = ls.key_for(uri)
            return await ls.worker.run(ls.score_payload, key)

        @server.feature(REPORT)
        async def report(ls, params: Any) -> dict[str, Any] | None:
            uri = _uri_of(params)
            if uri is None:
                return None
            key, _ = ls.key_for(uri)
            text = await ls.worker.run(ls.engine.report, key)
            return None if text is None else {"uri": uri, "text": text}

        @server.command(RESCORE)
        async def rescore(ls, *args: Any) -> None:
            uri = _uri_of(args[0]) if args else None
            if isinstance(args[0] if args else None, str):
                uri = args[0]
            if uri:
                self.schedule(ls.key_for(uri)[0])
            else:
                for document in list(ls.engine.documents.values()):
                    if document.in_editor:
                        self.schedule(document.key)

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
        if PassProgress.wanted(ls) and await ls.worker.run(ls.engine.long_pass_ahead, key):
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
            self._send(other, *found)
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

    def _send(self, key: str, diagnostics, payload, version) -> None:
        ls = self.server
        if diagnostics is None:
            return
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
