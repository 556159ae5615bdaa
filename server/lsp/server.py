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
- `FileWatching`: files changed on disk by other programs (watchfiles);
- `CellHover`: what the cell under the cursor is, with gold's value;
- `QuickFixes`: code actions that mend a diagnostic (as edits; the server
  never writes a file);
- `SentenceEditing`: structural edits of the sentence at the cursor
  (``annoscore.edit``, refactor code actions, renumbering);
- `TreeNavigation`: go to a word's head, find the words that depend on it;
- `CellCompletion`: UPOS tags, relations and HEADs (as words) in their cells;
- `SentenceSymbols`: go to a sentence by its sent_id (workspace symbols);
- `SentenceTree`: the sentence under the cursor as a tree (``annoscore/tree``);
- `SentenceOutline`: the sentences as the document's outline (document symbols);
- `NextPlace`: the next place of a kind, from the engine's results (``annoscore/next``);
- `InlayHints`, `TreeHighlight`, `SentenceFolding`, `CellSelection`: the
  reading aids (head words after HEAD and DEPS, a word's head and
  dependents highlighted, sentences and multiword tokens folded, selection
  from cell to line to sentence; docs/reading-aids.md);
- `Agreement`: other annotations of the same text compared (``annoscore.compareWith``,
  ``annoscore/agreement``).

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
import traceback
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
from ..processes import start_forkserver
from ..code_entries import anchor
from ..textstore import TextStore
from .features.base import LanguageFeature
from .positions import UTF16, UTF32, from_client, to_client
from .protocol import AnnoscoreProtocol
from .transport import MessageReader, read_into_from, serve
from .worker import EngineWorker, Tasks

logger = logging.getLogger("annoscore")
F = TypeVar("F", bound=LanguageFeature)


class AnnoscoreServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("annoscore", __version__, protocol_cls=AnnoscoreProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.engine = Engine(log=logger.info)
        # A large document's first UD validation is not waited for: its
        # diagnostics follow (see Scoring).
        self.engine.background_validation = True
        # IDs out of sequence: one diagnostic for the cause, with the quick fix that renumbers.
        self.engine.explains_id_sequence = True
        # A sentence not parsed yet: one diagnostic, not one per HEAD (see conllu.unparsed_fold).
        self.engine.folds_unparsed = True
        self.worker = EngineWorker()
        self.tasks = Tasks()
        self.encoding = UTF16
        # The features (see `features`), by class.
        self.feature_objects: dict[type, LanguageFeature] = {}
        # Per document: the JSON of each diagnostic shown last, by the problem
        # object and by its value and place (see lsp_diagnostics).
        self._encoded: dict[str, tuple[dict[int, tuple[Problem, str]], dict[tuple, str]]] = {}
        # The docsUrl those JSON texts link to (another one: none of them is reused).
        self._encoded_docs_url = ""

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
        the user; pygls's own shows the error whole."""
        text = excerpt(str(error) or type(error).__name__, 200)
        logger.error("%s: %s", getattr(source, "__name__", "error"), text)
        try:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message=f"annoscore: a fault of annoscore's: {text} (logged)"))
        except Exception:  # (the client may be gone)
            pass

    def stop_work(self) -> None:
        """Stop every feature's background work, the engine's thread and its helpers."""
        for feature in self.feature_objects.values():
            feature.stop()
        self.tasks.cancel_all()
        self.worker.shutdown()
        validation_parts.shutdown()

    def close(self) -> None:
        self.stop_work()
        self.shutdown()  # pygls's own

    def get_feature(self, feature_class: type[F]) -> F:
        """The server's instance of a feature class."""
        return self.feature_objects[feature_class]  # type: ignore[return-value]

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

    def lsp_diagnostics(self, key: str, problems: list[Problem]) -> list[str]:
        """LSP ``Diagnostic`` objects, each already written as JSON.

        A large file shows a few thousand diagnostics after every edit, and
        nearly all of them are the ones shown before.  Building lsprotocol
        objects (or even dicts) and encoding them again would cost more than
        the rescoring itself, so each diagnostic's JSON is kept, keyed by the
        problem (with its absolute line), the text segment its line is in
        and the line's place in that segment.  An edit makes new segments
        where it changed the text; a segment that moved (lines above it
        came or went) has its problems on other absolute lines, and another
        problem that lands on one of those lines is on another line of the
        segment: so a cached position is reused only for the same characters.
        Before that, the problem object itself: the engine shows one object
        again only as the same diagnostic (the UD validator's findings of
        sentences not edited, see `server.engine.diagnostics.Listing`), and
        looking it up costs no hashing of its fields.
        """
        document = self.engine.documents.get(key)
        store = document.store if document is not None else None
        segments = store if isinstance(store, TextStore) else None
        encoding = self.encoding
        docs_url = self.engine.settings.docs_url
        if docs_url != self._encoded_docs_url:  # the cached JSON links elsewhere (or not at all)
            self._encoded.clear()
            self._encoded_docs_url = docs_url
        uri = self.uri_for(key)
        known_objects, known = self._encoded.get(key, ({}, {}))
        kept_objects: dict[int, tuple[Problem, str]] = {}
        kept: dict[tuple, str] = {}

        last = [-1, ""]  # the line looked up last (a diagnostic's start and end share it)

        def position(line: int, column: int) -> dict[str, int]:
            if store is not None and column > 0 and encoding != UTF32:
                if last[0] != line:
                    last[0], last[1] = line, store.line(line)
                column = to_client(last[1], column, encoding)
            return {"line": line, "character": max(column, 0)}

        out = []
        for p in problems:
            entry = known_objects.get(id(p))
            if entry is not None and entry[0] is p:
                kept_objects[id(p)] = entry
                out.append(entry[1])
                continue
            cache_key = None
            if segments is not None and not p.related:
                segment = segments.segments[segments.segment_at(p.line)]
                cache_key = (p, segment, p.line - segment.first_line)
                text = known.get(cache_key)
                if text is not None:
                    kept[cache_key] = text
                    kept_objects[id(p)] = (p, text)
                    out.append(text)
                    continue
            diagnostic: dict[str, Any] = {
                "range": {"start": position(p.line, p.start), "end": position(p.line, p.end)},
                "severity": int(p.severity), "code": p.code, "source": "annoscore", "message": p.message}
            if docs_url:
                entry = anchor(p.code)
                if entry is not None:
                    diagnostic["codeDescription"] = {"href": f"{docs_url}#{entry}"}
            if p.data:
                data = validation_data(p) if p.code != "disagreement" else \
                    {"other": self.uri_for(str(p.datum("other"))), "column": p.datum("column")}
                if data is not None:
                    diagnostic["data"] = data
            if p.related:
                diagnostic["relatedInformation"] = [
                    {"location": {"uri": uri, "range": {"start": position(r.line, r.start),
                                                         "end": position(r.line, r.end)}},
                     "message": r.message} for r in p.related]
            text = json.dumps(diagnostic)
            if cache_key is not None:
                kept[cache_key] = text
                kept_objects[id(p)] = (p, text)
            out.append(text)
        if segments is not None:
            self._encoded[key] = (kept_objects, kept)  # only what is shown now: the cache does not grow
        return out

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

    def forget_diagnostics(self, key: str) -> None:
        self._encoded.pop(key, None)

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


def validation_data(problem: Problem) -> dict[str, Any] | None:
    """A UD validation finding's ``data``: the validator's test id, level and
    class (and ``ud_line``, 0-based, when the validator reports it on another
    line: see `server.engine.conllu.twins`); None for other problems."""
    test_id = problem.datum("test_id")
    if test_id is None:
        return None
    data = {"test_id": test_id, "level": problem.datum("level"), "class": problem.datum("class")}
    ud_line = problem.datum("ud_line")
    if ud_line is not None:
        data["ud_line"] = ud_line
    return data


def features() -> tuple[type[LanguageFeature], ...]:
    """Every feature, in the order their lifecycle hooks run."""
    from .features.agreement import Agreement
    from .features.completion import CellCompletion
    from .features.configuration import Configuration
    from .features.documents import DocumentSync
    from .features.editing import SentenceEditing
    from .features.folding import SentenceFolding
    from .features.highlight import TreeHighlight
    from .features.hover import CellHover
    from .features.inlay import InlayHints
    from .features.navigation import TreeNavigation
    from .features.outline import SentenceOutline
    from .features.quickfix import QuickFixes
    from .features.scoring import Scoring
    from .features.seek import NextPlace
    from .features.selection import CellSelection
    from .features.symbols import SentenceSymbols
    from .features.tree import SentenceTree
    from .features.watching import FileWatching

    return (Configuration, Scoring, DocumentSync, FileWatching, CellHover, QuickFixes, TreeNavigation,
            CellCompletion, SentenceSymbols, SentenceTree, SentenceOutline, NextPlace, Agreement, SentenceEditing,
            InlayHints, TreeHighlight, SentenceFolding, CellSelection)


def create_server() -> AnnoscoreServer:
    server = AnnoscoreServer()
    for feature_class in features():
        feature = feature_class(server)
        server.feature_objects[feature_class] = feature
        feature.register()

    @server.feature(types.INITIALIZE)
    def initialize(ls: AnnoscoreServer, params: types.InitializeParams) -> None:
        client = params.client_info.name if params.client_info else ""
        ls.engine.lone_cr_ends_lines = not keeps_lone_cr(client)
        for feature in ls.feature_objects.values():
            feature.initialize(params)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: AnnoscoreServer, params: types.InitializedParams) -> None:
        encoding = ls.workspace.position_encoding
        ls.encoding = str(getattr(encoding, "value", encoding) or UTF16)
        for feature in ls.feature_objects.values():
            await feature.initialized()

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: AnnoscoreServer, *args) -> None:
        ls.stop_work()

    return server


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


class OneLineFormatter(logging.Formatter):
    """Every log record is one line of at most `LOG_LINE` characters, its
    control characters escaped: whatever a message quotes (a client's token,
    a file's name, pygls's own messages), the editor's log gets no forged
    line, no terminal escape and no quoted megabytes.  A traceback (exc_info)
    is left out; its innermost frame is named."""

    LOG_LINE = 2000

    def format(self, record: logging.LogRecord) -> str:
        try:
            message = record.getMessage()
        except Exception as error:  # (a message whose arguments do not fit its format)
            message = f"{record.msg!r} ({type(error).__name__})"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)
            where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
            message += f": {type(error).__name__}: {error}{where}"
        return f"annoscore {record.levelname}: {excerpt(message, self.LOG_LINE)}"


def main() -> int:
    level = os.environ.get("ANNOSCORE_LOG", "info").upper()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter())
    logging.basicConfig(level=level if level in logging._nameToLevel else "INFO", handlers=[handler])
    if level != "DEBUG":
        # pygls logs every message at INFO, and watchfiles every change it
        # sees: too much for an editor's log (and a log file inside the
        # watched folder would feed itself).
        logging.getLogger("pygls").setLevel(logging.WARNING)
        logging.getLogger("watchfiles").setLevel(logging.WARNING)
    # Work moves between the event loop, the reader's thread and the engine
    # thread several times per edit; a shorter switch interval than Python's
    # 5 ms lets each handover happen sooner (a few ms less per edit).
    sys.setswitchinterval(0.001)
    return create_server().serve_stdio()
