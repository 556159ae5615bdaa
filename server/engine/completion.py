"""Completion in a CoNLL-U cell: the values an annotator picks from.

- UPOS: the 17 universal tags;
- DEPREL: the 37 universal relations, and the subtyped relations in use
  (``obl:tmod``, ``nmod:poss``…): gold's first when the document has gold,
  then the document's own;
- HEAD: 0 (the root) and every other word of the sentence, labelled with its
  form, so that one picks a word rather than counting lines.

Each candidate replaces the whole cell.  Other columns get nothing: their
values are open sets (lemmas, language-specific tags and features).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorer.conllu.relations import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS
from scorer.conllu.sentence import DEPREL, HEAD, UPOS
from scorer.segmentation.tokens import UPOS_TAGS

from ..textstore import TextStore
from .cells import Cell, describe

UNIVERSAL_RELATIONS = sorted(CONTENT_DEPRELS | FUNCTIONAL_DEPRELS | {"punct"})


@dataclass
class Candidate:
    value: str
    detail: str
    sort: str  # order in the list


@dataclass
class Completion:
    line: int
    start: int
    end: int            # the cell's span: what a candidate replaces
    candidates: list[Candidate]


# A DEPREL cell with a subtype: after a TAB, a relation, a colon, a subtype,
# then the TAB before DEPS (DEPS values start with a digit, and FEATS have no colon).
_SUBTYPED = re.compile(r"\t([a-z]+:[a-z_]+)\t", re.ASCII)


def subtypes_of(store: TextStore) -> set[str]:
    """The subtyped relations a document's DEPREL cells use, kept per segment
    (so that after an edit only the segments it touched are read again)."""
    out: set[str] = set()
    for segment in store.segments:
        if segment.subtypes is None:
            segment.subtypes = frozenset(_SUBTYPED.findall(segment.text)) if segment.has_block else frozenset()
        out |= segment.subtypes
    return out


def complete(engine, key: str, line: int, column: int) -> Completion | None:
    cell = describe(engine, key, line, column, with_gold=False)
    if not isinstance(cell, Cell) or cell.word is None or cell.column not in (UPOS, DEPREL, HEAD):
        return None
    sentence = cell.sentence
    if cell.column == UPOS:
        candidates = [Candidate(tag, "universal POS tag", tag) for tag in sorted(UPOS_TAGS)]
    elif cell.column == DEPREL:
        candidates = [Candidate(r, "universal relation", "0" + r) for r in UNIVERSAL_RELATIONS]
        document = engine.documents[key]
        gold = engine.documents.get(document.setup.gold or "")
        in_gold = subtypes_of(gold.store) if gold is not None and isinstance(gold.store, TextStore) else set()
        here = (subtypes_of(document.store) | {r for r in sentence.deprel if ":" in r}) - in_gold
        candidates += [Candidate(r, "subtype used in gold", "1" + r) for r in sorted(in_gold)]
        candidates += [Candidate(r, "subtype used in this file", "2" + r) for r in sorted(here)]
    else:
        candidates = [Candidate("0", "the root", "0000")]
        for i, form in enumerate(sentence.form):
            if i != cell.word:
                candidates.append(Candidate(str(i + 1), f"word {i + 1}: {form}", f"{i + 1:04d}"))
    return Completion(cell.line, cell.start, cell.end, candidates)
