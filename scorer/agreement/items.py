"""Which words of the annotations are the same word: sentences matched, words aligned.

Sentences
---------
Sentences are matched by ``sent_id``; a sentence without one by its text
(its characters: token forms without spaces, end to end).  A sent_id (or
text) used twice in a file matches the other file's second use, and so on.
A matched set of sentences is a *unit*: what the bootstrap resamples.  A
sentence that some annotation lacks is missing there; a sentence whose
characters differ from the others' (the same sent_id, another text) cannot
have its words aligned, so that annotation's sentence is left out of the
unit and reported (when two annotations differ, the first one's text is
kept; with three or more, the text most of them have).

Words
-----
An *item* is a word every annotation of the unit has, as far as they
tokenize alike.  When the sentences have the same tokens (the same FORMs
and multiword tokens: nearly always, for two annotations of one text) word
i is word i.  Otherwise the words are aligned as `evaluate` aligns a
prediction with gold (`scorer.conllu.align`: equal character spans, and
the longest common subsequence of forms inside multiword tokens), for each
pair of annotations *both ways*, keeping the pairs that both directions
make (the official walk breaks ties in gold's favour, so this keeps
agreement symmetric); aligned words are joined into items (a word that two
alignments would put in two items stays an item of its own).  A word with
no partner is an item of one annotation only: a tokenization difference,
reported as such, and missing for the others.

Items of a unit are numbered in text order from 1; that number is what
HEAD compares (`cells.head_in_items`), so a HEAD agrees exactly when both
annotations attach the word to the same word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..conllu.align import align_words
from ..conllu.score import word_spans
from ..conllu.sentence import Sentence
from .annotation import Annotation, SentenceRecord
from .cells import deps_in_items, head_in_items


@dataclass
class UnitItems:
    """One unit's items: for each, every annotation's word in its sentence
    (0-based; -1 when it has none), in text order; and for each annotation,
    the item number (1-based) of each of its words."""

    words: list[tuple[int, ...]]
    item_of: list[list[int] | None]
    same_tokens: bool


def same_tokens(sentences: Sequence[Sentence]) -> bool:
    first = sentences[0]
    marks = [(m.first, m.end, m.form) for m in first.mwts]
    return all(s.form == first.form and [(m.first, m.end, m.form) for m in s.mwts] == marks
               for s in sentences[1:])


def align_unit(sentences: Sequence[Sentence | None]) -> UnitItems:
    """The items of a unit's sentences (None: an annotation without it).
    The sentences given must have the same characters."""
    present = [k for k, s in enumerate(sentences) if s is not None]
    m = len(sentences)
    if not present:
        return UnitItems([], [None] * m, True)
    if same_tokens([sentences[k] for k in present]):  # type: ignore[misc]
        n = len(sentences[present[0]].form)  # type: ignore[union-attr]
        words = [tuple(i if s is not None else -1 for s in sentences) for i in range(n)]
        numbers = list(range(1, n + 1))
        return UnitItems(words, [numbers if s is not None else None for s in sentences], True)
    spans = {k: word_spans(sentences[k]) for k in present}  # type: ignore[arg-type]
    pairs: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for a_pos, a in enumerate(present):
        for b in present[a_pos + 1:]:
            one = align_words(spans[a], spans[b])
            other = align_words(spans[b], spans[a])
            pairs[a, b] = set(zip(one.gold, one.system)) & set(zip(other.system, other.gold))
    if len(present) == 2:
        (a, b), both = next(iter(pairs.items()))
        members = [[(a, wa), (b, wb)] for wa, wb in both]
        members += [[(a, w)] for w in sorted(set(range(len(spans[a].start))) - {wa for wa, _ in both})]
        members += [[(b, w)] for w in sorted(set(range(len(spans[b].start))) - {wb for _, wb in both})]
    else:
        members = _joined(present, spans, pairs)

    def order(group):
        return min((spans[k].start[w], spans[k].end[w], w - _token_first(sentences[k], w), spans[k].form[w])
                   for k, w in group)

    members.sort(key=order)
    words: list[tuple[int, ...]] = []
    item_of: list[list[int] | None] = [[0] * len(sentences[k].form) if sentences[k] is not None else None
                                       for k in range(m)]  # type: ignore[union-attr]
    for number, group in enumerate(members, 1):
        row = [-1] * m
        for k, w in group:
            row[k] = w
            item_of[k][w] = number  # type: ignore[index]
        words.append(tuple(row))
    return UnitItems(words, item_of, False)


def _joined(present: list[int], spans: dict, pairs: dict) -> list[list[tuple[int, int]]]:
    """Aligned words of three or more annotations joined into items
    (union-find over (annotation, word)); a group with two words of one
    annotation is split into words of their own."""
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k in present:
        for w in range(len(spans[k].start)):
            find((k, w))
    for (a, b), both in pairs.items():
        for wa, wb in both:
            parent[find((a, wa))] = find((b, wb))
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for node in list(parent):
        groups.setdefault(find(node), []).append(node)
    members: list[list[tuple[int, int]]] = []
    for group in groups.values():
        annotations = [k for k, _ in group]
        if len(set(annotations)) == len(annotations):
            members.append(group)
        else:
            members += [[node] for node in group]
    return members


def _token_first(sentence: Sentence | None, w: int) -> int:
    """The first word of the multiword token holding word w (w itself when none)."""
    for mwt in sentence.mwts if sentence is not None else ():
        if mwt.first <= w < mwt.end:
            return mwt.first
    return w


# --------------------------------------------------------------------------
# Whole annotations
# --------------------------------------------------------------------------

SAME = "same"            # the same tokens: word i is word i
ALIGNED = "aligned"      # tokenized otherwise: words aligned


@dataclass
class Unit:
    key: tuple                              # what matched the sentences (sent_id or text, and which use)
    records: list[SentenceRecord | None]    # per annotation (None: not in it, or its text differs)
    first_item: int = 0
    items: int = 0
    tokens: str = SAME
    # Annotations whose sentence was left out because its text differs.
    text_differs: dict[int, SentenceRecord] = field(default_factory=dict)
    # Per annotation, the words not aligned with another annotation's (tokenization differences).
    unaligned: list[int] = field(default_factory=list)

    @property
    def present(self) -> int:
        return sum(r is not None for r in self.records)


@dataclass
class Matching:
    """The annotations' units and items: ``words[k][i]`` is annotation k's
    word (index into its columns) for item i, -1 when it has none;
    ``unit_of[i]`` the unit of item i; HEAD and DEPS values of words in
    units aligned word by word (their heads as item numbers) in
    ``heads``/``deps`` (by word index)."""

    annotations: list[Annotation]
    units: list[Unit]
    words: list[np.ndarray]
    unit_of: np.ndarray
    heads: list[dict[int, str]]
    deps: list[dict[int, str]]

    @property
    def items(self) -> int:
        return len(self.unit_of)


def match(annotations: Sequence[Annotation]) -> Matching:
    m = len(annotations)
    units: list[Unit] = []
    by_key: dict[tuple, Unit] = {}
    for k, annotation in enumerate(annotations):
        uses: dict[tuple, int] = {}
        for record in annotation.sentences:
            base = ("id", record.sent_id) if record.sent_id is not None else ("text", annotation.chars(record))
            use = uses.get(base, 0)
            uses[base] = use + 1
            key = base + (use,)
            unit = by_key.get(key)
            if unit is None:
                unit = by_key[key] = Unit(key, [None] * m)
                units.append(unit)
            unit.records[k] = record
    sizes = np.zeros(len(units), dtype=np.int64)
    starts = np.full((m, len(units)), -1, dtype=np.int64)   # each annotation's first word of each unit
    aligned_rows: list[tuple[int, list[list[int]]]] = []     # (unit, per annotation its words of the items)
    heads: list[dict[int, str]] = [{} for _ in range(m)]
    deps: list[dict[int, str]] = [{} for _ in range(m)]
    for u, unit in enumerate(units):
        records = unit.records
        present = [k for k in range(m) if records[k] is not None]
        same = len(present) <= 1 or _same_tokens(annotations, records, present)
        if not same:
            _keep_one_text(annotations, unit, present)
            present = [k for k in range(m) if records[k] is not None]
            same = len(present) <= 1 or _same_tokens(annotations, records, present)
        if same and not unit.text_differs:
            sizes[u] = records[present[0]].words if present else 0  # type: ignore[union-attr]
            for k in present:
                starts[k, u] = records[k].start  # type: ignore[union-attr]
            continue
        columns: list[list[int]] = [[] for _ in range(m)]
        if same:
            n = records[present[0]].words if present else 0  # type: ignore[union-attr]
            for k in range(m):
                record = records[k]
                columns[k] += range(record.start, record.start + n) if record is not None else [-1] * n
        else:
            unit.tokens = ALIGNED
            sentences = [annotations[k].sentence(r) if r is not None else None for k, r in enumerate(records)]
            aligned = align_unit(sentences)
            unit.unaligned = [0] * m
            for row in aligned.words:
                alone = sum(w >= 0 for w in row) < len(present)
                for k, w in enumerate(row):
                    if alone and w >= 0:
                        unit.unaligned[k] += 1
                    columns[k].append(records[k].start + w if w >= 0 else -1)  # type: ignore[union-attr]
            for k in present:
                record, sentence, item_of = records[k], sentences[k], aligned.item_of[k]
                for w in range(record.words):  # type: ignore[union-attr]
                    heads[k][record.start + w] = head_in_items(sentence.head[w], item_of)  # type: ignore
                    deps[k][record.start + w] = deps_in_items(sentence.deps[w], item_of)  # type: ignore
        # A sentence whose text is not the unit's: its words are items of its own.
        for k, record in sorted(unit.text_differs.items()):
            for j in range(m):
                columns[j] += range(record.start, record.start + record.words) if j == k else [-1] * record.words
        sizes[u] = len(columns[0])
        aligned_rows.append((u, columns))
    # Items of units alike: annotation k's word for item i of unit u is its
    # first word of the unit plus i's place in the unit.
    first = np.concatenate([[0], np.cumsum(sizes)])
    unit_of = np.repeat(np.arange(len(units), dtype=np.int64), sizes)
    place = np.arange(int(first[-1]), dtype=np.int64) - first[:-1][unit_of]
    words = []
    for k in range(m):
        start = starts[k][unit_of]
        words.append(np.where(start >= 0, start + place, -1))
    for u, columns in aligned_rows:
        for k in range(m):
            words[k][first[u]:first[u + 1]] = columns[k]
    for u, unit in enumerate(units):
        unit.first_item, unit.items = int(first[u]), int(sizes[u])
    return Matching(list(annotations), units, words, unit_of, heads, deps)


def _same_tokens(annotations: Sequence[Annotation], records: Sequence[SentenceRecord | None],
                 present: list[int]) -> bool:
    first = records[present[0]]
    a = annotations[present[0]]
    forms = a.form[first.start:first.start + first.words]  # type: ignore[union-attr]
    marks = _mwts(first)  # type: ignore[arg-type]
    for k in present[1:]:
        record = records[k]
        other = annotations[k]
        if record.words != first.words or \
                other.form[record.start:record.start + record.words] != forms or _mwts(record) != marks:
            return False
    return True


def _mwts(record: SentenceRecord) -> tuple:
    if record.parsed is not None:
        return tuple((m.first, m.end, m.form) for m in record.parsed.mwts)
    return record.mwts


def _keep_one_text(annotations: Sequence[Annotation], unit: Unit, present: list[int]) -> None:
    """Leave out of the alignment the sentences whose characters are not the
    unit's text: the one most annotations have (of those, the first in
    code-point order, so that the choice does not depend on the order of
    the annotations)."""
    chars = {k: annotations[k].chars(unit.records[k]) for k in present}  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    for k in present:
        counts[chars[k]] = counts.get(chars[k], 0) + 1
    kept = min(counts, key=lambda text: (-counts[text], text))
    for k in present:
        if chars[k] != kept:
            unit.text_differs[k] = unit.records[k]  # type: ignore[assignment]
            unit.records[k] = None
