"""The next (or previous) place of a kind: the request ``annoscore/next``.

``{"uri", "position", "kind", "direction": "next" | "previous"}`` →
``{"found": true, "kind", "direction", "uri", "range", "message", "sentId", "total"}``
or, when there is no further one (it never wraps around),
``{"found": false, "kind", "direction", "message", "total"}``; null for a
document that is not an open CoNLL-U one.  The places come from the
engine's own results, not from the published diagnostics, so none is out
of reach past ``maxDiagnostics`` (see `server.engine.seek`, where the kinds
are).
"""

from __future__ import annotations

from typing import Any

from ..feature import LanguageFeature, handles
from ..params import field, position_problem
from ..positions import to_client
from ..server import AnnoscoreServer
from ..transport import shown
from ...engine.seek import DIRECTIONS, KINDS, find

NEXT = "annoscore/next"


def next_params_problem(params: Any) -> str | None:
    problem = position_problem(params)
    if problem is not None:
        return problem
    if not isinstance(params.get("kind"), str) or params.get("kind") not in KINDS:
        return f"\"kind\" must be one of {', '.join(KINDS)}, not {shown(params.get('kind'))}"
    if not isinstance(params.get("direction", "next"), str) or params.get("direction", "next") not in DIRECTIONS:
        return f"\"direction\" must be \"next\" or \"previous\", not {shown(params.get('direction'))}"
    return None


class NextPlace(LanguageFeature):
    server: AnnoscoreServer

    @handles(NEXT, check=next_params_problem)
    async def next_place(self, params: Any) -> dict[str, Any] | None:
        position = field(params, "position")
        return await self.server.worker.run(self.find_from, field(params, "uri"), field(position, "line"),
                                            field(position, "character"), field(params, "kind"),
                                            field(params, "direction") or "next")

    def find_from(self, uri: str, line: int, character: int, kind: str, direction: str) -> dict[str, Any] | None:
        """(On the engine thread.)"""
        ls = self.server
        where = ls.conllu_position(uri, line, character)
        if where is None:
            return None
        key, column = where
        found = find(ls.engine, key, line, column, kind, direction)
        if found is None:
            return None
        answer: dict[str, Any] = {"found": found.line is not None, "kind": kind, "direction": direction,
                                  "message": found.message, "total": found.total}
        if found.line is not None:
            answer["uri"] = uri
            answer["sentId"] = found.sent_id
            text = ls.engine.documents[key].store.line(found.line)
            answer["range"] = {
                "start": {"line": found.line, "character": to_client(text, found.start, ls.encoding)},
                "end": {"line": found.line, "character": to_client(text, found.end, ls.encoding)}}
        return answer
