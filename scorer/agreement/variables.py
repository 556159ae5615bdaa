"""The variables of a comparison as codes: one row per annotation, one column per item.

`build` turns a `items.Matching` into `Variable`s (see `cells` for what
each variable compares).  ``--unit`` decides what an item is:

- ``cell`` (the default): each word is an item of every variable (UPOS,
  XPOS, LEMMA, FEATS, each feature, HEAD, DEPREL, HEAD+DEPREL, DEPS);
- ``word``: one variable, WORD, a word's cells all at once (UPOS XPOS
  LEMMA FEATS HEAD DEPREL DEPS): a word agrees when every cell does;
- ``sentence``: each unit (sentence) is an item; a variable's value is the
  whole sentence's column, and SENTENCE is every column at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .cells import (
    ABSENT, ATTRIBUTE, BASE, BLANK, BLANK_IS_MISSING, FEATURE_PREFIX, FEATURES_OF, LABELLED, NO_FEATURE,
    SENTENCE, WORD, cell_value, combine, gather,
)
from .items import Matching

UNITS = ("cell", "word", "sentence")


@dataclass
class Variable:
    name: str
    codes: np.ndarray            # annotations x items: a category (>= 0), BLANK or ABSENT
    names: list[str]             # category k's value (for confusions and places)
    unit_of: np.ndarray          # each item's unit (sentence)
    column: str | None = None    # the CoNLL-U column its places are in (None: it has none)

    def value(self, code: int) -> str | None:
        if code == BLANK:
            return "_"
        if code == ABSENT:
            return None
        return self.names[code]


def _coded(matching: Matching, name: str) -> tuple[list[np.ndarray], list[str]]:
    """Each annotation's codes of a base column, per word, in one numbering
    (the category names); HEAD and DEPS with the heads of words aligned
    word by word as item numbers; FEATS and DEPS canonical (`cells`)."""
    index: dict[str, int] = {}
    names: list[str] = []
    out = []
    for k, annotation in enumerate(matching.annotations):
        codes, local = annotation.coded(ATTRIBUTE[name])
        overrides = matching.heads[k] if name == "HEAD" else matching.deps[k] if name == "DEPS" else {}
        if overrides:  # their values get codes of their own, after the file's
            extra = list(dict.fromkeys(overrides.values()))
            position = {value: len(local) + j for j, value in enumerate(extra)}
            local = local + extra
            codes = codes.copy()
            words = np.fromiter(overrides.keys(), dtype=np.int64, count=len(overrides))
            codes[words] = np.fromiter(map(position.__getitem__, overrides.values()), dtype=np.int64,
                                       count=len(overrides))
        if name in ("FEATS", "DEPS"):
            local = [cell_value(name, value) for value in local]
        mapping = np.empty(len(local), dtype=np.int64)
        for j, value in enumerate(local):
            code = index.get(value)
            if code is None:
                code = index[value] = len(names)
                names.append(value)
            mapping[j] = code
        out.append(mapping[codes] if len(local) else codes)
    return out, names


def base_variables(matching: Matching) -> dict[str, Variable]:
    out = {}
    for name in BASE:
        per_word, names = _coded(matching, name)
        codes = np.stack([gather(c, words) for c, words in zip(per_word, matching.words)])
        if name in BLANK_IS_MISSING and "_" in names:
            blank = names.index("_")
            codes[codes == blank] = BLANK
        out[name] = Variable(name, codes, names, matching.unit_of, name)
    return out


def feature_variables(feats: Variable) -> list[Variable]:
    """A variable per feature (those with no place in a FEATS value seen are left out)."""
    maps = [FEATURES_OF[name] for name in feats.names]
    carried: dict[str, int] = {}
    present = feats.codes[feats.codes >= 0]
    per_category = np.bincount(present, minlength=len(maps)) if len(present) else np.zeros(len(maps), np.int64)
    for k, features in enumerate(maps):
        for feature in features:
            carried[feature] = carried.get(feature, 0) + int(per_category[k])
    out = []
    for feature in sorted(carried, key=lambda f: (-carried[f], f)):
        names = [NO_FEATURE]
        index = {NO_FEATURE: 0}
        table = np.empty(len(maps), dtype=np.int64)
        for k, features in enumerate(maps):
            value = features.get(feature, NO_FEATURE)
            if value not in index:
                index[value] = len(names)
                names.append(value)
            table[k] = index[value]
        codes = np.where(feats.codes >= 0, table[np.maximum(feats.codes, 0)] if len(maps) else 0, feats.codes)
        out.append(Variable(FEATURE_PREFIX + feature, codes, names, feats.unit_of))
    return out


def labelled(head: Variable, deprel: Variable) -> Variable:
    rows = []
    combos: dict[tuple[int, int], int] = {}
    for a, b in zip(head.codes, deprel.codes):
        out, pairs = combine([a, b])
        rows.append((out, pairs))
    # One numbering for every annotation's combinations.
    names: list[str] = []
    codes = []
    for (out, pairs), a, b in zip(rows, head.codes, deprel.codes):
        mapping = np.empty(len(pairs), dtype=np.int64)
        for k, (h, d) in enumerate(pairs):
            key = (h, d)
            if key not in combos:
                combos[key] = len(names)
                names.append(f"{head.value(h)}:{deprel.value(d)}")
            mapping[k] = combos[key]
        row = np.where(out >= 0, mapping[np.maximum(out, 0)] if len(pairs) else 0, out)
        row[(a == BLANK) | (b == BLANK)] = BLANK  # either cell _: not annotated
        row[(a == ABSENT) | (b == ABSENT)] = ABSENT
        codes.append(row)
    return Variable(LABELLED, np.stack(codes), names, head.unit_of)


def whole(name: str, parts: Sequence[Variable], unit_of: np.ndarray) -> Variable:
    """Several variables at once (BLANK a value like any other)."""
    m = len(parts[0].codes)
    joined = [combine([p.codes[k] for p in parts]) for k in range(m)]
    names: list[str] = []
    index: dict[tuple, int] = {}
    codes = []
    for out, combinations in joined:
        mapping = np.empty(len(combinations), dtype=np.int64)
        for j, combination in enumerate(combinations):
            if combination not in index:
                index[combination] = len(names)
                names.append(" ".join(str(p.value(c)) for p, c in zip(parts, combination)))
            mapping[j] = index[combination]
        codes.append(np.where(out >= 0, mapping[np.maximum(out, 0)] if len(combinations) else 0, out))
    return Variable(name, np.stack(codes), names, unit_of)


def per_sentence(variable: Variable, units: int, name: str | None = None) -> Variable:
    """A variable whose item is a unit: its value is the unit's codes in order."""
    starts = np.searchsorted(variable.unit_of, np.arange(units + 1))
    names: list[str] = []
    index: dict[bytes, int] = {}
    codes = np.full((len(variable.codes), units), ABSENT, dtype=np.int64)
    for k, row in enumerate(variable.codes):
        for u in range(units):
            part = row[starts[u]:starts[u + 1]]
            if not len(part) or (part == ABSENT).all():
                continue
            key = part.tobytes()
            if key not in index:
                index[key] = len(names)
                names.append(" ".join(str(variable.value(int(c))) for c in part[:12])
                             + (" …" if len(part) > 12 else ""))
            codes[k, u] = index[key]
    return Variable(name or variable.name, codes, names, np.arange(units, dtype=np.int64))


def build(matching: Matching, unit: str = "cell") -> list[Variable]:
    base = base_variables(matching)
    head_deprel = labelled(base["HEAD"], base["DEPREL"])
    if unit == "cell":
        return [base["UPOS"], base["XPOS"], base["LEMMA"], base["FEATS"], *feature_variables(base["FEATS"]),
                base["HEAD"], base["DEPREL"], head_deprel, base["DEPS"]]
    if unit == "word":
        return [whole(WORD, [base[name] for name in BASE], matching.unit_of)]
    if unit == "sentence":
        units = len(matching.units)
        every = whole(SENTENCE, [base[name] for name in BASE], matching.unit_of)
        return [per_sentence(v, units) for v in (*[base[n] for n in BASE[:6]], head_deprel, base["DEPS"])] + \
            [per_sentence(every, units, SENTENCE)]
    raise ValueError(f"unknown unit {unit!r} (use {', '.join(UNITS)})")
