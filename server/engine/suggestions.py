"""Did you mean: the nearest valid values for an unknown UPOS, relation,
feature name or feature value, as quick fixes the annotator may take.

Never marked preferred: a near spelling is a guess, the annotation is the
annotator's decision.  Candidates are the universal sets (UPOS tags,
universal relations, the universal features), and at levels 4–5 (the
language and its UD data at hand, see `completion.language_lists`) the
language's own relations, features and values.  Nearness is difflib's
ratio on the lowercased values; a case-only difference comes first.
"""

from __future__ import annotations

import difflib

from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.relations import UNIVERSAL_FEATURES
from annoscore.scorer.conllu.sentence import DEPREL, FEATS, UPOS
from annoscore.scorer.segmentation.tokens import UPOS_TAGS

from ..textstore import TextStore
from .completion import UNIVERSAL_RELATIONS, language_lists
from .fix import Fix

SUGGESTED = frozenset({"unknown-upos", "unknown-udeprel", "unknown-deprel", "feature-unknown",
                       "feature-value-unknown"})
AT_MOST = 3


def nearest(value: str, candidates) -> list[str]:
    """Up to `AT_MOST` candidates nearest to ``value`` (a case-only match first)."""
    by_lower: dict[str, str] = {}
    for c in sorted(candidates):
        by_lower.setdefault(c.lower(), c)
    exact = [by_lower[value.lower()]] if value.lower() in by_lower and by_lower[value.lower()] != value else []
    close = difflib.get_close_matches(value.lower(), list(by_lower), n=AT_MOST, cutoff=0.6)
    out = exact + [by_lower[c] for c in close if by_lower[c] not in exact and by_lower[c] != value]
    return out[:AT_MOST]


def suggestions_for(engine, key: str, code: str, line: int, start: int) -> list[Fix]:
    """The fixes "Did you mean …" for the diagnostic ``code`` at (line, start)."""
    document = engine.documents.get(key)
    if code not in SUGGESTED or document is None or not isinstance(document.store, TextStore):
        return []
    text = document.store.line(line)
    if text.count("\t") < 9:
        return []
    lists = language_lists(document)
    if code == "unknown-upos":
        a, b = cell_span(text, UPOS)
        return _fixes(line, a, text[a:b], nearest(text[a:b], UPOS_TAGS), "UPOS")
    if code in ("unknown-udeprel", "unknown-deprel"):
        a, b = cell_span(text, DEPREL)
        value = text[a:b]
        if code == "unknown-deprel" and lists is not None:
            return _fixes(line, a, value, nearest(value, lists[1].deprels(lists[0])), "DEPREL")
        universal, sep, subtype = value.partition(":")
        return _fixes(line, a, universal, nearest(universal, UNIVERSAL_RELATIONS), "relation")
    # A feature item: the one the diagnostic's range starts in.
    a, b = cell_span(text, FEATS)
    offset = a
    for item in text[a:b].split("|"):
        if offset <= start <= offset + len(item):
            name, _, value = item.partition("=")
            feats = lists[1].feats(lists[0]) if lists is not None else {}
            if code == "feature-unknown":
                names = [n for n, r in feats.items() if r.get("permitted")] or UNIVERSAL_FEATURES
                return _fixes(line, offset, name, nearest(name, names), "feature")
            record = feats.get(name)
            if record is None:
                return []
            values = set(record.get("uvalues", ())) | set(record.get("lvalues", ()))
            return _fixes(line, offset + len(name) + 1, value, nearest(value, values), f"value of {name}")
        offset += len(item) + 1
    return []


def _fixes(line: int, start: int, old: str, new: list[str], what: str) -> list[Fix]:
    return [Fix(f"Did you mean {what} {value!r}?", [(line, start, line, start + len(old), value)]) for value in new]
