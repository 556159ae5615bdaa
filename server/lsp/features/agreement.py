"""Agreement with other annotations of the same text (see `server.engine.agreement`).

Command ``annoscore.compareWith`` with ``[uri, other]``: compare the
document ``uri`` with the annotation ``other`` (a URI or a path) from now
on, besides those ``[agreement] others`` declares; ``other`` null stops
comparing with any the editor added.  The document is rescored, which
publishes the ``disagreement`` diagnostics and the score payload's
``agreement`` (what the status bar shows).

Request ``annoscore/agreement`` ``{uri}``: the payload's ``agreement``
(a list, one entry per other annotation), or null when the document is
compared with none.
"""

from __future__ import annotations

import os
from typing import Any

from pygls.uris import to_fs_path

from ..feature import LanguageFeature, command, handles
from ..params import uri_of, uri_problem
from ..server import AnnoscoreServer
from ..transport import shown
from .scoring import Scoring

COMPARE = "annoscore.compareWith"
AGREEMENT = "annoscore/agreement"


def compare_arguments_problem(arguments: Any) -> str | None:
    if not isinstance(arguments, (list, tuple)) or len(arguments) != 2:
        return f"expected two arguments, the document's URI and the other annotation's URI (or null), " \
               f"not {shown(arguments)}"
    uri, other = arguments
    if not isinstance(uri, str):
        return f"the first argument must be a document's URI, not {shown(uri)}"
    if other is not None and not isinstance(other, str):
        return f"the second argument must be a URI, a path or null, not {shown(other)}"
    return None


def _path_of(other: str) -> str:
    if other.startswith("file:"):
        return os.path.abspath(to_fs_path(other) or other)
    return os.path.abspath(os.path.expanduser(other))


class Agreement(LanguageFeature):
    server: AnnoscoreServer

    @command(COMPARE, check=compare_arguments_problem)
    async def compare_with(self, *args: Any) -> dict[str, Any]:
        ls = self.server
        uri, other = args
        key, _ = ls.key_for(uri)
        path = None if other is None else _path_of(other)
        await ls.worker.run(ls.engine.compare_with, key, path)
        ls.get_feature(Scoring).schedule(key)
        return {"uri": uri, "other": None if path is None else ls.uri_for(path)}

    @handles(AGREEMENT, check=uri_problem)
    async def agreement(self, params: Any) -> list[dict[str, Any]] | None:
        uri = uri_of(params)
        if uri is None:
            return None
        ls = self.server
        payload = await ls.worker.run(ls.score_payload, ls.key_for(uri)[0])
        return None if payload is None else payload.get("agreement")
