"""Problems as LSP ``Diagnostic`` objects, each written as JSON text once.

A large file shows a few thousand diagnostics after every edit, and nearly
all of them are the ones shown before.  Building lsprotocol objects (or
even dicts) and encoding them again would cost more than the rescoring
itself, so `DiagnosticsJSON` keeps each diagnostic's JSON, keyed by the
problem (with its absolute line), the text segment its line is in and the
line's place in that segment.  An edit makes new segments where it changed
the text; a segment that moved (lines above it came or went) has its
problems on other absolute lines, and another problem that lands on one of
those lines is on another line of the segment: so a cached position is
reused only for the same characters.  Before that, the problem object
itself: the engine shows one object again only as the same diagnostic (the
UD validator's findings of sentences not edited, see
`server.engine.diagnostics.Listing`), and looking it up costs no hashing of
its fields.  Only what is shown now is kept: the cache does not grow.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from annoscore.scorer.problems import Problem

from ..code_entries import anchor
from ..textstore import TextStore
from .positions import UTF32, to_client


class DiagnosticsJSON:
    """The JSON of the diagnostics shown last, per document (used on the engine thread)."""

    def __init__(self) -> None:
        # Per document: the JSON of each diagnostic, by the problem object
        # and by its value and place.
        self._shown: dict[str, tuple[dict[int, tuple[Problem, str]], dict[tuple, str]]] = {}
        self._docs_url = ""  # the docsUrl those JSON texts link to (another one: none is reused)

    def forget(self, key: str) -> None:
        self._shown.pop(key, None)

    def encode(self, key: str, problems: list[Problem], store: Any, encoding: str, docs_url: str,
               uri_for: Callable[[str], str]) -> list[str]:
        """The JSON of ``problems`` of the document ``key``, whose text is
        ``store`` (None when the engine holds no such document); columns in
        the client's ``encoding``, codes linked to ``docs_url``."""
        segments = store if isinstance(store, TextStore) else None
        if docs_url != self._docs_url:  # the cached JSON links elsewhere (or not at all)
            self._shown.clear()
            self._docs_url = docs_url
        uri = uri_for(key)
        known_objects, known = self._shown.get(key, ({}, {}))
        kept_objects: dict[int, tuple[Problem, str]] = {}
        kept: dict[tuple, str] = {}

        last = [-1, ""]  # the line looked up last (a diagnostic's start and end share it)

        def position(line: int, column: int) -> dict[str, int]:
            if store is not None and column > 0 and encoding != UTF32:
                if last[0] != line:
                    last[0], last[1] = line, store.line(line)
                column = to_client(last[1], column, encoding)
            return {"line": line, "character": max(column, 0)}

        out = []
        for p in problems:
            entry = known_objects.get(id(p))
            if entry is not None and entry[0] is p:
                kept_objects[id(p)] = entry
                out.append(entry[1])
                continue
            cache_key = None
            if segments is not None and not p.related:
                segment = segments.segment_of(p.line)
                cache_key = (p, segment, p.line - segment.first_line)
                text = known.get(cache_key)
                if text is not None:
                    kept[cache_key] = text
                    kept_objects[id(p)] = (p, text)
                    out.append(text)
                    continue
            text = json.dumps(_diagnostic(p, position, docs_url, uri, uri_for))
            if cache_key is not None:
                kept[cache_key] = text
                kept_objects[id(p)] = (p, text)
            out.append(text)
        if segments is not None:
            self._shown[key] = (kept_objects, kept)
        return out


def _diagnostic(p: Problem, position: Callable[[int, int], dict[str, int]], docs_url: str, uri: str,
                uri_for: Callable[[str], str]) -> dict[str, Any]:
    """One problem as the LSP's ``Diagnostic`` (a dict, for `json.dumps`)."""
    diagnostic: dict[str, Any] = {
        "range": {"start": position(p.line, p.start), "end": position(p.line, p.end)},
        "severity": int(p.severity), "code": p.code, "source": "annoscore", "message": p.message}
    if docs_url:
        entry = anchor(p.code)
        if entry is not None:
            diagnostic["codeDescription"] = {"href": f"{docs_url}#{entry}"}
    if p.data:
        data = validation_data(p) if p.code != "disagreement" else \
            {"other": uri_for(str(p.datum("other"))), "column": p.datum("column")}
        if data is not None:
            diagnostic["data"] = data
    if p.related:
        diagnostic["relatedInformation"] = [
            {"location": {"uri": uri, "range": {"start": position(r.line, r.start),
                                                 "end": position(r.line, r.end)}},
             "message": r.message} for r in p.related]
    return diagnostic


def validation_data(problem: Problem) -> dict[str, Any] | None:
    """A UD validation finding's ``data``: the validator's test id, level and
    class (and ``ud_line``, 0-based, when the validator reports it on another
    line: see `server.engine.conllu.twins`); None for other problems."""
    test_id = problem.datum("test_id")
    if test_id is None:
        return None
    data = {"test_id": test_id, "level": problem.datum("level"), "class": problem.datum("class")}
    ud_line = problem.datum("ud_line")
    if ud_line is not None:
        data["ud_line"] = ud_line
    return data
