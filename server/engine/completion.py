"""Completion in a CoNLL-U cell: the values an annotator picks from.

- UPOS: the 17 universal tags;
- DEPREL: the 37 universal relations, and the subtyped relations the
  sentence already uses (``obl:tmod``, ``nmod:poss``…);
- HEAD: 0 (the root) and every other word of the sentence, labelled with its
  form, so that one picks a word rather than counting lines.

Each candidate replaces the whole cell.  Other columns get nothing: their
values are open sets (lemmas, language-specific tags and features).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.conllu.labels import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS
from scorer.conllu.sentence import DEPREL, HEAD, UPOS
from scorer.segmentation.tokens import UPOS_TAGS

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


def complete(engine, key: str, line: int, column: int) -> Completion | None:
    cell = describe(engine, key, line, column, with_gold=False)
    if not isinstance(cell, Cell) or cell.word is None or cell.column not in (UPOS, DEPREL, HEAD):
        return None
    sentence = cell.sentence
    if cell.column == UPOS:
        candidates = [Candidate(tag, "universal POS tag", tag) for tag in sorted(UPOS_TAGS)]
    elif cell.column == DEPREL:
        subtyped = sorted({r for r in sentence.deprel if ":" in r} - set(UNIVERSAL_RELATIONS))
        candidates = [Candidate(r, "universal relation", "0" + r) for r in UNIVERSAL_RELATIONS]
        candidates += [Candidate(r, "subtype used in this sentence", "1" + r) for r in subtyped]
    else:
        candidates = [Candidate("0", "the root", "0000")]
        for i, form in enumerate(sentence.form):
            if i != cell.word:
                candidates.append(Candidate(str(i + 1), f"word {i + 1}: {form}", f"{i + 1:04d}"))
    return Completion(cell.line, cell.start, cell.end, candidates)
