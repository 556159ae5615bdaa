"""What the language server overrides of pygls, and what of pygls's it
relies on (issue 28): every method of pygls's that `AnnoscoreProtocol` or
`AnnoscoreServer` defines again is listed here, names the pygls version it
was written against, and the pygls code it replaces or leans on is the
code that version had.  When one of these tests fails after an upgrade of
pygls: read pygls's new code, check the override against it (its comment
says why it exists), then update its entry here."""

from __future__ import annotations

import hashlib
import inspect

from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCProtocol

from annoscore.server.lsp.protocol import AnnoscoreProtocol
from annoscore.server.lsp.server import AnnoscoreServer

# The pygls release the overrides were written against (and these fingerprints taken from).
PYGLS = "pygls 2.1.1"

# Per class of ours: the pygls methods it defines again.
OVERRIDES = {
    AnnoscoreProtocol: {
        "handle_message", "_send_handler_result", "_send_response",
        "lsp_text_document__did_open", "lsp_text_document__did_change", "lsp_text_document__did_close",
        "lsp_notebook_document__did_open", "lsp_notebook_document__did_change",
        "lsp_notebook_document__did_close"},
    AnnoscoreServer: {"report_server_error"},
}

# The source of each pygls method overridden or relied on, as a short
# hash: the overridden ones above, and those whose private state or
# behaviour the overrides lean on (``_shutdown`` set by ``lsp_shutdown``,
# ``_result_types`` and ``_request_futures`` kept by ``__init__`` and
# ``_send_data`` bypassed by ``_send_response``, ``_serialize_message``
# called by it).
PYGLS_CODE = {
    "JsonRPCProtocol.__init__": "5cce12d1c378a085",
    "LanguageServerProtocol.__init__": "6a96fc574b528115",
    "JsonRPCProtocol.handle_message": "d46f22474082c0cf",
    "JsonRPCProtocol._send_handler_result": "38d95833f8826cde",
    "JsonRPCProtocol._send_response": "b799bb966ca7ebb1",
    "JsonRPCProtocol._send_data": "40e0a5bb70951777",
    "JsonRPCProtocol._serialize_message": "075c32e9ae36b6e8",
    "LanguageServerProtocol.get_message_type": "37a0eaf51a15b8bb",
    "LanguageServerProtocol.lsp_shutdown": "86ec7ca1055cb177",
    "LanguageServerProtocol.lsp_text_document__did_open": "6771d1483cdf0338",
    "LanguageServerProtocol.lsp_text_document__did_change": "81a0591b8fdf9793",
    "LanguageServerProtocol.lsp_text_document__did_close": "1308de1125767d78",
    "LanguageServerProtocol.lsp_notebook_document__did_open": "936c969ade1ffbe8",
    "LanguageServerProtocol.lsp_notebook_document__did_change": "93d6ae63e2b4aab2",
    "LanguageServerProtocol.lsp_notebook_document__did_close": "c1cad4302fbbb05b",
    "LanguageServer.report_server_error": "bb8c3433a6199aec",
}
PYGLS_CLASSES = {"JsonRPCProtocol": JsonRPCProtocol, "LanguageServerProtocol": LanguageServerProtocol,
                 "LanguageServer": LanguageServer}
BASES = {AnnoscoreProtocol: LanguageServerProtocol, AnnoscoreServer: LanguageServer}


def _fingerprint(function) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


def _overridden(ours: type) -> set[str]:
    """The names ``ours`` defines that its pygls base has too (dunders
    aside: a constructor extends pygls's, it replaces nothing)."""
    base = BASES[ours]
    return {name for name in vars(ours) if hasattr(base, name) and not (name.startswith("__") and name.endswith("__"))}


def test_every_override_of_pygls_is_listed_and_names_the_pygls_version():
    for ours, listed in OVERRIDES.items():
        assert _overridden(ours) == listed, (
            f"{ours.__name__} overrides other pygls methods than this test lists: say in the override "
            f"which {PYGLS} code it replaces and why, and list it here with pygls's fingerprint")
        for name in listed:
            method = vars(ours)[name]
            text = (inspect.getcomments(method) or "") + inspect.getsource(method)
            assert PYGLS in text, f"{ours.__name__}.{name} does not say which pygls it overrides ({PYGLS})"


def test_the_pygls_code_our_overrides_rely_on_is_unchanged():
    found = {}
    for name in PYGLS_CODE:
        owner, method = name.split(".")
        found[name] = _fingerprint(vars(PYGLS_CLASSES[owner])[method])
    changed = {name: hash_ for name, hash_ in found.items() if hash_ != PYGLS_CODE[name]}
    assert not changed, f"pygls's code changed since {PYGLS} (re-check the overrides): {changed}"


def test_every_overridden_pygls_method_is_fingerprinted():
    """An override's pygls original is among `PYGLS_CODE` (where pygls defines it)."""
    for ours, listed in OVERRIDES.items():
        for name in listed:
            owner = next(cls for cls in BASES[ours].__mro__ if name in vars(cls))
            assert f"{owner.__name__}.{name}" in PYGLS_CODE, (ours.__name__, name)


def test_the_private_state_our_overrides_read_is_still_pygls_s():
    """What `AnnoscoreProtocol` reads of pygls's private state: its shape."""
    from annoscore.server.lsp.app import create_server

    protocol = create_server().protocol
    assert isinstance(protocol._result_types, dict) and isinstance(protocol._request_futures, dict)
    assert protocol._shutdown is False and callable(protocol._serialize_message)
    assert protocol.converter is protocol._converter
    assert isinstance(protocol.fm.features, dict) and isinstance(protocol.fm.commands, dict)
    assert list(inspect.signature(JsonRPCProtocol._send_handler_result).parameters) == ["self", "future", "msg_id"]
    assert list(inspect.signature(JsonRPCProtocol._send_response).parameters) == ["self", "msg_id", "result",
                                                                                  "error"]
    assert "self._shutdown" in inspect.getsource(JsonRPCProtocol.handle_message)
    assert "self._shutdown = True" in inspect.getsource(LanguageServerProtocol.lsp_shutdown)
