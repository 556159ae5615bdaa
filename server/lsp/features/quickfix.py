"""Quick fixes (``textDocument/codeAction``, kind ``quickfix``).

For each annoscore diagnostic the client sends with the request whose code
has a fix (`server.engine.fixes`), one code action carrying the edit.  The
editor applies it, and can undo it: the server never writes the file.
Positions go from the client's encoding to code points and back against the
engine's own copy of each line.
"""

from __future__ import annotations

from lsprotocol import types

from ...engine.fixes import FIXABLE, fix_for
from ..positions import from_client, to_client


class QuickFixes:
    def __init__(self, server) -> None:
        self.server = server

    def register(self) -> None:
        @self.server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                             types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
        async def code_action(ls, params: types.CodeActionParams) -> list[types.CodeAction] | None:
            only = params.context.only
            if only and not any(str(kind).startswith(types.CodeActionKind.QuickFix) for kind in only):
                return None
            wanted = [d for d in params.context.diagnostics
                      if d.source == "annoscore" and isinstance(d.code, str) and d.code in FIXABLE]
            if not wanted:
                return None
            uri = params.text_document.uri
            return await ls.worker.run(self.actions, uri, wanted) or None

    def actions(self, uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
        """(On the engine thread.)"""
        ls = self.server
        key, _ = ls.key_for(uri)
        document = ls.engine.documents.get(key)
        if document is None:
            return []
        store, encoding = document.store, ls.encoding
        out = []
        for diagnostic in diagnostics:
            start = diagnostic.range.start
            column = from_client(store.line(start.line), start.character, encoding)
            fix = fix_for(ls.engine, key, str(diagnostic.code), start.line, column)
            if fix is None:
                continue
            edits = []
            for l1, c1, l2, c2, new_text in fix.edits:
                edits.append(types.TextEdit(
                    range=types.Range(types.Position(l1, to_client(store.line(l1), c1, encoding)),
                                      types.Position(l2, to_client(store.line(l2), c2, encoding))),
                    new_text=new_text))
            out.append(types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[diagnostic], is_preferred=True,
                                        edit=types.WorkspaceEdit(changes={uri: edits})))
        return out
