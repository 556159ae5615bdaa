"""Completion in a CoNLL-U cell: the values an annotator picks from.

- UPOS: the 17 universal tags;
- DEPREL: the 37 universal relations, and the subtyped relations in use
  (``obl:tmod``, ``nmod:poss``…): gold's first when the document has gold,
  then the document's own;
- HEAD: 0 (the root) and every other word of the sentence, labelled with its
  form, so that one picks a word rather than counting lines.

When the document is validated at level 4 or 5 (a language and its UD data
at hand, see `server.engine.conllu.validation`), the language's own lists
too, as the validator reads them (`scorer.validation.langdata`):

- DEPREL: the relation subtypes documented for the language, before the
  ones merely used in gold or the file;
- FEATS: ``Feature=Value`` for each value the language permits with the
  word's UPOS (and no feature the cell already has).  The candidate
  replaces the item under the cursor (between ``|``), not the whole cell;
- LEMMA of an AUX (level 5): the language's auxiliaries, its copulas when
  the DEPREL is ``cop``.

Each other candidate replaces the whole cell.  Other columns get nothing:
their values are open sets (XPOS, forms, the lemmas of other words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from annoscore.scorer.conllu.relations import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS
from annoscore.scorer.conllu.sentence import DEPREL, FEATS, HEAD, LEMMA, UPOS
from annoscore.scorer.segmentation.tokens import UPOS_TAGS
from annoscore.scorer.validation.langdata import LanguageData

from ..textstore import TextStore
from .cells import Cell, describe
from .conllu.handler import ConlluResults

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


def language_lists(document) -> tuple[str, LanguageData, int] | None:
    """(language, its data, level) when the document is validated at level
    4 or 5, else None."""
    results = document.results
    state = results.validation if isinstance(results, ConlluResults) else None
    prepared = state.prepared if state is not None else None
    if prepared is None or prepared.level < 4 or prepared.data is None or prepared.lang == "ud":
        return None
    return prepared.lang, prepared.data, prepared.level


def _feature_values(data: LanguageData, lang: str, upos: str, taken: set[str]) -> list[str]:
    """``Feature=Value`` for each value the language permits with ``upos``
    (what passes the validator's level-4 feature checks), in UD's order."""
    out = []
    for name, record in sorted(data.feats(lang).items(), key=lambda item: item[0].lower()):
        if name in taken or not _positive(record.get("permitted")):
            continue
        by_value = record.get("byupos", {}).get(upos, {})
        known = set(record.get("uvalues", ())) | set(record.get("lvalues", ())) \
            | set(record.get("unused_uvalues", ())) | set(record.get("unused_lvalues", ()))
        out += [f"{name}={v}" for v in sorted(by_value) if _positive(by_value[v]) and v in known]
    return out


def _positive(value: object) -> bool:
    return isinstance(value, (int, float)) and value > 0


def _item_at(cell: Cell, column: int) -> tuple[int, int, set[str]]:
    """The span of the FEATS item under ``column`` and the features of the
    cell's other items."""
    value = "" if cell.value == "_" else cell.value
    offset = min(max(column - cell.start, 0), len(value))
    begin = value.rfind("|", 0, offset) + 1
    finish = value.find("|", offset)
    finish = len(value) if finish < 0 else finish
    others = (value[:begin] + value[finish:]).split("|")
    return cell.start + begin, cell.start + (finish if value else len(cell.value)), \
        {item.split("=", 1)[0] for item in others if item}


def complete(engine, key: str, line: int, column: int) -> Completion | None:
    cell = describe(engine, key, line, column, with_gold=False)
    if not isinstance(cell, Cell) or cell.word is None or cell.column not in (UPOS, DEPREL, HEAD, FEATS, LEMMA):
        return None
    sentence = cell.sentence
    document = engine.documents[key]
    lists = language_lists(document) if cell.column in (DEPREL, FEATS, LEMMA) else None
    if cell.column in (FEATS, LEMMA):
        if lists is None:
            return None
        lang, data, level = lists
        upos = sentence.upos[cell.word]
        if cell.column == LEMMA:
            if level < 5 or upos != "AUX":
                return None
            copula = sentence.deprel[cell.word].split(":")[0] == "cop"
            lemmas = data.copulas(lang) if copula else data.auxiliaries(lang)
            what = "copula" if copula else "auxiliary"
            return Completion(cell.line, cell.start, cell.end,
                              [Candidate(lemma, f"{what} of [{lang}]", lemma) for lemma in sorted(lemmas)])
        start, end, taken = _item_at(cell, column)
        return Completion(cell.line, start, end, [
            Candidate(item, f"feature of [{lang}] with {upos}", f"{i:04d}")
            for i, item in enumerate(_feature_values(data, lang, upos, taken))])
    if cell.column == UPOS:
        candidates = [Candidate(tag, "universal POS tag", tag) for tag in sorted(UPOS_TAGS)]
    elif cell.column == DEPREL:
        candidates = [Candidate(r, "universal relation", "0" + r) for r in UNIVERSAL_RELATIONS]
        documented = {r for r in lists[1].deprels(lists[0]) if ":" in r} if lists is not None else set()
        gold = engine.documents.get(document.setup.gold or "")
        in_gold = subtypes_of(gold.store) if gold is not None and isinstance(gold.store, TextStore) else set()
        in_gold -= documented
        here = (subtypes_of(document.store) | {r for r in sentence.deprel if ":" in r}) - in_gold - documented
        if lists is not None:
            candidates += [Candidate(r, f"subtype documented for [{lists[0]}]", "1" + r) for r in sorted(documented)]
        candidates += [Candidate(r, "subtype used in gold", "2" + r) for r in sorted(in_gold)]
        candidates += [Candidate(r, "subtype used in this file", "3" + r) for r in sorted(here)]
    else:
        candidates = [Candidate("0", "the root", "0000")]
        for i, form in enumerate(sentence.form):
            if i != cell.word:
                candidates.append(Candidate(str(i + 1), f"word {i + 1}: {form}", f"{i + 1:04d}"))
    return Completion(cell.line, cell.start, cell.end, candidates)
