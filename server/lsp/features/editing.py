"""Structural edits from the editor (see `server.engine.editing`).

Command ``annoscore.edit`` with one argument ``{uri, version, line,
character, operation, …}`` (the operation's own arguments beside: ``form``,
``head``, ``deprel``, ``at``, ``last``): answers ``{label, edit}``, where
``edit`` is ONE WorkspaceEdit of versioned document changes for the client
to apply (its undo reverts the whole operation), or ``{refused}`` with the
reason (an operation asked for a version the server no longer holds is
refused).  The server never applies or writes anything itself.

Code actions (kind ``refactor.rewrite``) at the cursor offer the operations
that need no input (delete, merge with the next word, split the word at the
cursor, make or undo a multiword token, split the sentence here, join it
with the next); the ``ids-out-of-sequence`` diagnostic gets the quick fix
"Renumber this sentence".
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from annoscore.scorer.conllu.editing import EditError
from annoscore.scorer.conllu.editing.operations import OPERATIONS

from ..feature import LanguageFeature, command
from ..server import AnnoscoreServer
from ..transport import shown
from ...engine.editing import RENUMBER, PlannedEdit, plan

EDIT = "annoscore.edit"
REFACTOR = types.CodeActionKind.RefactorRewrite
# What the code actions at the cursor offer, in this order: operation → short title.
AT_CURSOR = ("splitWord", "mergeWithNext", "makeToken", "undoToken", "delete", "splitSentence", "joinWithNext")
OUT_OF_SEQUENCE = "ids-out-of-sequence"


def edit_arguments_problem(arguments: Any) -> str | None:
    if not isinstance(arguments, (list, tuple)) or len(arguments) != 1 or not isinstance(arguments[0], dict):
        return f"expected one argument, an object {{uri, version, line, character, operation, …}}, " \
               f"not {shown(arguments)}"
    given = arguments[0]
    if not isinstance(given.get("uri"), str):
        return f"'uri' must be a document's URI, not {shown(given.get('uri'))}"
    for name in ("line", "character"):
        value = given.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"'{name}' must be a number ≥ 0, not {shown(value)}"
    version = given.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return f"'version' must be a number or null, not {shown(version)}"
    operation = given.get("operation")
    if operation not in (*OPERATIONS, RENUMBER):
        return f"'operation' must be one of {', '.join((*OPERATIONS, RENUMBER))}, not {shown(operation)}"
    return None


class SentenceEditing(LanguageFeature):
    server: AnnoscoreServer

    @command(EDIT, check=edit_arguments_problem)
    async def edit(self, *args: Any) -> dict[str, Any]:
        given = dict(args[0])
        return await self.server.worker.run(self.answer, given)

    # --- on the engine thread -------------------------------------------------------

    def answer(self, given: dict) -> dict[str, Any]:
        ls = self.server
        uri = given.pop("uri")
        line, character = given.pop("line"), given.pop("character")
        operation, version = given.pop("operation"), given.pop("version", None)
        try:
            planned = self.plan(uri, operation, line, character, given, version)
        except EditError as refused:
            return {"refused": str(refused)}
        return {"label": planned.label,
                "edit": ls.protocol.converter.unstructure(self.workspace_edit(uri, planned))}

    def plan(self, uri: str, operation: str, line: int, character: int, args: dict,
             version: int | None) -> PlannedEdit:
        ls = self.server
        where = ls.conllu_position(uri, line, character)
        if where is None:
            raise EditError("not a CoNLL-U document annoscore holds")
        return plan(ls.engine, where[0], operation, line, where[1], args, version)

    def workspace_edit(self, uri: str, planned: PlannedEdit) -> types.WorkspaceEdit:
        ls = self.server
        key, _ = ls.key_for(uri)
        edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = [
            types.TextEdit(range=ls.client_range(key, l1, c1, l2, c2), new_text=text)
            for l1, c1, l2, c2, text in planned.edits]
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=planned.version),
            edits=edits)])

    def actions(self, uri: str, cursor: types.Position, diagnostics: list[types.Diagnostic],
                refactor: bool, quickfix: bool) -> list[types.CodeAction]:
        """The code actions at the cursor: the operations that need no input
        (those that can be made there), and the renumbering quick fix."""
        out: list[types.CodeAction] = []
        if quickfix:
            for diagnostic in diagnostics:
                if diagnostic.code != OUT_OF_SEQUENCE:
                    continue
                try:
                    planned = self.plan(uri, RENUMBER, diagnostic.range.start.line, 0, {}, None)
                except EditError:
                    continue  # no certain mapping: no fix (the diagnostic says why)
                out.append(types.CodeAction(title=planned.label, kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[diagnostic], is_preferred=True,
                                            edit=self.workspace_edit(uri, planned)))
        if refactor:
            for operation in AT_CURSOR:
                try:
                    planned = self.plan(uri, operation, cursor.line, cursor.character, {}, None)
                except EditError:
                    continue
                out.append(types.CodeAction(title=planned.label, kind=REFACTOR,
                                            edit=self.workspace_edit(uri, planned)))
        return out
