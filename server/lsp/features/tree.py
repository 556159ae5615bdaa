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

from ..feature import LanguageFeature, handles
from ..params import field, position_problem
from ..server import AnnoscoreServer
from ..transport import shown
from ...engine.tree import sentence_tree
from ...engine.treetext import render_tree

TREE = "annoscore/tree"
FORMATS = ("data", "text")


def tree_params_problem(params: Any) -> str | None:
    problem = position_problem(params)
    if problem is None and (not isinstance(params.get("format", "data"), str)
                            or params.get("format", "data") not in FORMATS):
        problem = f"\"format\" must be \"data\" or \"text\", not {shown(params.get('format'))}"
    return problem


class SentenceTree(LanguageFeature):
    server: AnnoscoreServer

    @handles(TREE, check=tree_params_problem)
    async def tree(self, params: Any) -> dict[str, Any] | None:
        position = field(params, "position")
        return await self.server.worker.run(self.tree_at, field(params, "uri"), field(position, "line"),
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
