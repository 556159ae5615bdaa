"""Counting a gold and a system sentence with the same tokens: no alignment.

Almost every sentence of a parser's output has exactly gold's tokens and
words, so word i aligns with word i and the counts need no alignment: they
are made with C-level ``map`` over whole columns, for many sentence pairs at
once (`count_same_tokens`, which the bulk lane feeds with the columns it
read; `count_identical_many` for parsed sentences).  The results are what
`score.score_chunk` gives for the same pairs (the tests hold them to it).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import and_, attrgetter, eq, itemgetter, mul, not_, or_
from typing import Sequence

from . import counts as C
from .counts import Counts
from .relations import ALL_FEATS, BASE_DEPREL, CONTENT_OF, DEPS, FUNCTIONAL_DEPRELS, UFEATS
from .score import EDGE_COUNT, SELF_ELAS, SELF_EULAS, match_edges
from .sentence import Sentence
from .text import strip_spaces


def same_tokens(gold: Sentence, system: Sentence) -> bool:
    """Whether the two sentences have the same tokens and words, so that word
    i aligns with word i (what the official alignment then produces)."""
    if gold.form != system.form and not (gold.mwts or system.mwts):
        return False
    if gold.mwts or system.mwts:
        if [(m.first, m.end, strip_spaces(m.form)) for m in gold.mwts] != [
                (m.first, m.end, strip_spaces(m.form)) for m in system.mwts]:
            return False
        if len(gold.form) != len(system.form):
            return False
        inside = {i for m in gold.mwts for i in range(m.first, m.end)}
        for i, (g, s) in enumerate(zip(gold.form, system.form)):
            if i in inside:
                if g.lower() != s.lower():
                    return False
            elif strip_spaces(g) != strip_spaces(s):
                return False
        return True
    return True


def _clean_heads(sentence: Sentence) -> bool:
    """Whether every HEAD is a number within the sentence."""
    heads = sentence.heads
    return None not in heads and (not heads or max(heads) <= len(heads))  # type: ignore[type-var]


def identity_ready(gold: Sentence, system: Sentence) -> bool:
    """Whether `count_identical` can count this pair: the same tokens (word i
    aligns with word i) and HEADs that are all numbers within the sentence."""
    return same_tokens(gold, system) and _clean_heads(gold) and _clean_heads(system)


def count_identical(gold: Sentence, system: Sentence) -> Counts | None:
    """Counts for a sentence pair with the same tokens (see `same_tokens`).

    Returns None when a HEAD is missing or out of range on either side; the
    word-by-word path handles those.
    """
    if not (_clean_heads(gold) and _clean_heads(system)):
        return None
    return count_identical_many([(gold, system)])


def count_identical_many(pairs: Sequence[tuple[Sentence, Sentence]]) -> Counts:
    """The sum of `count_identical` over pairs that are all `identity_ready`."""
    if not pairs:
        return Counts()
    golds = [g for g, _ in pairs]
    systems = [s for _, s in pairs]
    n = sum(map(len, golds))
    tokens = n - sum(m.end - m.first - 1 for g in golds if g.mwts for m in g.mwts)
    return count_same_tokens(WordColumns.of(golds), WordColumns.of(systems), _starts(golds),
                             len(golds), tokens)


@dataclass(slots=True)
class WordColumns:
    """The columns that scoring compares, one entry per word, for a run of
    sentences laid end to end (HEADs stay sentence-local numbers)."""

    upos: list[str]
    xpos: list[str]
    lemma: list[str]
    feats: list[str]
    deprel: list[str]
    heads: list[int]
    deps: list[str]

    @classmethod
    def of(cls, sentences: Sequence[Sentence]) -> "WordColumns":
        return cls(*(_joined(sentences, name) for name in
                     ("upos", "xpos", "lemma", "feats", "deprel", "heads", "deps")))


def count_same_tokens(gold: WordColumns, system: WordColumns, starts: Sequence[int],
                      sentences: int, tokens: int) -> Counts:
    """Counts for sentence pairs with the same tokens and words, laid end to
    end in ``gold`` and ``system`` (word i aligns with word i); ``starts``
    says where each pair's words begin, ``tokens`` how many tokens there are.
    Every HEAD must be a number within its sentence.

    Most words of a parser's output are right in every column.  One pass
    compares each word's six cells at once; words right in all of them count
    for every word-level metric without further work, and only the others
    are compared column by column.
    """
    gold_columns = (gold.upos, gold.xpos, gold.lemma, gold.feats, gold.deprel, gold.heads)
    system_columns = (system.upos, system.xpos, system.lemma, system.feats, system.deprel, system.heads)
    n = len(gold.upos)
    same = list(map(eq, zip(*gold_columns), zip(*system_columns)))
    n_same = sum(same)
    v = [0] * C.N_VALUES
    v[C.TOKENS_CORRECT] = v[C.TOKENS_GOLD] = v[C.TOKENS_SYSTEM] = tokens
    v[C.SENTENCES_CORRECT] = v[C.SENTENCES_GOLD] = v[C.SENTENCES_SYSTEM] = sentences
    v[C.WORDS_GOLD] = v[C.WORDS_SYSTEM] = v[C.WORDS_ALIGNED] = n
    for index in (C.UPOS, C.XPOS, C.UFEATS, C.ALLTAGS, C.LEMMAS, C.UAS, C.LAS, C.UFEATS_ALL,
                  C.ALLTAGS_ALL, C.LAS_FULL):
        v[index] = n_same
    gold_content = list(map(CONTENT_OF.__getitem__, gold.deprel))
    v[C.CONTENT_GOLD] = v[C.CONTENT_ALIGNED] = sum(gold_content)
    v[C.CONTENT_SYSTEM] = sum(map(CONTENT_OF.__getitem__, system.deprel))
    same_content = sum(compress(gold_content, same))
    v[C.CLAS] = v[C.BLEX] = v[C.MLAS] = same_content

    different = list(compress(range(n), map(not_, same)))
    if different:
        # The words that differ somewhere, column by column.
        if len(different) == 1:
            pick = lambda column: [column[different[0]]]  # noqa: E731
        else:
            getter = itemgetter(*different)
            pick = lambda column: list(getter(column))  # noqa: E731
        g_upos, g_xpos, g_lemma, g_feats, g_deprel, g_heads = map(pick, gold_columns)
        s_upos, s_xpos, s_lemma, s_feats, s_deprel, s_heads = map(pick, system_columns)
        upos = list(map(eq, g_upos, s_upos))
        xpos = list(map(eq, g_xpos, s_xpos))
        ufeats = list(map(eq, map(UFEATS.__getitem__, g_feats), map(UFEATS.__getitem__, s_feats)))
        feats_all = list(map(eq, map(ALL_FEATS.__getitem__, g_feats), map(ALL_FEATS.__getitem__, s_feats)))
        tags = list(map(and_, upos, xpos))
        lemma = list(map(eq, g_lemma, s_lemma))
        if "_" in g_lemma:  # a gold LEMMA _ matches anything
            for i in compress(range(len(lemma)), map(eq, g_lemma, repeat("_"))):
                lemma[i] = True
        head = list(map(eq, g_heads, s_heads))
        same_base = list(map(eq, map(BASE_DEPREL.__getitem__, g_deprel), map(BASE_DEPREL.__getitem__, s_deprel)))
        las = list(map(and_, head, same_base))
        content = pick(gold_content)
        clas = list(map(and_, las, content))
        v[C.UPOS] += sum(upos)
        v[C.XPOS] += sum(xpos)
        v[C.UFEATS] += sum(ufeats)
        v[C.ALLTAGS] += sum(map(and_, tags, ufeats))
        v[C.LEMMAS] += sum(lemma)
        v[C.UAS] += sum(head)
        v[C.LAS] += sum(las)
        v[C.UFEATS_ALL] += sum(feats_all)
        v[C.ALLTAGS_ALL] += sum(map(and_, tags, feats_all))
        v[C.LAS_FULL] += sum(map(and_, head, map(eq, g_deprel, s_deprel)))
        v[C.CLAS] += sum(clas)
        v[C.BLEX] += sum(map(and_, clas, lemma))
        mlas = list(map(and_, map(and_, clas, upos), ufeats))
        # Functional children that differ: their parents lose MLAS.  Such a
        # child differs somewhere, so it is among these words.
        g_functional = list(map(FUNCTIONAL_DEPRELS.__contains__, map(BASE_DEPREL.__getitem__, g_deprel)))
        s_functional = list(map(FUNCTIONAL_DEPRELS.__contains__, map(BASE_DEPREL.__getitem__, s_deprel)))
        alike = map(and_, map(and_, map(and_, map(eq, g_functional, s_functional), head),
                              map(and_, same_base, upos)), ufeats)
        broken: set[int] = set()
        for j in compress(range(len(different)), map(and_, map(or_, g_functional, s_functional),
                                                      map(not_, alike))):
            x = different[j]
            offset = starts[bisect_right(starts, x) - 1]
            if g_functional[j] and g_heads[j]:
                broken.add(offset + g_heads[j] - 1)
            if s_functional[j] and s_heads[j]:
                broken.add(offset + s_heads[j] - 1)
        position = {x: j for j, x in enumerate(different)} if broken else {}
        for w in broken:
            j = position.get(w)
            if j is None:
                v[C.MLAS] -= gold_content[w]  # a word right in every cell, but not its children
            else:
                mlas[j] = False
        v[C.MLAS] += sum(mlas)

    v[C.EDEPS_GOLD], v[C.EDEPS_SYSTEM], v[C.ELAS], v[C.EULAS] = _enhanced_identity(gold.deps, system.deps)
    return Counts(v)


def _joined(sentences: Sequence[Sentence], column: str) -> list:
    if len(sentences) == 1:
        return getattr(sentences[0], column)
    return list(chain.from_iterable(map(attrgetter(column), sentences)))


def _starts(sentences: Sequence[Sentence]) -> list[int]:
    starts, total = [], 0
    for sentence in sentences:
        starts.append(total)
        total += len(sentence.form)
    return starts




def _enhanced_identity(gold_deps: list[str], system_deps: list[str]) -> tuple[int, int, int, int]:
    """Gold edges, system edges, ELAS and EULAS matches, summed over words,
    when word i aligns with word i (heads compare as numbers).

    A word whose DEPS text equals gold's matches exactly as its gold value
    matches itself (precomputed per value); only the others need the loop.
    """
    gold_summary = list(map(DEPS.__getitem__, gold_deps))
    if gold_deps == system_deps:
        edges = sum(map(EDGE_COUNT, gold_summary))
        return edges, edges, sum(map(SELF_ELAS, gold_summary)), sum(map(SELF_EULAS, gold_summary))
    system_summary = list(map(DEPS.__getitem__, system_deps))
    same = list(map(eq, gold_deps, system_deps))
    gold_edges = list(map(EDGE_COUNT, gold_summary))
    system_edges = list(map(EDGE_COUNT, system_summary))
    elas = sum(compress(map(SELF_ELAS, gold_summary), same))
    eulas = sum(compress(map(SELF_EULAS, gold_summary), same))
    # Only words whose texts differ and that have edges on both sides need the loop.
    for i in compress(range(len(same)), map(mul, map(mul, map(not_, same), gold_edges), system_edges)):
        e, u = match_edges(gold_summary[i][0], system_summary[i][0], _identity, 0)
        elas += e
        eulas += u
    return sum(gold_edges), sum(system_edges), elas, eulas



def _identity(head: int) -> int:
    return head
