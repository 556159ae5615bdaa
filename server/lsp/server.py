"""The annoscore language server: pygls wired to the engine.

One small class per feature (in ``features/``), all wired here in
`create_server`:

- `DocumentSync`: didOpen/didChange/didSave/didClose into the engine;
- `Scoring`: rescoring (on save, or while typing, debounced), publishing
  diagnostics and the ``annoscore/score`` notification; the
  ``annoscore/score`` and ``annoscore/report`` requests; the
  ``annoscore.rescore`` command;
- `Configuration`: initialization options, ``workspace/configuration``,
  annoscore.toml — invalid values are reported and replaced by defaults;
- `FileWatching`: files changed on disk by other programs (watchfiles).

The server logs to stderr; stdout carries the protocol.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from scorer import __version__
from scorer.problems import Problem

from ..engine import Engine
from .positions import UTF16, UTF32, to_client
from .protocol import AnnoscoreProtocol
from .worker import EngineWorker, Tasks

logger = logging.getLogger("annoscore")


class AnnoscoreServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("annoscore", __version__, protocol_cls=AnnoscoreProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.engine = Engine(log=logger.info)
        self.worker = EngineWorker()
        self.tasks = Tasks()
        self.encoding = UTF16
        self.features: dict[str, Any] = {}

    # --- names ----------------------------------------------------------------

    @staticmethod
    def key_for(uri: str) -> tuple[str, str | None]:
        """The engine's key for a document, and its path when it is a file."""
        if uri.startswith("file:"):
            path = to_fs_path(uri)
            if path:
                path = os.path.abspath(path)
                return path, path
        return uri, None

    @staticmethod
    def uri_for(key: str) -> str:
        if os.path.isabs(key):
            return from_fs_path(key) or key
        return key

    # --- turning problems into LSP diagnostics (runs on the engine thread) ---------

    def lsp_diagnostics(self, key: str, problems: list[Problem]) -> list[dict[str, Any]]:
        """LSP ``Diagnostic`` objects as plain JSON-ready dicts.

        A large file shows a few thousand diagnostics after every edit;
        building lsprotocol objects and unstructuring them again costs more
        than the rescoring itself, so they are written as dicts directly.
        """
        document = self.engine.documents.get(key)
        store = document.store if document is not None else None
        encoding = self.encoding
        uri = self.uri_for(key)

        last = [-1, ""]  # the line looked up last (a diagnostic's start and end share it)

        def position(line: int, column: int) -> dict[str, int]:
            if store is not None and column > 0 and encoding != UTF32:
                if last[0] != line:
                    last[0], last[1] = line, store.line(line)
                column = to_client(last[1], column, encoding)
            return {"line": line, "character": max(column, 0)}

        out = []
        for p in problems:
            diagnostic: dict[str, Any] = {
                "range": {"start": position(p.line, p.start), "end": position(p.line, p.end)},
                "severity": int(p.severity), "code": p.code, "source": "annoscore", "message": p.message}
            if p.related:
                diagnostic["relatedInformation"] = [
                    {"location": {"uri": uri, "range": {"start": position(r.line, r.start),
                                                         "end": position(r.line, r.end)}},
                     "message": r.message} for r in p.related]
            out.append(diagnostic)
        return out

    def publish_diagnostics(self, uri: str, diagnostics: list[dict[str, Any]],
                            version: int | None = None) -> None:
        """``textDocument/publishDiagnostics`` with dicts from `lsp_diagnostics`
        (on the event loop's thread)."""
        params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        self.protocol.notify_raw(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def score_payload(self, key: str) -> dict[str, Any] | None:
        payload = self.engine.score(key)
        if payload is None:
            return None
        payload = dict(payload)
        payload["uri"] = self.uri_for(payload.pop("path"))
        document = self.engine.documents.get(key)
        payload["version"] = document.version if document is not None else None
        gold = payload.get("gold")
        payload["gold"] = self.uri_for(gold) if gold else None
        return payload


def create_server() -> AnnoscoreServer:
    from .features.configuration import Configuration
    from .features.documents import DocumentSync
    from .features.scoring import Scoring
    from .features.watching import FileWatching

    server = AnnoscoreServer()
    for feature in (Configuration(server), Scoring(server), DocumentSync(server), FileWatching(server)):
        server.features[type(feature).__name__] = feature
        feature.register()

    @server.feature(types.INITIALIZE)
    def initialize(ls: AnnoscoreServer, params: types.InitializeParams) -> None:
        for feature in ls.features.values():
            hook = getattr(feature, "initialize", None)
            if hook is not None:
                hook(params)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: AnnoscoreServer, params: types.InitializedParams) -> None:
        encoding = ls.workspace.position_encoding
        ls.encoding = str(getattr(encoding, "value", encoding) or UTF16)
        for feature in ls.features.values():
            hook = getattr(feature, "initialized", None)
            if hook is not None:
                await hook()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: AnnoscoreServer, *args) -> None:
        for feature in ls.features.values():
            stop = getattr(feature, "stop", None)
            if stop is not None:
                stop()
        ls.tasks.cancel_all()
        ls.worker.shutdown()

    return server


def main() -> int:
    level = os.environ.get("ANNOSCORE_LOG", "info").upper()
    logging.basicConfig(stream=sys.stderr, level=level if level in logging._nameToLevel else "INFO",
                        format="annoscore %(levelname)s: %(message)s")
    if level != "DEBUG":
        # pygls logs every message at INFO, and watchfiles every change it
        # sees: too much for an editor's log (and a log file inside the
        # watched folder would feed itself).
        logging.getLogger("pygls").setLevel(logging.WARNING)
        logging.getLogger("watchfiles").setLevel(logging.WARNING)
    # Work moves between the event loop, pygls's reader thread and the engine
    # thread several times per edit; a shorter switch interval than Python's
    # 5 ms lets each handover happen sooner (a few ms less per edit).
    sys.setswitchinterval(0.001)
    create_server().start_io()
    return 0
