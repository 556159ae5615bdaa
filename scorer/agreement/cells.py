"""What is compared: the variables, and each cell's value as a category.

A *variable* is what one row of the report is about.  Per word:

- ``UPOS``, ``XPOS``, ``LEMMA``, ``DEPREL``: the cell as written;
- ``FEATS``: the whole cell, features in any order (``_``, no feature, is
  a value like any other);
- one variable per feature, ``FEATS:Number``: the feature's value in the
  cell, or ``-`` when the cell does not have the feature;
- ``HEAD``: the head as a word both annotations have: the *item number* of
  the head word (0 for the root).  When both annotations tokenize the
  sentence alike, items are the words and this is the HEAD cell itself;
- ``HEAD+DEPREL``: both at once (a labelled attachment);
- ``DEPS``: the enhanced graph's edges, heads as item numbers, in any order.

A cell ``_`` is a *missing value* in UPOS, XPOS, LEMMA, HEAD, DEPREL, DEPS
(and HEAD+DEPREL): the annotator has not annotated it (an unparsed
sentence, a treebank without XPOS).  Missing values are left out of every
coefficient; Krippendorff's alpha is made for them.  A word that one
annotation does not have (the sentence is not in it, or it tokenizes the
text otherwise) is missing for that annotation in every variable.

Codes: values become integers per variable (`encode`): >= 0 a category,
`BLANK` a cell ``_`` where that is a missing value, `ABSENT` no word.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ..conllu.relations import Memo

ABSENT = -1   # the annotation has no such word
BLANK = -2    # the cell is _ where _ means "not annotated"

# The columns compared, in the report's order (HEAD+DEPREL and the features are made from them).
BASE = ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL", "DEPS")
ATTRIBUTE = {"UPOS": "upos", "XPOS": "xpos", "LEMMA": "lemma", "FEATS": "feats", "HEAD": "head",
             "DEPREL": "deprel", "DEPS": "deps"}
# Where _ is a missing value rather than a category.
BLANK_IS_MISSING = frozenset({"UPOS", "XPOS", "LEMMA", "HEAD", "DEPREL", "DEPS"})
LABELLED = "HEAD+DEPREL"
FEATURE_PREFIX = "FEATS:"
NO_FEATURE = "-"
WORD = "WORD"          # --unit word: a word's cells all at once
SENTENCE = "SENTENCE"  # --unit sentence: a sentence's cells all at once
# Where the cell of each compared column is on a token line (for places).
COLUMN_NUMBER = {"LEMMA": 2, "UPOS": 3, "XPOS": 4, "FEATS": 5, "HEAD": 6, "DEPREL": 7, "DEPS": 8}


def _canonical_feats(feats: str) -> str:
    if feats in ("_", ""):
        return "_"
    return "|".join(sorted(f for f in feats.split("|") if f))


def _feature_map(feats: str) -> dict[str, str]:
    if feats == "_":
        return {}
    out = {}
    for pair in feats.split("|"):
        name, _, value = pair.partition("=")
        out[name] = value
    return out


CANONICAL_FEATS = Memo(_canonical_feats)
FEATURES_OF = Memo(_feature_map)   # (of a canonical FEATS value)


def _canonical_deps(deps: str) -> str:
    if deps in ("_", ""):
        return "_"
    edges = deps.split("|")
    return "|".join(sorted(edges, key=_edge_order))


def _edge_order(edge: str) -> tuple:
    head, _, relation = edge.partition(":")
    whole, _, part = head.partition(".")
    try:
        return (int(whole), int(part or 0), relation)
    except ValueError:
        return (1 << 62, 0, edge)


CANONICAL_DEPS = Memo(_canonical_deps)


def deps_in_items(deps: str, item_of: Sequence[int]) -> str:
    """A DEPS value with its heads as item numbers (``item_of[w]``: the item
    of word w, 0-based; 0 stays the root); heads that are not words of the
    sentence (empty nodes, numbers out of range) are kept as written, marked."""
    if deps in ("_", ""):
        return "_"
    edges = []
    for edge in deps.split("|"):
        head, sep, relation = edge.partition(":")
        if head.isdecimal() and 0 < int(head) <= len(item_of):
            head = str(item_of[int(head) - 1])
        elif head != "0":
            head = "~" + head
        edges.append(head + sep + relation)
    return _canonical_deps("|".join(edges))


def head_in_items(head: str, item_of: Sequence[int]) -> str:
    """A HEAD cell as the item number of the head word (0: the root); a
    cell that is not such a number is kept as written, marked."""
    if head.isdecimal() and 0 < int(head) <= len(item_of):
        return str(item_of[int(head) - 1])
    return head if head in ("_", "0") else "~" + head


def cell_value(variable: str, cell: str) -> str:
    """A cell as its variable compares it (for FEATS and DEPS, canonical)."""
    if variable == "FEATS":
        return CANONICAL_FEATS[cell]
    if variable == "DEPS":
        return CANONICAL_DEPS[cell]
    return cell


# --------------------------------------------------------------------------
# Codes
# --------------------------------------------------------------------------


def gather(codes: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Codes per item from codes per word (``words``: each item's word, -1: none)."""
    out = np.full(len(words), ABSENT, dtype=np.int64)
    present = words >= 0
    out[present] = codes[words[present]]
    return out


def combine(parts: Sequence[np.ndarray]) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Several variables' codes as one (a category per combination of
    categories; `BLANK` is a value here); ABSENT where any part is.
    Returns the codes and each category's combination."""
    absent = np.zeros(len(parts[0]), dtype=bool)
    for part in parts:
        absent |= part == ABSENT
    keep = ~absent
    out = np.full(len(parts[0]), ABSENT, dtype=np.int64)
    if not keep.any():
        return out, []
    # Part by part: (combination so far, next part) as one integer, renumbered
    # (np.unique), so that the integers stay small however many parts.
    codes = np.zeros(int(keep.sum()), dtype=np.int64)
    combinations: list[tuple[int, ...]] = [()]
    for part in parts:
        digits = part[keep] - BLANK            # BLANK -> 0, categories from 2
        radix = int(digits.max()) + 1
        uniques, codes = np.unique(codes * radix + digits, return_inverse=True)
        combinations = [combinations[u // radix] + (int(u % radix) + BLANK,) for u in uniques.tolist()]
    out[keep] = codes.reshape(-1)
    return out, combinations
