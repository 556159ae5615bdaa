"""pygls's protocol, minus its own copy of each document's text.

pygls keeps every open document as one string and, on each incremental
change, splits that string into lines to find the position: a pass over the
whole text per keystroke.  The engine keeps documents itself, in segments
(`server.textstore`), so these three notifications go straight to our
handlers and pygls's workspace never holds the text.

`notify_encoded` sends a notification whose parameters are already JSON
text, without pygls's attrs converter and encoder: for thousands of
diagnostics, converting and encoding them again costs more than the scoring.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from typing import Callable

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method

logger = logging.getLogger("annoscore")


LARGE_MESSAGE = 1 << 20


class ReleasableInput:
    """stdin for pygls's reader, which parses a large message itself.

    pygls's reader keeps the last message's bytes (and the message parsed
    from them) alive until the next message comes: after opening a 100 MB
    file, 200 MB held through its whole first scoring.  And it hands the
    bytes to ``json.loads``, which decodes bytes about half again as slowly
    as it reads a str (1.2 s against 0.8 s for a 140 MB didOpen).  So a large
    body is read here, decoded, parsed with pygls's own ``object_hook`` (set
    in ``structure``) and its bytes dropped; pygls is handed a small stand-in
    that `AnnoscoreProtocol.handle_message` swaps for the parsed message.
    The did-open handler empties the text in the parsed message once the
    engine has it.  When anything goes wrong, pygls gets the body itself and
    reports the error as it would have."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.structure = None       # pygls's object_hook (the protocol's structure_message)
        # Called with a large body's size before it is read (see `main`).
        self.large_body_coming: Callable[[int], None] | None = None
        self.parsed: dict[int, object] = {}
        self._next = 0

    def readline(self) -> bytes:
        return self.stream.readline()

    def read(self, n: int) -> bytes | bytearray | str:
        if n < LARGE_MESSAGE:
            return self.stream.read(n)
        if self.large_body_coming is not None:
            try:
                self.large_body_coming(n)
            except Exception:  # only a head start: never in the way of reading
                logger.exception("getting ready for a large message failed")
        buffer = bytearray(n)
        view, done = memoryview(buffer), 0
        while done < n:
            got = self.stream.readinto(view[done:])
            if not got:
                del view
                return bytes(buffer[:done])  # end of input: pygls sees a short body
            done += got
        del view
        if self.structure is None:
            return buffer
        try:
            text = buffer.decode("utf-8")
        except UnicodeDecodeError:
            return buffer
        buffer.clear()
        try:
            message = json.loads(text, object_hook=self.structure)
        except Exception:
            return text  # pygls parses it again and reports what is wrong
        self._next += 1
        self.parsed[self._next] = message
        return json.dumps({STAND_IN: self._next}).encode()

    def take(self, message):
        """The parsed message a stand-in stands for (else the message itself)."""
        if isinstance(message, dict) and STAND_IN in message:
            return self.parsed.pop(message[STAND_IN])
        return message


STAND_IN = "annoscore/parsedMessage"  # no "jsonrpc" key: pygls's object_hook leaves it a dict


class AnnoscoreProtocol(LanguageServerProtocol):
    # Set by `main` when the server reads stdin through `ReleasableInput`.
    releasable_input: ReleasableInput | None = None

    def handle_message(self, message):
        if self.releasable_input is not None:
            message = self.releasable_input.take(message)
        super().handle_message(message)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    def notify_encoded(self, method: str, params: str) -> None:
        """A notification whose parameters are JSON text already, as
        `json.dumps` writes it (ASCII only, so its length is its byte count)."""
        if self.writer is None:
            logger.error("no transport to send %s", method)
            return
        body = '{"jsonrpc": "2.0", "method": ' + json.dumps(method) + ', "params": ' + params + "}"
        header = (f"Content-Length: {len(body)}\r\n"
                  f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n")
        try:
            written = self.writer.write((header + body).encode(self.CHARSET))
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            logger.exception("the client is gone: could not send %s", method)
            raise
