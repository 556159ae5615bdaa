"""pygls's protocol, minus its own copy of each document's text.

pygls keeps every open document as one string and, on each incremental
change, splits that string into lines to find the position: a pass over the
whole text per keystroke.  The engine keeps documents itself, in segments
(`server.textstore`), so these three notifications go straight to our
handlers and pygls's workspace never holds the text.

`notify_raw` sends a notification whose parameters are already plain JSON
(dicts, lists, strings, numbers), without pygls's attrs converter: for
thousands of diagnostics that conversion costs more than the scoring.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method


class AnnoscoreProtocol(LanguageServerProtocol):
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

    def notify_raw(self, method: str, params: dict[str, Any]) -> None:
        self._send_data({"jsonrpc": "2.0", "method": method, "params": params})
