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
  `uri` that is not a string): InvalidParams.  Features declare those
  checks with their handlers (`feature.handles`), which registers them
  with `check_params`.

pygls keeps every open document as one string and, on each incremental
change, splits that string into lines to find the position: a pass over the
whole text per keystroke.  The engine keeps documents itself, in segments
(`server.textstore`), so the three document notifications go straight to
our handlers and pygls's workspace never holds the text.

Every method of pygls's that this class overrides says so, with the pygls
version it was written against and why; tests/server/lsp/test_lsp_pygls_overrides.py
lists them all (a new override not listed fails it) and fails when pygls
changes the code one of them replaces or relies on.

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
import os
import re
import traceback
from typing import Any, Callable

import cattrs
from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.protocol.json_rpc import (JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage,
                                     RPCRequest)

from .strict import make_strict
from .transport import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, Fault, excerpt, message_id, shown

logger = logging.getLogger("annoscore")

# A check of a request's (or a command's) params: what is wrong, or None.
ParamsCheck = Callable[[Any], "str | None"]


def _describe(error: Exception) -> str:
    """What lsprotocol's types found wrong, shortly: 'line should be in
    range [0:2147483647], but was -1 (params.position.line)'."""
    def leaf(exc: BaseException, _type: Any) -> str:
        if isinstance(exc, ValueError) and str(exc):
            return str(exc).rstrip(".")
        if isinstance(exc, TypeError) and str(exc).startswith("expected "):  # (server.lsp.strict's)
            return str(exc)
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


def _token_problem(params: Any) -> str | None:
    """A progress token is a number or a string (pygls looks it up in a dict)."""
    token = params.get("token") if isinstance(params, dict) else None
    if isinstance(token, bool) or not isinstance(token, (int, str)):
        return f"\"token\" must be a number or a string, not {shown(token)}"
    return None


def _where(error: BaseException) -> str:
    """Where an exception was raised (its innermost frame), for one log line."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {os.path.basename(last.filename)}:{last.lineno})"


class Encoded(str):
    """A request's result already written as JSON text (ASCII, as `json.dumps` writes it)."""


class AnnoscoreProtocol(LanguageServerProtocol):
    """Every message is answered: a request with its result or one error
    (InvalidParams for params that do not fit, InvalidRequest after
    ``shutdown``, InternalError for a fault of ours), each told in one log
    line — never a traceback, never a quote longer than an excerpt."""

    def __init__(self, server, converter: cattrs.Converter) -> None:
        make_strict(converter)  # (before pygls's base class or anyone structures with it)
        super().__init__(server, converter)
        # (pygls 2.1.1 keeps the converter as the private ``_converter``:
        # features convert their answers with it, so it gets a public name.)
        self.converter = converter
        self.param_checks: dict[str, ParamsCheck] = {types.WINDOW_WORK_DONE_PROGRESS_CANCEL: _token_problem}

    def check_params(self, name: str, check: ParamsCheck) -> None:
        """Refuse a request (a method) or a command (its name) whose params
        (a command's arguments) ``check`` finds wrong."""
        self.param_checks[name] = check

    # --- taking messages --------------------------------------------------------------

    def receive(self, item: dict | Fault) -> None:
        """One message from the reader (on the event loop).  Whatever goes
        wrong in taking it, a request gets an answer."""
        if isinstance(item, Fault):
            self.refuse(item)
            return
        method, request_id = item.get("method"), message_id(item)
        is_request = "id" in item and method is not None
        try:
            message = self.structure(item)
            if message is not None:
                del item  # (a large message is its structured form's alone from here)
                self.handle_message(message)
        except Exception as error:  # a fault of ours in taking it: say so, answer it
            self.refuse(Fault(INTERNAL_ERROR, f"{shown(method)}: annoscore failed to take the message: "
                              f"{type(error).__name__}: {excerpt(str(error))}{_where(error)}",
                              request_id, answer=is_request), level=logging.ERROR)

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
        JSON), or a command's arguments; None when nothing is.  A command
        must be one the server has (pygls would raise, and log, the whole
        name); a check that fails itself refuses the params too."""
        name: Any = method
        if method == types.WORKSPACE_EXECUTE_COMMAND:
            name = params.get("command") if isinstance(params, dict) else None
            if isinstance(params, dict) and (not isinstance(name, str) or name not in self.fm.commands):
                return (f"{method}: invalid params: \"command\" must be one of the server's commands "
                        f"({', '.join(sorted(self.fm.commands))}), not {shown(name)}")
            params = params.get("arguments") if isinstance(params, dict) else None
        check = self.param_checks.get(name) if isinstance(name, str) else None
        try:
            problem = check(params) if check is not None else None
        except Exception as error:  # the check did not expect this shape: refuse it all the same
            problem = f"params of an unexpected shape ({type(error).__name__}: {excerpt(str(error))})"
        return None if problem is None else f"{name}: invalid params: {problem}"

    def refuse(self, fault: Fault, level: int = logging.WARNING) -> None:
        """Log a fault in one line, answer it with its error (when it may be
        a request), and tell the user when it is worth it."""
        logger.log(level, "refused: %s", fault.message)
        if fault.tell_user:
            self.notify(types.WINDOW_SHOW_MESSAGE, types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"annoscore: {fault.message}"))
        elif fault.answer:
            # (an id of null: JSON-RPC's answer when the id could not be read)
            self.send_error(fault.id, fault.code, fault.message)

    def send_error(self, request_id: int | str | None, code: int, message: str) -> None:
        self.write_encoded(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                       "error": {"code": code, "message": message}}))

    # --- answers pygls would not give, or would give with a traceback ----------------

    def handle_message(self, message: Any) -> None:
        """(pygls's) After ``shutdown`` a request is answered InvalidRequest,
        as the LSP says, and a notification other than ``exit`` dropped, in one
        log line each.  pygls 2.1.1 drops both without an answer (its
        ``JsonRPCProtocol.handle_message`` checks ``self._shutdown``, which
        ``lsp_shutdown`` sets); tests/server/lsp/test_lsp_untrusted.py holds the
        behaviour, tests/server/lsp/test_lsp_pygls_overrides.py pygls's code this relies on."""
        method = getattr(message, "method", None)
        if self._shutdown and method != types.EXIT:
            if method is not None and isinstance(message, RPCRequest):
                self.refuse(Fault(INVALID_REQUEST, f"{shown(method)}: the server is shut down (only exit "
                                  "is taken now)", message.id))
            else:
                logger.warning("refused: %s: the server is shut down (only exit is taken now)",
                               shown(method) if method is not None else "a response")
            return
        super().handle_message(message)

    def _send_handler_result(self, future, *, msg_id) -> None:
        """(pygls's, private) Send a request's result, or its error in one log
        line.  pygls 2.1.1 logs every error of a handler with its traceback
        (``logger.exception``) and quotes the error whole — for a wrong
        command name, a name of any length.  This is its
        ``JsonRPCProtocol._send_handler_result`` with one-line logging;
        tests/server/lsp/test_lsp_pygls_overrides.py fails if pygls's changes."""
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            self._send_response(msg_id, error=JsonRpcRequestCancelled(
                f'Request with id "{msg_id}" is canceled').to_response_error())
            return
        error = future.exception()
        if error is None:
            try:
                self._send_response(msg_id, result=future.result())
            except Exception as failure:  # (encoding the result failed: a fault of ours)
                self._answer_fault(msg_id, failure)
            return
        self._answer_fault(msg_id, error)

    def _answer_fault(self, msg_id, error: BaseException) -> None:
        if isinstance(error, JsonRpcException):
            logger.warning("refused: request %s: %s", shown(msg_id), excerpt(str(error), 200))
            response = error.to_response_error()
            response.message = excerpt(response.message, 200)
            response.data = None
        else:
            logger.error("request %s failed: %s: %s%s", shown(msg_id), type(error).__name__,
                         excerpt(str(error), 200), _where(error))
            response = types.ResponseError(code=INTERNAL_ERROR, message=f"annoscore failed: "
                                           f"{type(error).__name__}: {excerpt(str(error), 200)}")
        self._send_response(msg_id, error=response)

    # (pygls's) annoscore has no notebooks (it does not offer
    # notebookDocumentSync): pygls 2.1.1's own handlers
    # (``LanguageServerProtocol.lsp_notebook_document__did_*``) fail on a
    # notebook they never saw (KeyError); these say so in one line.
    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def lsp_notebook_document__did_open(self, params: Any):
        """(pygls 2.1.1's fails on a notebook it never saw.)"""
        logger.warning("ignored: %s (annoscore has no notebooks)", types.NOTEBOOK_DOCUMENT_DID_OPEN)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: Any):
        """(pygls 2.1.1's fails on a notebook it never saw.)"""
        logger.warning("ignored: %s (annoscore has no notebooks)", types.NOTEBOOK_DOCUMENT_DID_CHANGE)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(self, params: Any):
        """(pygls 2.1.1's fails on a notebook it never saw.)"""
        logger.warning("ignored: %s (annoscore has no notebooks)", types.NOTEBOOK_DOCUMENT_DID_CLOSE)

    # --- documents straight to our handlers ---------------------------------------
    # (pygls's) pygls 2.1.1's ``LanguageServerProtocol.lsp_text_document__did_open``,
    # ``__did_change`` and ``__did_close`` keep the text in pygls's workspace
    # (one string, split into lines at each change) before calling ours: these
    # only call ours (the module's docstring says why).

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        """(pygls 2.1.1's puts the text into its workspace before calling ours.)"""
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """(pygls 2.1.1's applies the change to its copy of the text before calling ours.)"""
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        """(pygls 2.1.1's drops its copy of the text before calling ours.)"""
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    # --- sending ------------------------------------------------------------------------

    def _send_response(self, msg_id, result: Any = None, error: Any = None) -> None:
        """(pygls's) A response; an `Encoded` result goes out as the text it is.
        Otherwise it is encoded here, so that a result that cannot be encoded
        is still answered (InternalError, one log line): pygls 2.1.1's
        ``_send_data`` logs such a failure and sends nothing, and the client
        would wait for ever.  It reads pygls's private ``_result_types`` (the
        response type of each request) and ``_serialize_message``, as pygls's
        own does."""
        if error is None and isinstance(result, Encoded):
            self._result_types.pop(msg_id, None)
            self.write_encoded('{"jsonrpc": "2.0", "id": ' + json.dumps(msg_id) + ', "result": ' + result + "}")
            return
        if error is not None:
            response: Any = types.ResponseErrorMessage(id=msg_id, error=error)
        else:
            response = self._result_types.pop(msg_id, JsonRPCResponseMessage)(id=msg_id, result=result,
                                                                              jsonrpc=self.VERSION)
        try:
            body = json.dumps(response, default=self._serialize_message)
        except Exception as failure:  # a fault of ours: the result does not encode
            logger.error("request %s: its answer cannot be encoded: %s: %s%s", shown(msg_id),
                         type(failure).__name__, excerpt(str(failure)), _where(failure))
            self.send_error(msg_id, INTERNAL_ERROR, f"annoscore failed to encode its answer: "
                                                    f"{type(failure).__name__}: {excerpt(str(failure))}")
            return
        self.write_encoded(body)

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
