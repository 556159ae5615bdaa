"""pygls's protocol, taking messages from our reader and refusing bad ones.

Messages come from `transport.MessageReader` as dicts (or as the `Fault`
that a body is not a message).  `AnnoscoreProtocol.receive` gives each the
type pygls would (lsprotocol's request and notification classes), and
refuses what does not fit, in one log line and with the protocol's error
for a request — never with a traceback from inside pygls:

- a fault of the transport (not UTF-8, not JSON, not an object ...): its
  error, with the request's id when it is known, else null;
- params that lsprotocol's types refuse (a negative position, a missing
  field): InvalidParams, naming the field;
- params of our own requests and commands that their check refuses (a
  `uri` that is not a string): InvalidParams.  Features register those
  checks with `check_params`.

pygls keeps every open document as one string and, on each incremental
change, splits that string into lines to find the position: a pass over the
whole text per keystroke.  The engine keeps documents itself, in segments
(`server.textstore`), so the three document notifications go straight to
our handlers and pygls's workspace never holds the text.

`notify_encoded` sends a notification whose parameters are already JSON
text, without pygls's attrs converter and encoder: for thousands of
diagnostics, converting and encoding them again costs more than the scoring.
A request handler may likewise return an `Encoded` result (its JSON text),
which is sent as it is: pygls would otherwise convert a large answer (the
outline of 60,000 sentences) through its typed converter, for seconds.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from typing import Any, Callable

import cattrs
from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

from .transport import INVALID_PARAMS, INVALID_REQUEST, Fault, excerpt, message_id

logger = logging.getLogger("annoscore")

# A check of a request's (or a command's) params: what is wrong, or None.
ParamsCheck = Callable[[Any], "str | None"]


def _describe(error: Exception) -> str:
    """What lsprotocol's types found wrong, shortly: 'line should be in
    range [0:2147483647], but was -1 (params.position.line)'."""
    def leaf(exc: BaseException, _type: Any) -> str:
        if isinstance(exc, ValueError) and str(exc):
            return str(exc).rstrip(".")
        return cattrs.v.format_exception(exc, _type)
    try:
        found = cattrs.transform_error(error, format_exception=leaf)
    except Exception:
        found = [str(error)]
    first = found[0] if found else str(error)
    what, _, where = first.partition(" @ $.")
    where = re.sub(r"_([a-z])", lambda m: m[1].upper(), where)  # the JSON's names
    return excerpt(what, 120).strip("'\"") + (f" ({where})" if where else "") + \
        (f", and {len(found) - 1} more" if len(found) > 1 else "")


class Encoded(str):
    """A request's result already written as JSON text (ASCII, as `json.dumps` writes it)."""


class AnnoscoreProtocol(LanguageServerProtocol):
    def __init__(self, server, converter: cattrs.Converter) -> None:
        super().__init__(server, converter)
        self.converter = converter  # (pygls keeps its own reference private)
        self.param_checks: dict[str, ParamsCheck] = {}

    def check_params(self, name: str, check: ParamsCheck) -> None:
        """Refuse a request (a method) or a command (its name) whose params
        (a command's arguments) ``check`` finds wrong."""
        self.param_checks[name] = check

    # --- taking messages --------------------------------------------------------------

    def receive(self, item: dict | Fault) -> None:
        """One message from the reader (on the event loop)."""
        if isinstance(item, Fault):
            self.refuse(item)
            return
        message = self.structure(item)
        if message is not None:
            del item
            self.handle_message(message)

    def structure(self, data: dict) -> Any | None:
        """The message as pygls's handlers take it; None when it is refused."""
        method = data.get("method")
        if method is not None:
            problem = self._params_problem(method, data.get("params"))
            if problem is not None:
                self.refuse(Fault(INVALID_PARAMS, problem, message_id(data), answer="id" in data))
                return None
            kind = self.get_message_type(method) or (
                JsonRPCRequestMessage if "id" in data else JsonRPCNotification)
        elif "error" in data:
            kind = types.ResponseErrorMessage
        else:  # a response to one of the server's requests: the type pygls expects for it
            kind = self._result_types.pop(data.get("id"), None) or JsonRPCResponseMessage
        try:
            return self.converter.structure(data, kind)
        except Exception as error:
            what = f"{method}: invalid params: " if method else "a response that does not fit: "
            self.refuse(Fault(INVALID_PARAMS if method else INVALID_REQUEST, what + _describe(error),
                              message_id(data), answer=method is not None and "id" in data))
            return None

    def _params_problem(self, method: str, params: Any) -> str | None:
        """What a registered check finds wrong with a request's params (as
        JSON), or a command's arguments; None when nothing is."""
        name: Any = method
        if method == types.WORKSPACE_EXECUTE_COMMAND:
            name = params.get("command") if isinstance(params, dict) else None
            params = params.get("arguments") if isinstance(params, dict) else None
        check = self.param_checks.get(name) if isinstance(name, str) else None
        problem = check(params) if check is not None else None
        return None if problem is None else f"{name}: invalid params: {problem}"

    def refuse(self, fault: Fault) -> None:
        """Log a fault in one line, answer it with its error (when it may be
        a request), and tell the user when it is worth it."""
        logger.warning("refused: %s", fault.message)
        if fault.tell_user:
            self.notify(types.WINDOW_SHOW_MESSAGE, types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"annoscore: {fault.message}"))
        elif fault.answer:
            # (an id of null: JSON-RPC's answer when the id could not be read)
            self.send_error(fault.id, fault.code, fault.message)

    def send_error(self, request_id: int | str | None, code: int, message: str) -> None:
        self.write_encoded(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                       "error": {"code": code, "message": message}}))

    # --- documents straight to our handlers ---------------------------------------

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

    # --- sending ------------------------------------------------------------------------

    def _send_response(self, msg_id, result: Any = None, error: Any = None) -> None:
        """(pygls's) A response; an `Encoded` result goes out as the text it is."""
        if error is None and isinstance(result, Encoded):
            self._result_types.pop(msg_id, None)
            self.write_encoded('{"jsonrpc": "2.0", "id": ' + json.dumps(msg_id) + ', "result": ' + result + "}")
            return
        super()._send_response(msg_id, result, error)

    def notify_encoded(self, method: str, params: str) -> None:
        """A notification whose parameters are JSON text already, as
        `json.dumps` writes it (ASCII only, so its length is its byte count)."""
        self.write_encoded('{"jsonrpc": "2.0", "method": ' + json.dumps(method) + ', "params": ' + params + "}")

    def write_encoded(self, body: str) -> None:
        """One message, its body JSON text that `json.dumps` wrote (ASCII)."""
        if self.writer is None:
            logger.error("no transport to send %s", excerpt(body))
            return
        header = (f"Content-Length: {len(body)}\r\n"
                  f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n")
        try:
            written = self.writer.write((header + body).encode(self.CHARSET))
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            logger.error("the client is gone: could not send %s", excerpt(body))
            raise
