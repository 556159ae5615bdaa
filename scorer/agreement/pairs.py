"""Two annotations of one sentence: what they agree on, as counts that add up.

What the editor keeps per sentence (`server.engine.agreement`): for each
main variable (UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL, HEAD+DEPREL, DEPS)
how often each pair of values (this annotation's, the other's) occurs
among the items both annotated, the attachment counts, and the cells that
differ.  A document's totals are the sums over its sentences, so an edit
changes only its sentence's counts; the coefficients come from the totals
(`coefficients_of_pairs`), the same numbers `annoscore agree` prints for
the two files (the tests hold them to it).

Values are those of `cells` (FEATS and DEPS canonical, HEAD and DEPS heads
as item numbers, ``_`` missing where it is), items those of
`items.align_unit`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..conllu.relations import BASE_DEPREL, CONTENT_DEPRELS
from ..conllu.sentence import Sentence
from .cells import BLANK_IS_MISSING, LABELLED, cell_value, deps_in_items, head_in_items
from .coefficients import COEFFICIENTS, Sums, defined
from .items import align_unit

MAIN = ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL", LABELLED, "DEPS")
_ATTRIBUTE = {"UPOS": "upos", "XPOS": "xpos", "LEMMA": "lemma", "FEATS": "feats", "HEAD": "head",
              "DEPREL": "deprel", "DEPS": "deps"}
# The cells a difference is shown on (HEAD+DEPREL is HEAD's and DEPREL's).
SHOWN = ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL", "DEPS")


@dataclass(frozen=True, slots=True)
class Difference:
    """A cell the two annotations fill otherwise (``_`` counts as a value)."""

    word: int            # the word in this sentence (0-based)
    other_word: int      # ... and in the other's
    column: str
    value: str           # this annotation's (as written)
    other: str           # the other's (as written; HEAD as the other sentence numbers its words)
    other_here: str | None = None  # HEAD: the other's head as this sentence numbers its words (None: no such word)


@dataclass
class SentencePair:
    """The counts of one sentence pair (they add up over sentences)."""

    pairs: Counter = field(default_factory=Counter)   # (variable, value here, value there) -> items
    words: tuple[int, int] = (0, 0)                     # words here, there
    content: tuple[int, int] = (0, 0)                   # words with a content relation here, there
    aligned: int = 0
    uas: int = 0
    las: int = 0
    clas: int = 0
    differences: tuple[Difference, ...] = ()


def _values(sentence: Sentence, variable: str, item_of: list[int], same: bool) -> list[str]:
    cells = getattr(sentence, _ATTRIBUTE[variable])
    if not same and variable == "HEAD":
        return [head_in_items(h, item_of) for h in cells]
    if not same and variable == "DEPS":
        return [deps_in_items(d, item_of) for d in cells]
    return [cell_value(variable, c) for c in cells]


def compare_sentences(here: Sentence, there: Sentence) -> SentencePair:
    """The counts of two annotations of one sentence (their characters
    equal; otherwise nothing is aligned: only the words are counted)."""
    out = SentencePair(words=(len(here.form), len(there.form)),
                       content=(sum(BASE_DEPREL[d] in CONTENT_DEPRELS for d in here.deprel),
                                sum(BASE_DEPREL[d] in CONTENT_DEPRELS for d in there.deprel)))
    if here.chars != there.chars:
        return out
    unit = align_unit([here, there])
    item_of_here, item_of_there = unit.item_of[0] or [], unit.item_of[1] or []
    both = [(a, b) for a, b in unit.words if a >= 0 and b >= 0]
    out.aligned = len(both)
    values = {}
    for variable in SHOWN:
        values[variable] = (_values(here, variable, item_of_here, unit.same_tokens),
                            _values(there, variable, item_of_there, unit.same_tokens))
    differences = []
    pairs = out.pairs
    for variable in SHOWN:
        mine, theirs = values[variable]
        missing = variable in BLANK_IS_MISSING
        for a, b in both:
            x, y = mine[a], theirs[b]
            if not (missing and (x == "_" or y == "_")):
                pairs[variable, x, y] += 1
            if x != y:
                other = getattr(there, _ATTRIBUTE[variable])[b]
                here_value = None
                if variable == "HEAD" and there.heads[b] is not None:
                    h = there.heads[b]
                    here_value = "0" if h == 0 else _word_of_item(item_of_here, item_of_there, h)
                differences.append(Difference(a, b, variable, getattr(here, _ATTRIBUTE[variable])[a], other,
                                              here_value))
    heads, deprels = values["HEAD"], values["DEPREL"]
    for a, b in both:
        h, g = heads[0][a], heads[1][b]
        d, e = deprels[0][a], deprels[1][b]
        if h != "_" and g != "_" and d != "_" and e != "_":
            pairs[LABELLED, f"{h}:{d}", f"{g}:{e}"] += 1
        if h == g and h != "_":
            out.uas += 1
            if BASE_DEPREL[d] == BASE_DEPREL[e]:
                out.las += 1
                if BASE_DEPREL[d] in CONTENT_DEPRELS:
                    out.clas += 1
    differences.sort(key=lambda d: (d.word, SHOWN.index(d.column)))
    out.differences = tuple(differences)
    return out


def _word_of_item(item_of_here: list[int], item_of_there: list[int], head: int) -> str | None:
    """The other's head word ``head`` (1-based) as this sentence numbers its
    words, when this sentence has that word (None otherwise)."""
    if not 0 < head <= len(item_of_there):
        return None
    item = item_of_there[head - 1]
    for w, other in enumerate(item_of_here):
        if other == item:
            return str(w + 1)
    return None


@dataclass
class Totals:
    """Sentence pairs summed: `add` and `remove` keep it up to date."""

    pairs: Counter = field(default_factory=Counter)
    counts: Counter = field(default_factory=Counter)   # words_here, words_there, content_here, ..., uas, las, clas

    def add(self, pair: SentencePair, sign: int = 1) -> None:
        for key, n in pair.pairs.items():
            self.pairs[key] += sign * n
        counts = self.counts
        counts["words_here"] += sign * pair.words[0]
        counts["words_there"] += sign * pair.words[1]
        counts["content_here"] += sign * pair.content[0]
        counts["content_there"] += sign * pair.content[1]
        for name in ("aligned", "uas", "las", "clas"):
            counts[name] += sign * getattr(pair, name)

    def remove(self, pair: SentencePair) -> None:
        self.add(pair, -1)

    def coefficients(self) -> dict[str, dict[str, float | None]]:
        return coefficients_of_pairs(self.pairs)

    def attachment(self) -> dict[str, float]:
        c = self.counts

        def f1(correct: int, a: int, b: int) -> float:
            return 2 * correct / (a + b) if a + b else 0.0

        words = (c["words_here"], c["words_there"])
        return {"Words": f1(c["aligned"], *words), "UAS": f1(c["uas"], *words), "LAS": f1(c["las"], *words),
                "CLAS": f1(c["clas"], c["content_here"], c["content_there"])}


def coefficients_of_pairs(pairs: Counter) -> dict[str, dict[str, float | None]]:
    """Every coefficient of each variable from its (value, value) counts."""
    by_variable: dict[str, list[tuple[str, str, int]]] = {}
    for (variable, x, y), n in pairs.items():
        if n:
            by_variable.setdefault(variable, []).append((x, y, n))
    out = {}
    for variable in MAIN:
        entries = by_variable.get(variable, [])
        index: dict[str, int] = {}
        a, b, n = [], [], []
        for x, y, count in entries:
            a.append(index.setdefault(x, len(index)))
            b.append(index.setdefault(y, len(index)))
            n.append(count)
        counts = np.array(n, dtype=np.int64)
        items = int(counts.sum())
        agree = int(counts[np.array(a) == np.array(b)].sum()) if entries else 0
        first = np.bincount(a, weights=counts, minlength=len(index)) if entries else np.zeros(0)
        second = np.bincount(b, weights=counts, minlength=len(index)) if entries else np.zeros(0)
        pooled = float(((first + second) ** 2).sum())
        sums = Sums(2, 2 * items, 2 * agree, pooled, items, 2 * items + 2 * agree, pooled, float(first @ second))
        out[variable] = {name: defined(f(sums)) for name, f in COEFFICIENTS.items()}
        out[variable]["items"] = items
    return out
