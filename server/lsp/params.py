"""Reading and checking the params of annoscore's own requests, which
several features share: ``{"uri"}`` and ``{"uri", "position"}``.

A check says what is wrong with the params as JSON (or None); the protocol
refuses the request with InvalidParams before its handler runs
(`AnnoscoreProtocol.check_params`, `feature.handles`).  The handler then
reads its fields with `field` and `uri_of`, whatever shape pygls gave them.
"""

from __future__ import annotations

from typing import Any

from .transport import shown


def field(params: Any, name: str) -> Any:
    """A field of a request's params, as a dict or as pygls's object."""
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)


def uri_of(params: Any) -> str | None:
    """The ``uri`` of params ``{uri}`` (or of a command's first argument)."""
    if isinstance(params, dict):
        return params.get("uri")
    uri = getattr(params, "uri", None)
    if uri is None and isinstance(params, (list, tuple)) and params:
        return uri_of(params[0])
    return uri


def uri_problem(params: Any) -> str | None:
    """What is wrong with the params ``{"uri": "…"}`` of a request, or None."""
    if not isinstance(params, dict):
        return f"expected an object with a \"uri\", not {shown(params)}"
    uri = params.get("uri")
    if not isinstance(uri, str):
        return f"\"uri\" must be a string (a document's URI), not {shown(uri)}"
    return None


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
