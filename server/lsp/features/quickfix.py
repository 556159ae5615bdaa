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


class QuickFixes:
    def __init__(self, server) -> None:
        self.server = server

    def register(self) -> None:
        @self.server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                             types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
        async def code_action(ls, params: types.CodeActionParams) -> list[types.CodeAction] | None:
            only = params.context.only
            # Ours are all of kind "quickfix": answer only when that is asked for.
            if only and not any(getattr(kind, "value", kind) in ("quickfix", "") for kind in only):
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
        out = []
        for diagnostic in diagnostics:
            start = diagnostic.range.start
            where = ls.conllu_position(uri, start.line, start.character)
            if where is None:  # not a CoNLL-U document the engine holds
                break
            key = where[0]
            fix = fix_for(ls.engine, key, str(diagnostic.code), start.line, where[1])
            if fix is None:
                continue
            edits = [types.TextEdit(range=ls.client_range(key, l1, c1, l2, c2), new_text=new_text)
                     for l1, c1, l2, c2, new_text in fix.edits]
            out.append(types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[diagnostic], is_preferred=True,
                                        edit=types.WorkspaceEdit(changes={uri: edits})))
        return out
