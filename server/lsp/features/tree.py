"""The sentence under the cursor as a tree: the request ``annoscore/tree``.

``{"uri", "position": {"line", "character"}}`` → the payload of
`server.engine.tree.sentence_tree` (gold's file as a URI), or null when no
sentence is at that line.  With ``"format": "text"`` the answer also has
``"text"``, the text-mode tree (`server.engine.treetext`), and ``"rows"``,
the document line of each of its lines (null for lines that are no word),
so that a client showing text can follow a line back to the document.
"""

from __future__ import annotations

from typing import Any

from .base import LanguageFeature
from ..transport import shown
from ...engine.tree import sentence_tree
from ...engine.treetext import render_tree

TREE = "annoscore/tree"
FORMATS = ("data", "text")


def field(params: Any, name: str) -> Any:
    """A field of a request's params, as a dict or as pygls's object."""
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)


def position_problem(params: Any) -> str | None:
    """What is wrong with ``{"uri", "position": {"line", "character"}}``, or None."""
    if not isinstance(params, dict):
        return f"expected an object with a \"uri\" and a \"position\", not {shown(params)}"
    if not isinstance(params.get("uri"), str):
        return f"\"uri\" must be a string (a document's URI), not {shown(params.get('uri'))}"
    position = params.get("position")
    if not isinstance(position, dict) or not all(
            isinstance(position.get(k), int) and not isinstance(position.get(k), bool) and position[k] >= 0
            for k in ("line", "character")):
        return f"\"position\" must be {{\"line\": n, \"character\": n}} (n ≥ 0), not {shown(position)}"
    return None


def tree_params_problem(params: Any) -> str | None:
    problem = position_problem(params)
    if problem is None and (not isinstance(params.get("format", "data"), str)
                            or params.get("format", "data") not in FORMATS):
        problem = f"\"format\" must be \"data\" or \"text\", not {shown(params.get('format'))}"
    return problem


class SentenceTree(LanguageFeature):
    def register(self) -> None:
        server = self.server
        server.protocol.check_params(TREE, tree_params_problem)

        @server.feature(TREE)
        async def tree(ls, params: Any) -> dict[str, Any] | None:
            position = field(params, "position")
            return await ls.worker.run(self.tree_at, field(params, "uri"), field(position, "line"),
                                       field(params, "format") or "data")

    def tree_at(self, uri: str, line: int, form: str = "data") -> dict[str, Any] | None:
        """(On the engine thread.)"""
        ls = self.server
        key, _ = ls.key_for(uri)
        payload = sentence_tree(ls.engine, key, line)
        if payload is None:
            return None
        if form == "text":
            lines, rows = render_tree(payload)
            payload["text"], payload["rows"] = "\n".join(lines), rows
        payload["uri"] = uri
        if payload["gold"] is not None:
            payload["gold"]["uri"] = ls.uri_for(payload["gold"].pop("path"))
        return payload
