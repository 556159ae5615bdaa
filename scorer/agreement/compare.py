"""Two or more annotations compared: the whole computation, as plain data.

`compare` reads nothing: it takes `annotation.Annotation`s (read by
`annotation.read_annotation`) and returns an `Agreement`:

1. the sentences matched and the words aligned (`items.match`);
2. the variables as codes (`variables.build`) and their sums (`tally`);
3. every coefficient, and its bootstrap interval (`bootstrap`);
4. what an adjudicator needs: the places where the annotations differ
   (`places`), the most frequent confusions with examples, agreement per
   category (``by``), attachment agreement as the CoNLL 2018 metrics
   compute it (`attachment`).

`report` turns it into tables and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..conllu.relations import BASE_DEPREL, CONTENT_DEPRELS
from .annotation import Annotation
from .bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED, Interval, intervals_of, resampled
from .cells import ABSENT, COLUMN_NUMBER, FEATURES_OF
from .items import ALIGNED, Matching, Unit, match
from .tally import Tally, tally
from .variables import Variable, build

BY = ("upos", "deprel", "feats", "length")
LENGTH_BINS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, None))
EXAMPLES = 3       # kept per confusion
CONTEXT = 3        # words on each side of an example's word
CONFUSED = ("UPOS", "DEPREL")  # the variables whose confusions are listed


@dataclass
class Row:
    """One variable's figures."""

    name: str
    items: int                    # items with at least one value
    pairable: int                 # items with two values or more
    complete: int                 # items with every annotation's value
    categories: int               # categories given
    coefficients: dict[str, float | None]
    intervals: dict[str, Interval] = field(default_factory=dict)


@dataclass
class Place:
    """One cell the annotations do not agree on."""

    unit: int
    column: str
    values: list[str | None]      # each annotation's value (None: it has no such word)
    words: list[int]              # each annotation's word index (-1: none)


@dataclass
class Agreement:
    annotations: list[Annotation]
    matching: Matching
    unit: str
    rows: list[Row]
    samples: int
    seed: int
    cells: dict[str, Variable]          # the variables of the cells (UPOS ... DEPS), for places
    differing: dict[str, np.ndarray]    # per column, the items where the annotations differ
    confusions: dict[str, list[dict]]
    by: dict[str, dict[str, dict]]
    attachment: list[dict]        # per pair of annotations


def compare(annotations: Sequence[Annotation], unit: str = "cell", samples: int = DEFAULT_SAMPLES,
            seed: int = DEFAULT_SEED, by: Sequence[str] = ("upos", "deprel"), confusions: int = 10,
            resample: Callable | None = None) -> Agreement:
    """``resample(tallies, units, samples, seed)``: the resampled values
    (`bootstrap.resampled`, the default; the command line shares them out
    to processes)."""
    matching = match(annotations)
    variables = build(matching, unit)
    n_units = len(matching.units)
    # The bootstrap draws units by number: number them in an order that does
    # not depend on the order of the annotations (by what matched them), so
    # that agree(A, B) and agree(B, A) draw the same resamples.
    order = sorted(range(n_units), key=lambda u: _sort_key(matching.units[u].key))
    rank = np.empty(n_units, dtype=np.int64)
    rank[order] = np.arange(n_units, dtype=np.int64)
    tallies = [tally(v.codes, rank[v.unit_of], n_units, len(v.names)) for v in variables]
    rows = [_row(v, t) for v, t in zip(variables, tallies)]
    if samples:
        values = (resample or resampled)(tallies, n_units, samples, seed)
        for row, found in zip(rows, intervals_of(values, samples)):
            row.intervals = found
    cell_variables = variables if unit == "cell" else build(matching, "cell")
    named = {v.name: v for v in cell_variables}
    cells = {v.column: v for v in cell_variables if v.column is not None}
    out = Agreement(list(annotations), matching, unit, rows, samples, seed, cells,
                    {column: differences(v) for column, v in cells.items()}, {}, {}, [])
    out.confusions = {name: top_confusions(named[name], matching, confusions) for name in CONFUSED} \
        if confusions else {}
    out.by = {kind: breakdown(kind, named, matching) for kind in by}
    out.attachment = attachment(named, matching)
    return out


def _sort_key(key: tuple) -> tuple:
    kind, name, use = key
    return (kind, name or "", use)


def _row(variable: Variable, t: Tally) -> Row:
    present = (variable.codes >= 0).sum(axis=0)
    given = variable.codes[variable.codes >= 0]
    used = int(np.count_nonzero(np.bincount(given))) if len(given) else 0
    return Row(variable.name, int((present >= 1).sum()), int((present >= 2).sum()),
               int((present == len(variable.codes)).sum()), used, t.coefficients())


# --------------------------------------------------------------------------
# Places
# --------------------------------------------------------------------------


def differences(variable: Variable) -> np.ndarray:
    """The items where the annotations that have the word give different
    values (``_`` counts as a value here: one annotator left it empty)."""
    codes = variable.codes
    known = codes != ABSENT
    differ = np.zeros(codes.shape[1], dtype=bool)
    for k in range(len(codes)):
        for j in range(k + 1, len(codes)):
            differ |= known[k] & known[j] & (codes[k] != codes[j])
    return np.nonzero(differ)[0]


def places(agreement: "Agreement") -> list[Place]:
    """Every cell where the annotations differ, in unit order, then item,
    then column (UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL, DEPS)."""
    found = []
    for column in COLUMN_NUMBER:
        items = agreement.differing.get(column)
        if items is None or not len(items):
            continue
        variable = agreement.cells[column]
        order = list(COLUMN_NUMBER).index(column)
        codes = variable.codes[:, items].T.tolist()
        words = np.stack(agreement.matching.words)[:, items].T.tolist()
        units = variable.unit_of[items].tolist()
        for i, unit, row, at in zip(items.tolist(), units, codes, words):
            found.append((unit, i, order, Place(unit, column, [variable.value(c) for c in row], at)))
    found.sort(key=lambda entry: entry[:3])
    return [entry[3] for entry in found]


# --------------------------------------------------------------------------
# Confusions
# --------------------------------------------------------------------------


def top_confusions(variable: Variable, matching: Matching, limit: int) -> list[dict]:
    """The most frequent pairs of values two annotations gave one word
    (unordered; how often each way round), with the first few examples."""
    codes = variable.codes
    size = max(len(variable.names), 1)
    keys, directions, where = [], [], []
    for k in range(len(codes)):
        for j in range(k + 1, len(codes)):
            a, b = codes[k], codes[j]
            differ = np.nonzero((a >= 0) & (b >= 0) & (a != b))[0]
            x, y = a[differ], b[differ]
            keys.append(np.minimum(x, y) * size + np.maximum(x, y))
            directions.append(((k * len(codes) + j) * size + x) * size + y)
            where.append(np.stack([differ, np.full(len(differ), k), np.full(len(differ), j)], axis=1))
    if not keys:
        return []
    key, direction, at = np.concatenate(keys), np.concatenate(directions), np.concatenate(where)
    uniques, first, counts = np.unique(key, return_index=True, return_counts=True)
    names = variable.names
    ranked = sorted(range(len(uniques)), key=lambda u: (-counts[u], names[uniques[u] // size], names[uniques[u] % size]))
    out = []
    annotation_names = [a.name for a in matching.annotations]
    m = len(codes)
    for u in ranked[:limit]:
        chosen = np.nonzero(key == uniques[u])[0]
        ways_found, way_counts = np.unique(direction[chosen], return_counts=True)
        ways = []
        for d, c in sorted(zip(ways_found.tolist(), way_counts.tolist()), key=lambda dc: -dc[1]):
            pair, rest = divmod(d, size * size)
            x, y = divmod(rest, size)
            k, j = divmod(pair, m)
            ways.append({"annotations": [annotation_names[k], annotation_names[j]], "values": [names[x], names[y]],
                         "count": c})
        x, y = divmod(int(uniques[u]), size)
        out.append({"values": [names[x], names[y]], "count": int(counts[u]), "ways": ways,
                    "examples": [example(matching, int(i), [int(k), int(j)], variable)
                                 for i, k, j in at[chosen[:EXAMPLES]]]})
    return out


def example(matching: Matching, item: int, annotations: list[int], variable: Variable) -> dict:
    """Where an item is, and the word in context with the values marked."""
    unit = matching.units[int(matching.unit_of[item])]
    k = annotations[0]
    annotation = matching.annotations[k]
    word = int(matching.words[k][item])
    record = unit.records[k]
    marks = "|".join(str(variable.value(int(variable.codes[j, item]))) for j in annotations)
    out = {"sent_id": record.sent_id if record is not None else None}
    if record is not None and word >= 0:
        w = word - record.start
        forms = annotation.form[record.start:record.start + record.words]
        out["line"] = record.line_of(w) + 1
        out["word"] = annotation.word_id(word, record)
        out["context"] = in_context(forms, w, marks)
    return out


def in_context(forms: Sequence[str], i: int, mark: str) -> str:
    from ..excerpt import excerpt

    left = max(0, i - CONTEXT)
    words = [excerpt(w, 20) for w in forms[left:i + CONTEXT + 1]]
    words[i - left] = f"{words[i - left]}[{mark}]"
    return ("… " if left else "") + " ".join(words) + (" …" if i + CONTEXT + 1 < len(forms) else "")


# --------------------------------------------------------------------------
# By category
# --------------------------------------------------------------------------


def breakdown(kind: str, named: dict[str, Variable], matching: Matching) -> dict[str, dict]:
    """Agreement per category.

    ``upos``, ``deprel``, ``feats`` (Feature=Value): a word belongs to the
    category of each annotation's value, so a category's words are not the
    same for all annotations.  Per category: how many words each annotation
    gives it, *specific agreement* (the share of those that the other
    annotation gives it too: 2 x both / (A + B), summed over pairs of
    annotations), and, over the words every annotation gives the category,
    the observed agreement of HEAD, DEPREL and HEAD+DEPREL.
    ``length``: items by their sentence's number of items; per bin the
    observed agreement and Cohen's kappa (two annotations) or
    Krippendorff's alpha of UPOS, HEAD, DEPREL and HEAD+DEPREL.
    """
    if kind == "length":
        return _by_length(named, matching)
    if kind == "feats":
        key, names = _feature_values(named["FEATS"])
        totals = _by_membership(key, names, named, matching)
    else:
        variable = named["UPOS" if kind == "upos" else "DEPREL"]
        totals = _by_code(variable.codes, variable.names, named, matching)
    return dict(sorted(totals.items(), key=lambda kv: (-sum(kv[1]["words"].values()), kv[0])))


def _by_code(key: np.ndarray, names: list[str], named: dict[str, Variable], matching: Matching) -> dict[str, dict]:
    """`_by_membership` for a key of codes (a word is in the category of
    its code), counted for every category at once: a pass over the items per
    category cost 0.3 s of CPU on two 200k-word annotations.  The same
    entries (the observed agreements are sums of integers, exact in any order)."""
    m, categories = len(key), len(names)
    given = np.stack([np.bincount(row[row >= 0], minlength=categories) for row in key]) if categories else \
        np.zeros((m, 0), dtype=np.int64)
    both = np.zeros(categories, dtype=np.int64)
    pairs_total = np.zeros(categories, dtype=np.int64)
    for k in range(m):
        for j in range(k + 1, m):
            same = (key[k] == key[j]) & (key[k] >= 0)
            both += np.bincount(key[k][same], minlength=categories)
            pairs_total += given[k] + given[j]
    every = (key[0] >= 0) & (key == key[0]).all(axis=0)
    items = np.flatnonzero(every)
    category = key[0][items]
    items = items[np.argsort(category, kind="stable")]       # by category, each in item order
    bounds = np.searchsorted(np.sort(category), np.arange(categories + 1))
    totals = {}
    for c, name in enumerate(names):
        if not given[:, c].any():
            continue
        chosen = items[bounds[c]:bounds[c + 1]]
        pairs_c = int(pairs_total[c])
        entry = {"words": {a.name: int(g) for a, g in zip(matching.annotations, given[:, c])},
                 "specific_agreement": 2 * int(both[c]) / pairs_c if pairs_c else None,
                 "in_all": len(chosen)}
        for column in ("HEAD", "DEPREL", "HEAD+DEPREL"):
            entry[column] = _observed(named[column].codes[:, chosen])
        totals[name] = entry
    return totals


def _by_membership(key, names: list[str], named: dict[str, Variable], matching: Matching) -> dict[str, dict]:
    """Per category c (``key == c``: annotations x items, whether the item
    is in c for that annotation) the entry `breakdown` describes."""
    m = len(key)
    totals = {}
    for c, name in enumerate(names):
        member = key == c
        given = member.sum(axis=1)
        if not given.any():
            continue
        both = 0
        pairs_total = 0
        for k in range(m):
            for j in range(k + 1, m):
                both += int((member[k] & member[j]).sum())
                pairs_total += int(given[k] + given[j])
        every = member.all(axis=0)
        entry = {"words": {a.name: int(g) for a, g in zip(matching.annotations, given)},
                 "specific_agreement": 2 * both / pairs_total if pairs_total else None,
                 "in_all": int(every.sum())}
        for column in ("HEAD", "DEPREL", "HEAD+DEPREL"):
            entry[column] = _observed(named[column].codes[:, every])
        totals[name] = entry
    return totals


def _feature_values(feats: Variable) -> tuple[np.ndarray, list[str]]:
    """Per annotation and item, each Feature=Value as a category; an item
    belongs to every Feature=Value of its FEATS (as a stack of memberships)."""
    names: list[str] = []
    index: dict[str, int] = {}
    per_category: list[list[int]] = []
    for value in feats.names:
        features = FEATURES_OF[value]
        ids = []
        for name, v in features.items():
            pair = f"{name}={v}"
            if pair not in index:
                index[pair] = len(names)
                names.append(pair)
            ids.append(index[pair])
        per_category.append(ids)
    return _Membership(feats.codes, per_category, len(names)), names  # type: ignore[return-value]


class _Membership:
    """``key == c`` for Feature=Value c, for `breakdown`: a boolean
    annotations x items array of the items whose FEATS has it."""

    def __init__(self, codes: np.ndarray, per_category: list[list[int]], n: int) -> None:
        self.codes = codes
        self.table = np.zeros((len(per_category) + 1, n), dtype=bool)
        for k, ids in enumerate(per_category):
            self.table[k, ids] = True

    def __len__(self) -> int:
        return len(self.codes)

    def __eq__(self, c):  # type: ignore[override]
        rows = np.where(self.codes >= 0, self.codes, len(self.table) - 1)
        return self.table[rows, c]


def _observed(codes: np.ndarray) -> float | None:
    """The observed agreement (1 - D_o) of the items given."""
    m = len(codes)
    present = codes >= 0
    given = present.sum(axis=0)
    pairs = np.zeros(codes.shape[1])
    for k in range(m):
        for j in range(k + 1, m):
            pairs += present[k] & present[j] & (codes[k] == codes[j])
    pairable = given >= 2
    values = given[pairable].sum()
    return float((2 * pairs[pairable] / (given[pairable] - 1)).sum() / values) if values else None


def _by_length(named: dict[str, Variable], matching: Matching) -> dict[str, dict]:
    sizes = np.array([u.items for u in matching.units], dtype=np.int64)
    size_of_item = sizes[matching.unit_of] if len(sizes) else sizes
    out = {}
    for low, high in LENGTH_BINS:
        label = f"{low}-{high}" if high is not None else f"{low}+"
        chosen = (size_of_item >= low) & (size_of_item <= (high if high is not None else 1 << 62))
        if not chosen.any():
            continue
        entry: dict = {"sentences": int(((sizes >= low) & (sizes <= (high or 1 << 62))).sum()),
                       "items": int(chosen.sum())}
        for column in ("UPOS", "HEAD", "DEPREL", "HEAD+DEPREL"):
            codes = named[column].codes[:, chosen]
            t = tally(codes, np.zeros(codes.shape[1], dtype=np.int64), 1, len(named[column].names))
            c = t.coefficients()
            entry[column] = {"observed": c["observed"],
                             "kappa" if len(codes) == 2 else "alpha":
                                 c["cohen_kappa"] if len(codes) == 2 else c["krippendorff_alpha"]}
        out[label] = entry
    return out


# --------------------------------------------------------------------------
# Attachment as the CoNLL 2018 metrics compute it
# --------------------------------------------------------------------------


def attachment(named: dict[str, Variable], matching: Matching) -> list[dict]:
    """For each pair of annotations: Words, UAS, LAS and CLAS F1 of one
    scored against the other, as `evaluate` computes them (LAS without
    relation subtypes; CLAS over content words).  F1 is symmetric (precision
    and recall swap), so no annotation is gold."""
    head, deprel = named["HEAD"], named["DEPREL"]
    base = [BASE_DEPREL[name] for name in deprel.names]
    universal = {}
    base_code = np.array([universal.setdefault(b, len(universal)) for b in base] or [0], dtype=np.int64)
    content = np.array([b in CONTENT_DEPRELS for b in base] or [False])
    out = []
    annotations = matching.annotations
    for k in range(len(annotations)):
        for j in range(k + 1, len(annotations)):
            a, b = matching.words[k] >= 0, matching.words[j] >= 0
            aligned = a & b
            ha, hb = head.codes[k], head.codes[j]
            uas = aligned & (ha >= 0) & (ha == hb)
            da, db = deprel.codes[k], deprel.codes[j]
            same_base = (da >= 0) & (db >= 0) & (base_code[np.maximum(da, 0)] == base_code[np.maximum(db, 0)])
            las = uas & same_base
            clas = las & (da >= 0) & content[np.maximum(da, 0)]
            totals = [annotations[k].words, annotations[j].words]
            content_totals = [_content_words(annotations[x]) for x in (k, j)]
            pair = {"annotations": [annotations[k].name, annotations[j].name]}
            for name, correct, (ta, tb) in (("Words", int(aligned.sum()), totals),
                                             ("UAS", int(uas.sum()), totals),
                                             ("LAS", int(las.sum()), totals),
                                             ("CLAS", int(clas.sum()), content_totals)):
                pair[name] = {"agree": correct, "words": [ta, tb],
                              "f1": 2 * correct / (ta + tb) if ta + tb else 0.0}
            out.append(pair)
    return out


def _content_words(annotation: Annotation) -> int:
    """Words of an annotation with a content relation (all its words, not
    only those of matched sentences, as `evaluate` counts them)."""
    codes, names = annotation.coded("deprel")
    local = np.array([BASE_DEPREL[n] in CONTENT_DEPRELS for n in names] or [False])
    return int(local[codes].sum()) if len(codes) else 0


def tokenization(matching: Matching) -> dict:
    """Sentences tokenized otherwise, and their words not aligned."""
    units = [u for u in matching.units if u.tokens == ALIGNED]
    names = [a.name for a in matching.annotations]
    return {"sentences": len(units),
            "words_not_aligned": {name: sum(u.unaligned[k] for u in units) for k, name in enumerate(names)}}


def unit_name(unit: Unit) -> str | None:
    return unit.key[1] if unit.key[0] == "id" else None


