"""How the official scorer compares cell values: relation and feature sets,
and memoized normalizations (the same few thousand values recur millions of
times, so each is computed once)."""

from __future__ import annotations

from typing import Callable, TypeVar

from .columns import parse_deps

# Relations whose dependents are "content words" (CLAS, MLAS, BLEX count
# only these) and relations of "functional children" (MLAS compares them).
CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative",
    "expl", "dislocated", "advcl", "advmod", "discourse", "nmod", "appos",
    "nummod", "acl", "amod", "conj", "fixed", "flat", "compound", "list",
    "parataxis", "orphan", "goeswith", "reparandum", "root", "dep",
})
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})

# UFeats compares only these (language-specific features such as Clitic are ignored).
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender",
    "Animacy", "Number", "Case", "Definite", "Degree", "VerbForm", "Mood",
    "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person", "Polite",
})

K = TypeVar("K")
V = TypeVar("V")

_MAX_ENTRIES = 1 << 18


class Memo(dict):
    """A dict that computes missing values with ``function`` (lookups of known
    keys stay at C speed: ``map(memo.__getitem__, values)``).  Cleared when it
    grows past a bound, so a long-running server cannot grow without limit."""

    def __init__(self, function: Callable[[str], object]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key):
        if len(self) > _MAX_ENTRIES:
            self.clear()
        value = self[key] = self.function(key)
        return value


def _universal_feats(feats: str) -> str:
    # The official code keeps pairs whose name is universal, sorted as strings
    # ("_" and "" both become "").
    return "|".join(sorted(f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


def _all_feats(feats: str) -> str:
    # --strict: every feature counts, order still ignored.
    if feats in ("_", ""):
        return ""
    return "|".join(sorted(feats.split("|")))


UFEATS = Memo(_universal_feats)
ALL_FEATS = Memo(_all_feats)
# DEPREL without its subtype: obl:arg -> obl.
BASE_DEPREL = Memo(lambda deprel: deprel.split(":")[0])
# Whether a DEPREL (with or without subtype) makes its word a content word.
CONTENT_OF = Memo(lambda deprel: deprel.split(":")[0] in CONTENT_DEPRELS)


def _safe_deps(deps: str):
    try:
        return parse_deps(deps)
    except ValueError:
        return ()


def _deps_summary(deps: str) -> tuple[tuple, int, int, int]:
    """(edges without empty-node heads, edge count, ELAS and EULAS matches of the
    value against itself).  Scoring a word whose DEPS equal gold's then needs no
    loop: with the same heads, the matches are the self-matches."""
    edges = tuple((head, path) for head, path in _safe_deps(deps) if head is not None)
    if len({head for head, _ in edges}) == len(edges):
        return edges, len(edges), len(edges), len(edges)  # each edge matches itself only
    elas = eulas = 0
    for head, path in edges:
        base = [step.split(":")[0] for step in path]
        for other_head, other_path in edges:
            if other_head != head:
                continue
            if path == other_path:
                elas += 1
                eulas += 1
            elif base == [step.split(":")[0] for step in other_path]:
                eulas += 1
    return edges, len(edges), elas, eulas


DEPS = Memo(_deps_summary)
