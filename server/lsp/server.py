"""The annoscore language server: pygls wired to the engine.

`AnnoscoreServer` holds what every feature shares — the engine and the one
thread that runs its work (`worker`), the background tasks, the client's
position encoding, documents' names (URI ↔ the engine's key), positions of
CoNLL-U requests, and publishing diagnostics and scores — and its features
(`server.lsp.feature.LanguageFeature`), by class (`get_feature`).  It
answers initialize, initialized and shutdown itself and tells every
feature of them, and of the other events (`announce`), in the order the
features were added (`server.lsp.app.FEATURES`, where the server is put
together).

Messages are read by `transport.MessageReader` (sizes capped, faults
answered) and typed by `protocol.AnnoscoreProtocol`; `serve_stdio` runs it
all on stdin and stdout.  The server logs to stderr; stdout carries the
protocol.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from annoscore.scorer import __version__
from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.problems import Problem

from ..engine import Engine
from ..engine.conllu import parts, validation_parts
from ..engine.presentation import IN_EDITOR
from ..processes import start_forkserver
from .diagnostics import DiagnosticsJSON
from .feature import AsyncHook, Hook, LanguageFeature
from .positions import UTF16, from_client, to_client
from .protocol import AnnoscoreProtocol
from .transport import MessageReader, read_into_from, serve
from .worker import EngineWorker, Tasks

logger = logging.getLogger("annoscore")
F = TypeVar("F", bound=LanguageFeature)


@dataclass(frozen=True)
class ShownFromCache:
    """A publication from `shown_cache`: the version it was sent with, its
    diagnostics (sorted JSON texts) and score payload."""

    version: int | None
    diagnostics: list[str]
    payload: dict | None


class AnnoscoreServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("annoscore", __version__, protocol_cls=AnnoscoreProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        # Findings as the editor shows them: IDs out of sequence are one
        # diagnostic for the cause, with the quick fix that renumbers; a
        # sentence not parsed yet is one diagnostic, not one per HEAD.
        self.engine = Engine(log=logger.info, presentation=IN_EDITOR)
        # A large document's first UD validation is not waited for: its
        # diagnostics follow (see Scoring).
        self.engine.background_validation = True
        self.worker = EngineWorker()
        self.tasks = Tasks()
        self.encoding = UTF16
        # The features, by class, in the order they were added (the order they hear events in).
        self._features: dict[type[LanguageFeature], LanguageFeature] = {}
        self.diagnostics_json = DiagnosticsJSON()
        # Large documents opened with what they showed before (`shown_cache`),
        # by key: what was published from the cache, until the live model
        # shows it (see Scoring._send).  And the documents whose first complete
        # publication may be kept there: the entry key they were opened with.
        self.shown_from_cache: dict[str, ShownFromCache] = {}
        self.keep_shown: dict[str, str] = {}
        self.feature(types.INITIALIZE)(_initialize)
        self.feature(types.INITIALIZED)(_initialized)
        self.feature(types.SHUTDOWN)(_shutdown)

    # --- running --------------------------------------------------------------

    def serve_stdio(self, stdin_fd: int = 0) -> int:
        """Serve the client on stdin and stdout until the input ends or the
        client says exit; the exit status.  Ctrl-C (KeyboardInterrupt)
        stops it too, and is raised again once everything is stopped."""
        reader = MessageReader(read_into_from(stdin_fd))
        reader.large_body_coming = _large_body_coming
        self.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
        status = 0
        try:
            asyncio.run(serve(reader, self.protocol.receive))
        except SystemExit as stop:  # the exit notification (0 after shutdown, else 1)
            status = stop.code if isinstance(stop.code, int) else 0
        except BrokenPipeError:
            logger.error("the client is gone (its end of stdout closed): stopping")
        finally:
            self.close()
        return status

    def report_server_error(self, error: Exception, source: Any) -> None:
        """(pygls's hook for a fault outside a request: a notification's
        handler, sending a message.)  One log line, and a short message to
        the user; pygls 2.1.1's own shows the error whole (and logs nothing).
        tests/server/lsp/test_lsp_pygls_overrides.py fails if pygls's changes."""
        text = excerpt(str(error) or type(error).__name__, 200)
        logger.error("%s: %s", getattr(source, "__name__", "error"), text)
        try:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message=f"annoscore: a fault of annoscore's: {text} (logged)"))
        except Exception:  # (the client may be gone)
            pass

    def stop_work(self) -> None:
        """Stop every feature's background work, the engine's thread and its helpers."""
        self.announce(lambda feature: feature.shutdown())
        self.tasks.cancel_all()
        self.worker.shutdown()
        validation_parts.shutdown()

    def close(self) -> None:
        self.stop_work()
        self.shutdown()  # pygls's own

    # --- features -------------------------------------------------------------

    def add_feature(self, feature: LanguageFeature) -> None:
        """Add a feature (one of each class): its handlers go to pygls, and
        it hears every event from now on, after those added before it."""
        if type(feature) in self._features:
            raise ValueError(f"{type(feature).__name__} is a feature of this server already")
        self._features[type(feature)] = feature
        feature.register()

    def get_feature(self, feature_class: type[F]) -> F:
        """The server's instance of a feature class (the one way a feature finds another)."""
        return self._features[feature_class]  # type: ignore[return-value]

    def announce(self, hook: Hook) -> None:
        """Tell every feature of an event, in the order they were added:
        ``hook`` calls one feature's hook (``lambda f: f.document_saved(key)``)."""
        for feature in list(self._features.values()):
            hook(feature)

    async def announce_awaited(self, hook: AsyncHook) -> None:
        """`announce` for an event whose hooks are coroutines: each feature's
        is awaited before the next feature hears."""
        for feature in list(self._features.values()):
            await hook(feature)

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

    # --- diagnostics, as JSON text (`diagnostics.DiagnosticsJSON`) ------------------

    def lsp_diagnostics(self, key: str, problems: list[Problem]) -> list[str]:
        """(On the engine thread.)  LSP ``Diagnostic`` objects of a document,
        each already written as JSON (kept from one publication to the next)."""
        document = self.engine.documents.get(key)
        return self.diagnostics_json.encode(key, problems, document.store if document is not None else None,
                                            self.encoding, self.engine.settings.docs_url, self.uri_for)

    def forget_diagnostics(self, key: str) -> None:
        self.diagnostics_json.forget(key)

    # --- positions of CoNLL-U requests (on the engine thread) ------------------------

    def conllu_position(self, uri: str, line: int, character: int) -> tuple[str, int] | None:
        """The engine's key for a CoNLL-U document and a client's column on
        ``line`` in code points; None for other documents."""
        key, _ = self.key_for(uri)
        document = self.engine.documents.get(key)
        if document is None or document.format != "conllu":
            return None
        return key, from_client(document.store.line(line), character, self.encoding)

    def conllu_lookup(self, uri: str, position: types.Position,
                      look: Callable[[Engine, str, int, int], Any]) -> tuple[str, Any] | None:
        """``look(engine, key, line, column)`` at a client's position in a
        CoNLL-U document, with the document's key; None when it finds nothing."""
        where = self.conllu_position(uri, position.line, position.character)
        found = None if where is None else look(self.engine, where[0], position.line, where[1])
        return None if found is None else (where[0], found)  # type: ignore[index]

    def client_range(self, key: str, line: int, start: int, end_line: int, end: int) -> types.Range:
        """A range in code points as the client counts it."""
        store = self.engine.documents[key].store
        return types.Range(types.Position(line, to_client(store.line(line), start, self.encoding)),
                           types.Position(end_line, to_client(store.line(end_line), end, self.encoding)))

    def publish_diagnostics(self, uri: str, diagnostics: list[str], version: int | None = None) -> None:
        """``textDocument/publishDiagnostics`` with the JSON texts from
        `lsp_diagnostics` (on the event loop's thread)."""
        params = '{"uri": ' + json.dumps(uri)
        if version is not None:
            params += f', "version": {int(version)}'
        params += ', "diagnostics": [' + ", ".join(diagnostics) + "]}"
        self.protocol.notify_encoded(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

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
        if "agreement" in payload:
            payload["agreement"] = [{**{k: v for k, v in entry.items() if k != "path"},
                                     "uri": self.uri_for(entry["path"])} for entry in payload["agreement"]]
        return payload


# --- the server's own handlers: its part, then every feature's hook ---------------------


def _initialize(ls: AnnoscoreServer, params: types.InitializeParams) -> None:
    client = params.client_info.name if params.client_info else ""
    ls.engine.lone_cr_ends_lines = not keeps_lone_cr(client)
    ls.announce(lambda feature: feature.initialize(params))


async def _initialized(ls: AnnoscoreServer, params: types.InitializedParams) -> None:
    encoding = ls.workspace.position_encoding
    ls.encoding = str(getattr(encoding, "value", encoding) or UTF16)
    await ls.announce_awaited(lambda feature: feature.initialized())


def _shutdown(ls: AnnoscoreServer, *args) -> None:
    ls.stop_work()


# Editors whose buffers keep a lone CR inside the line as a character (shown
# as ^M) and count positions so, though the LSP says a lone CR ends a line:
# matched in the name the client gives in `initialize` (clientInfo).
CLIENTS_KEEPING_LONE_CR = ("neovim", "nvim", "vim", "eglot", "emacs", "lsp-mode", "kak")


def keeps_lone_cr(client_name: str) -> bool:
    name = client_name.lower()
    return any(known in name for known in CLIENTS_KEEPING_LONE_CR)


def _large_body_coming(size: int) -> None:
    """A message of many megabytes is most likely a large document being
    opened: start the forkserver its first scoring will want now, while the
    message is read and parsed, rather than once the document is open (its
    import takes about a second, which the first pass then waited for)."""
    if size >= parts.LIKELY_LARGE_BYTES:
        start_forkserver()
