"""Counting the CoNLL 2018 metrics for a chunk of aligned sentences.

A *chunk* is a run of gold sentences and a run of system sentences that
cover the same text (usually one sentence each).  Its counts depend on
nothing outside it, so the file's counts are the sum over its chunks.

What each metric compares, for a gold word and the system word aligned with
it (the official definitions):

- UPOS, XPOS, Lemmas: the column (a gold LEMMA ``_`` counts as correct);
- UFeats: the universal features only, in any order; AllTags: UPOS, XPOS and
  UFeats together;
- UAS: the heads are aligned with each other (or both are the root);
- LAS: UAS, and the relation without its subtype (``obl:arg`` = ``obl``);
- CLAS, MLAS, BLEX: only words whose gold relation is a content relation;
  CLAS is LAS on them, BLEX adds the lemma, MLAS adds UPOS, UFeats and the
  list of functional children (``aux cop mark det clf case cc``) with their
  relation, UPOS and UFeats;
- ELAS, EULAS: every enhanced edge of the gold word matched by an edge of the
  system word with an aligned head and the same path (EULAS: same path
  without subtypes); each matching (gold edge, system edge) pair counts.

Precision divides by the system's words, recall by gold's; words that could
not be aligned count in those totals only.

Two ways to count, with the same results (the tests hold them to it):
`identical.count_identical` for a gold and system sentence with the same tokens and
words, which is almost every sentence of a parser's output and needs no
alignment, done with C-level ``map`` over whole columns; and `score_chunk`
for everything else, word by word after `align_words`, which can also report
each word's outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import itemgetter
from typing import Sequence

from . import counts as C
from .align import Alignment, WordSpans, align_words, spans_correct
from .counts import Counts
from .relations import ALL_FEATS, BASE_DEPREL, CONTENT_DEPRELS, DEPS, FUNCTIONAL_DEPRELS, UFEATS
from .sentence import Sentence
from .text import has_spaces, strip_spaces

# What an aligned word got right (bits of WordOutcome.mask).
UPOS_OK = 1 << 0
XPOS_OK = 1 << 1
UFEATS_OK = 1 << 2
ALLTAGS_OK = 1 << 3
LEMMA_OK = 1 << 4
HEAD_OK = 1 << 5       # UAS
LAS_OK = 1 << 6
FEATS_ALL_OK = 1 << 7
ALLTAGS_ALL_OK = 1 << 8
LAS_FULL_OK = 1 << 9
GOLD_CONTENT = 1 << 10  # the gold word counts in CLAS/MLAS/BLEX
CLAS_OK = 1 << 11
MLAS_OK = 1 << 12
BLEX_OK = 1 << 13
DEPREL_OK = 1 << 14    # relation without subtype, whatever the head
DEPREL_FULL_OK = 1 << 15

# Which bit answers each word-level metric (for --save-errors and the like).
METRIC_BITS = {
    "UPOS": UPOS_OK, "XPOS": XPOS_OK, "UFeats": UFEATS_OK, "AllTags": ALLTAGS_OK,
    "Lemmas": LEMMA_OK, "UAS": HEAD_OK, "LAS": LAS_OK, "CLAS": CLAS_OK, "MLAS": MLAS_OK,
    "BLEX": BLEX_OK, "UFeatsAll": FEATS_ALL_OK, "AllTagsAll": ALLTAGS_ALL_OK, "LASFull": LAS_FULL_OK,
}

# Heads that point nowhere: the root, and sentinels that never equal each
# other (a missing gold head must not "match" a missing system head).
ROOT = -1
SYSTEM_NO_HEAD = -2
NOT_ALIGNED = -3
GOLD_NO_HEAD = -4


@dataclass(frozen=True, slots=True)
class WordOutcome:
    """One gold word and what the system did with it."""

    gold_sentence: int  # index in the chunk's gold sentences
    gold_word: int
    system_sentence: int  # -1 when the word was not aligned
    system_word: int
    mask: int  # bits above; 0 when not aligned


@dataclass(slots=True)
class ChunkScore:
    counts: Counts
    clean: bool
    # Filled by score_chunk(details=True): one entry per gold word, in order,
    # and the system words left unaligned as (sentence, word).
    outcomes: list[WordOutcome] | None = None
    unaligned_system: list[tuple[int, int]] | None = None

    def system_words(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(gold sentence, word) -> (system sentence, word), for the aligned
        words (needs ``details``)."""
        return {(o.gold_sentence, o.gold_word): (o.system_sentence, o.system_word)
                for o in self.outcomes or () if o.system_sentence >= 0}

    def head_in_system(self, gold: Sentence, gold_sentence: int, gold_word: int,
                       system_sentence: int, system_words: dict | None = None) -> str | None:
        """Gold's HEAD of a gold word as the system sentence numbers its
        words: "0" for the root, the aligned word's number, or None when
        gold's head word is aligned with no word of that sentence (or gold
        has no number).  ``system_words``: `system_words`, when the caller
        has it already."""
        head = gold.heads[gold_word]
        if head == 0:
            return "0"
        if head is None:
            return None
        found = (system_words if system_words is not None else self.system_words()).get((gold_sentence, head - 1))
        return str(found[1] + 1) if found is not None and found[0] == system_sentence else None


# The parts of a DEPS summary (see relations.DEPS).
EDGE_COUNT, SELF_ELAS, SELF_EULAS = (itemgetter(i) for i in (1, 2, 3))


def match_edges(gold_edges, system_edges, system_head_to_gold, root: int) -> tuple[int, int]:
    """The official double loop: each (gold edge, system edge) pair whose heads
    align (or are both the root) and whose paths are equal counts for ELAS;
    equal without subtypes, for EULAS."""
    elas = eulas = 0
    for head, path in gold_edges:
        base = None
        for system_head, system_path in system_edges:
            if head == root:
                if system_head != root:
                    continue
            elif system_head == root or system_head_to_gold(system_head) != head:
                continue
            if path == system_path:
                elas += 1
                eulas += 1
            else:
                if base is None:
                    base = [step.split(":")[0] for step in path]
                if base == [step.split(":")[0] for step in system_path]:
                    eulas += 1
    return elas, eulas



# --------------------------------------------------------------------------
# The general case: align, then compare word by word
# --------------------------------------------------------------------------


class _Side:
    """One side of a chunk: its sentences' words laid end to end.

    Heads become indices into the chunk's words (ROOT for 0, a sentinel when
    missing or out of range); spans are character offsets in the chunk.
    """

    def __init__(self, sentences: Sequence[Sentence], no_head: int) -> None:
        start: list[int] = []
        end: list[int] = []
        multiword: list[bool] = []
        form: list[str] = []
        token_start: list[int] = []
        token_end: list[int] = []
        self.sentence_start: list[int] = []
        self.sentence_end: list[int] = []
        self.where: list[tuple[int, int]] = []
        self.upos: list[str] = []
        self.xpos: list[str] = []
        self.feats: list[str] = []
        self.lemma: list[str] = []
        self.deprel: list[str] = []
        self.head: list[int] = []
        self.deps: list[list[tuple[int, tuple[str, ...]]]] = []
        offset = 0
        for k, sentence in enumerate(sentences):
            base = len(self.head)
            n = len(sentence.form)
            self.sentence_start.append(offset)
            if not sentence.mwts:
                # Every word is a token: spans from the running sum of lengths.
                forms = sentence.form
                if has_spaces("".join(forms)):
                    forms = list(map(strip_spaces, forms))
                ends = list(accumulate(map(len, forms), initial=offset))
                token_start += ends[:-1]
                token_end += ends[1:]
                start += ends[:-1]
                end += ends[1:]
                multiword += repeat(False, n)
                form += map(str.lower, forms)
                offset = ends[-1]
            else:
                for token_form, first, last, is_mwt in sentence.token_forms():
                    token_start.append(offset)
                    offset += len(token_form)
                    token_end.append(offset)
                    for i in range(first, last):
                        start.append(token_start[-1])
                        end.append(offset)
                        multiword.append(is_mwt)
                        # The official scorer compares multiword members by their
                        # FORM as written, other words with spaces removed.
                        form.append((sentence.form[i] if is_mwt else token_form).lower())
            self.sentence_end.append(offset)
            self.where += zip(repeat(k, n), range(n))
            self.upos += sentence.upos
            self.xpos += sentence.xpos
            self.feats += sentence.feats
            self.lemma += sentence.lemma
            self.deprel += sentence.deprel
            self.head += [no_head if h is None or h > n else (base + h - 1 if h else ROOT)
                          for h in sentence.heads]
            for deps in sentence.deps:
                edges = []
                for h, path in DEPS[deps][0]:
                    edges.append((no_head if not 0 <= h <= n else (base + h - 1 if h else ROOT), path))
                self.deps.append(edges)
        self.spans = WordSpans(start, end, multiword, form)
        self.token_start, self.token_end = token_start, token_end
        self.base = list(map(BASE_DEPREL.__getitem__, self.deprel))
        self.ufeats = list(map(UFEATS.__getitem__, self.feats))
        self.content = list(map(CONTENT_DEPRELS.__contains__, self.base))
        functional = list(map(FUNCTIONAL_DEPRELS.__contains__, self.base))
        # Functional children of each word, in word order.
        self.children: dict[int, list[int]] = {}
        for x, h in enumerate(self.head):
            if h >= 0 and functional[x]:
                self.children.setdefault(h, []).append(x)


def word_spans(sentence: Sentence) -> WordSpans:
    """A sentence's words as `align.align_words` takes them (for callers that
    align words themselves, such as `scorer.agreement`)."""
    return _Side([sentence], GOLD_NO_HEAD).spans


def one_side_counts(sentence: Sentence, gold: bool) -> Counts:
    """Counts of a sentence with nothing on the other side (a gold sentence
    missing from the prediction, or a predicted one that is not gold's): it
    only adds to the totals.  The same as ``score_chunk`` with one side empty,
    without the alignment machinery."""
    v = [0] * C.N_VALUES
    n = len(sentence.form)
    tokens = n - sum(m.end - m.first - 1 for m in sentence.mwts)
    base = map(BASE_DEPREL.__getitem__, sentence.deprel)
    content = sum(map(CONTENT_DEPRELS.__contains__, base))
    edges = sum(map(EDGE_COUNT, map(DEPS.__getitem__, sentence.deps)))
    if gold:
        v[C.TOKENS_GOLD], v[C.SENTENCES_GOLD], v[C.WORDS_GOLD] = tokens, 1, n
        v[C.CONTENT_GOLD], v[C.EDEPS_GOLD] = content, edges
    else:
        v[C.TOKENS_SYSTEM], v[C.SENTENCES_SYSTEM], v[C.WORDS_SYSTEM] = tokens, 1, n
        v[C.CONTENT_SYSTEM], v[C.EDEPS_SYSTEM] = content, edges
    return Counts(v)


def score_chunk(gold: Sequence[Sentence], system: Sequence[Sentence],
                details: bool = False) -> ChunkScore:
    """Align a chunk's words and count every metric (see the module's docstring)."""
    g = _Side(gold, GOLD_NO_HEAD)
    s = _Side(system, SYSTEM_NO_HEAD)
    v = [0] * C.N_VALUES
    v[C.TOKENS_GOLD], v[C.TOKENS_SYSTEM] = len(g.token_start), len(s.token_start)
    v[C.TOKENS_CORRECT] = spans_correct(g.token_start, g.token_end, s.token_start, s.token_end)
    v[C.SENTENCES_GOLD], v[C.SENTENCES_SYSTEM] = len(gold), len(system)
    v[C.SENTENCES_CORRECT] = spans_correct(g.sentence_start, g.sentence_end,
                                           s.sentence_start, s.sentence_end)
    v[C.WORDS_GOLD], v[C.WORDS_SYSTEM] = len(g.head), len(s.head)
    v[C.CONTENT_GOLD], v[C.CONTENT_SYSTEM] = sum(g.content), sum(s.content)
    v[C.EDEPS_GOLD] = sum(map(len, g.deps))
    v[C.EDEPS_SYSTEM] = sum(map(len, s.deps))

    alignment: Alignment = align_words(g.spans, s.spans) if g.head and s.head else Alignment([], [], True)
    system_to_gold = [NOT_ALIGNED] * len(s.head)
    for gi, si in zip(alignment.gold, alignment.system):
        system_to_gold[si] = gi

    def mapped(head: int) -> int:
        return system_to_gold[head] if head >= 0 else head

    masks = {}
    for gi, si in zip(alignment.gold, alignment.system):
        mask = _compare(g, s, gi, si, mapped)
        masks[gi] = mask
        v[C.WORDS_ALIGNED] += 1
        v[C.UPOS] += mask & UPOS_OK != 0
        v[C.XPOS] += mask & XPOS_OK != 0
        v[C.UFEATS] += mask & UFEATS_OK != 0
        v[C.ALLTAGS] += mask & ALLTAGS_OK != 0
        v[C.LEMMAS] += mask & LEMMA_OK != 0
        v[C.UAS] += mask & HEAD_OK != 0
        v[C.LAS] += mask & LAS_OK != 0
        v[C.UFEATS_ALL] += mask & FEATS_ALL_OK != 0
        v[C.ALLTAGS_ALL] += mask & ALLTAGS_ALL_OK != 0
        v[C.LAS_FULL] += mask & LAS_FULL_OK != 0
        if mask & GOLD_CONTENT:
            v[C.CONTENT_ALIGNED] += 1
            v[C.CLAS] += mask & CLAS_OK != 0
            v[C.MLAS] += mask & MLAS_OK != 0
            v[C.BLEX] += mask & BLEX_OK != 0
        if g.deps[gi] and s.deps[si]:
            e, u = match_edges(g.deps[gi], s.deps[si], mapped, ROOT)
            v[C.ELAS] += e
            v[C.EULAS] += u

    result = ChunkScore(Counts(v), alignment.clean)
    if details:
        gold_to_system = dict(zip(alignment.gold, alignment.system))
        result.outcomes = []
        for gi, (k, i) in enumerate(g.where):
            si = gold_to_system.get(gi)
            if si is None:
                result.outcomes.append(WordOutcome(k, i, -1, -1, 0))
            else:
                sk, sw = s.where[si]
                result.outcomes.append(WordOutcome(k, i, sk, sw, masks[gi]))
        aligned_system = set(alignment.system)
        result.unaligned_system = [s.where[si] for si in range(len(s.head)) if si not in aligned_system]
    return result


def _compare(g: _Side, s: _Side, gi: int, si: int, mapped) -> int:
    mask = 0
    upos = g.upos[gi] == s.upos[si]
    xpos = g.xpos[gi] == s.xpos[si]
    ufeats = g.ufeats[gi] == s.ufeats[si]
    feats_all = ALL_FEATS[g.feats[gi]] == ALL_FEATS[s.feats[si]]
    gold_lemma = g.lemma[gi]
    lemma = gold_lemma == "_" or gold_lemma == s.lemma[si]
    gold_head = g.head[gi]
    head = gold_head == mapped(s.head[si])  # the sentinels never match
    deprel = g.base[gi] == s.base[si]
    deprel_full = g.deprel[gi] == s.deprel[si]
    if upos:
        mask |= UPOS_OK
    if xpos:
        mask |= XPOS_OK
    if ufeats:
        mask |= UFEATS_OK
    if upos and xpos and ufeats:
        mask |= ALLTAGS_OK
    if lemma:
        mask |= LEMMA_OK
    if feats_all:
        mask |= FEATS_ALL_OK
    if upos and xpos and feats_all:
        mask |= ALLTAGS_ALL_OK
    if deprel:
        mask |= DEPREL_OK
    if deprel_full:
        mask |= DEPREL_FULL_OK
    if head:
        mask |= HEAD_OK
        if deprel:
            mask |= LAS_OK
        if deprel_full:
            mask |= LAS_FULL_OK
    if g.content[gi]:
        mask |= GOLD_CONTENT
        if head and deprel:
            mask |= CLAS_OK
            if lemma:
                mask |= BLEX_OK
            if upos and ufeats and _same_children(g, s, gi, si, mapped):
                mask |= MLAS_OK
    return mask


def _same_children(g: _Side, s: _Side, gi: int, si: int, mapped) -> bool:
    gold_children = g.children.get(gi, ())
    system_children = s.children.get(si, ())
    if len(gold_children) != len(system_children):
        return False
    for gc, sc in zip(gold_children, system_children):
        if (gc != mapped(sc) or g.base[gc] != s.base[sc] or g.upos[gc] != s.upos[sc]
                or g.ufeats[gc] != s.ufeats[sc]):
            return False
    return True
