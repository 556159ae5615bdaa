"""Quick fixes (``textDocument/codeAction``, kind ``quickfix``).

For each annoscore diagnostic the client sends with the request whose code
has a fix (`server.engine.fixes`), one code action carrying the edit; and
gold's value for the cell at the cursor when it differs from the prediction
(gold-diff diagnostics are off by default, the fix is offered anyway).  The
editor applies it, and can undo it: the server never writes the file.
For an unknown UPOS, relation, feature or value, "Did you mean …" with the
nearest valid values (`server.engine.suggestions`), never preferred.
Positions go from the client's encoding to code points and back against the
engine's own copy of each line.
"""

from __future__ import annotations

from lsprotocol import types

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from .editing import SentenceEditing
from ...engine.fixes import FIXABLE, fix_for, gold_fix_at
from ...engine.suggestions import SUGGESTED, suggestions_for


class QuickFixes(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite]))
    async def code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        only = [str(getattr(kind, "value", kind)) for kind in params.context.only or ()]
        # Answer only the kinds asked for (a kind covers its subkinds).
        quickfix = not only or any("quickfix".startswith(kind) for kind in only)
        refactor = not only or any("refactor.rewrite".startswith(kind) for kind in only)
        if not quickfix and not refactor:
            return None
        uri = params.text_document.uri
        ours = [d for d in params.context.diagnostics if d.source == "annoscore" and isinstance(d.code, str)]
        wanted = [d for d in ours if d.code in FIXABLE or d.code in SUGGESTED] if quickfix else []
        return await self.server.worker.run(self.all_actions, uri, params.range.start, ours, wanted,
                                            quickfix, refactor) or None

    def all_actions(self, uri: str, cursor: types.Position, ours: list[types.Diagnostic],
                    wanted: list[types.Diagnostic], quickfix: bool, refactor: bool) -> list[types.CodeAction]:
        """(On the engine thread.)  The fixes, then the structural edits at
        the cursor (`SentenceEditing`'s)."""
        out = self.actions(uri, wanted, cursor) if quickfix else []
        return out + self.server.get_feature(SentenceEditing).actions(uri, cursor, ours, refactor, quickfix)

    def actions(self, uri: str, diagnostics: list[types.Diagnostic],
                cursor: types.Position | None = None) -> list[types.CodeAction]:
        """(On the engine thread.)  A fix per diagnostic that has one, and
        gold's value for the cell at the cursor when it differs (without a
        gold-diff diagnostic there: those are off by default)."""
        ls = self.server
        out = self._fixes(uri, diagnostics)
        if cursor is not None and not any(d.code == "gold-diff" and _covers(d.range, cursor) for d in diagnostics):
            where = ls.conllu_position(uri, cursor.line, cursor.character)
            fix = gold_fix_at(ls.engine, where[0], cursor.line, where[1]) if where is not None else None
            if fix is not None:
                out.append(self._action(where[0], uri, fix, []))  # type: ignore[index]
        return out

    def _action(self, key: str, uri: str, fix, diagnostics: list[types.Diagnostic],
                preferred: bool = True) -> types.CodeAction:
        ls = self.server
        edits = [types.TextEdit(range=ls.client_range(key, l1, c1, l2, c2), new_text=new_text)
                 for l1, c1, l2, c2, new_text in fix.edits]
        return types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                                diagnostics=diagnostics or None, is_preferred=preferred and bool(diagnostics),
                                edit=types.WorkspaceEdit(changes={uri: edits}))

    def _fixes(self, uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
        ls = self.server
        out = []
        for diagnostic in diagnostics:
            start = diagnostic.range.start
            where = ls.conllu_position(uri, start.line, start.character)
            if where is None:  # not a CoNLL-U document the engine holds
                break
            key = where[0]
            other = diagnostic.data.get("other") if isinstance(diagnostic.data, dict) else None
            fix = fix_for(ls.engine, key, str(diagnostic.code), start.line, where[1],
                          ls.key_for(other)[0] if isinstance(other, str) else None)
            if fix is not None:
                out.append(self._action(key, uri, fix, [diagnostic]))
            # "Did you mean": guesses, never preferred (see server.engine.suggestions).
            for guess in suggestions_for(ls.engine, key, str(diagnostic.code), start.line, where[1]):
                out.append(self._action(key, uri, guess, [diagnostic], preferred=False))
        return out


def _covers(span: types.Range, position: types.Position) -> bool:
    return (span.start.line, span.start.character) <= (position.line, position.character) <= \
        (span.end.line, span.end.character)
