"""Scoring many plain sentence pairs at once, straight from their text.

Nearly every sentence of a parser's output, held against its gold sentence,
is as simple as a pair can be: the same token lines (same IDs, same FORMs),
well formed on both sides, with other tags here and there.  Parsing each
sentence into a `Sentence`, checking its tree and counting it one by one
costs far more in Python's per-call overhead than the comparisons
themselves.  So the evaluator hands such pairs over in batches of a few
hundred, and this module:

1. joins the token lines of all system sentences of the batch and cuts them
   into columns with one ``str.split("\\t")`` (the trick `reader.parse_block`
   uses for one sentence), and the same for gold;
2. makes, on whole columns, every check the reader and
   `checks.tree_problems` would make: ten columns on every line, IDs 1..n
   (multiword ranges right before their words, no empty nodes), no empty
   FORM or space in a FORM, HEADs that are non-negative numbers forming a
   tree (one root, no cycle, none past the last word; decided for all
   sentences at once by pointer doubling in numpy), DEPS that read and stay
   within the sentence;
3. requires the system and gold ID and FORM columns to be equal, so word i
   aligns with word i;
4. counts the pairs that passed together, with `score.count_same_tokens`.

A pair that does not pass is not an error: the evaluator scores it the
ordinary way (parse, pair, align), which also reports what is wrong with it.
So every check here may be stricter than the reader's, never looser: a
passing pair is one the ordinary path would find no problem in and count
with `score.count_identical`, to the same counts (the tests hold the two
paths to it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate, chain, compress, repeat
from operator import and_, contains
from typing import Sequence

import numpy as np

from .counts import Counts
from .reader import _DEPS_EXTENTS, _id_strings, _plain_multiword_rows, read_comments
from .score import WordColumns, count_same_tokens
from .text import has_spaces

# Columns kept for scoring, by CoNLL-U column number.
_LEMMA, _UPOS, _XPOS, _FEATS, _HEAD, _DEPREL, _DEPS = 2, 3, 4, 5, 6, 7, 8


def token_text(body: str) -> str | None:
    """The token lines of a block (its leading comments cut off), or None
    when it has none."""
    pos = read_comments(body)[1] if body.startswith("#") else 0
    return None if pos < 0 else body[pos:] if pos else body


def split_columns(text: str, rows: int, misc: bool = False) -> list[list[str]] | None:
    """The columns of ``rows`` token lines joined by newlines (ID to DEPS,
    and MISC if asked), or None unless every line has exactly ten
    tab-separated columns.  ``rows`` must be the number of lines: one more
    than the newlines in ``text`` (callers count them anyway, so they are
    not counted again here)."""
    flat = text.split("\t")
    if len(flat) != 9 * rows + 1:
        return None
    # The newline between two lines sits inside field 9k ("MISC\nID"); with
    # rows - 1 newlines in all, one in each such field means none elsewhere.
    junctions = flat[9:9 * rows:9]
    if rows > 1 and not all(map(contains, junctions, repeat("\n"))):
        return None
    ids = [flat[0]]
    miscs = []
    if rows > 1:
        merged = "\n".join(junctions).split("\n")
        ids += merged[1::2]
        if misc:
            miscs = merged[0::2]
    columns = [ids, flat[1::9], flat[2::9], flat[3::9], flat[4::9], flat[5::9], flat[6::9],
               flat[7::9], flat[8::9]]
    if misc:
        miscs.append(flat[-1])
        columns.append(miscs)
    return columns


class PlainBatch:
    """A batch of (system, gold) sentence blocks: which pairs pass the bulk
    checks (``passed``), and the counts of any chosen subset of them."""

    def __init__(self, system_bodies: Sequence[str], gold_bodies: Sequence[str]) -> None:
        self._start(list(map(token_text, system_bodies)), list(map(token_text, gold_bodies)))

    @classmethod
    def of_token_lines(cls, system_texts: Sequence[str | None],
                       gold_texts: Sequence[str | None]) -> "PlainBatch":
        """The batch of blocks whose leading comments are cut off already
        (`token_text`, None for a block with no token lines): for callers
        that read the comments anyway, to find the sent_id."""
        batch = cls.__new__(cls)
        batch._start(system_texts, gold_texts)
        return batch

    def _start(self, system_texts: Sequence[str | None], gold_texts: Sequence[str | None]) -> None:
        n = len(system_texts)
        self.passed = [False] * n
        # Step 1: token lines, the same number on both sides.
        texts: list[tuple[int, str, str, int]] = []
        for k in range(n):
            system_text, gold_text = system_texts[k], gold_texts[k]
            if system_text is None or gold_text is None:
                continue
            rows = system_text.count("\n") + 1
            if gold_text.count("\n") + 1 == rows:
                texts.append((k, system_text, gold_text, rows))
        self._pairs: list[int] = []       # batch positions of the pairs below
        self._word_starts: list[int] = []
        self._tokens: list[int] = []      # tokens per pair
        self._gold: WordColumns | None = None
        self._system: WordColumns | None = None
        if texts:
            self._read(texts)

    # --- checks -------------------------------------------------------------------

    def _read(self, texts: list[tuple[int, str, str, int]]) -> None:
        system_columns, gold_columns, texts = _split_both(texts)
        if not texts:
            return
        rows = [t[3] for t in texts]
        row_starts = list(accumulate(rows, initial=0))
        ok = [True] * len(texts)
        tokens = rows[:]                 # token lines: words outside ranges, and ranges
        range_rows = [0] * len(texts)
        system_ids, gold_ids = system_columns[0], gold_columns[0]
        expected = list(chain.from_iterable(map(_id_strings, rows)))
        if not (system_ids == gold_ids == expected):
            for k in range(len(texts)):
                a, b = row_starts[k], row_starts[k + 1]
                ids = gold_ids[a:b]
                if system_ids[a:b] != ids:
                    ok[k] = False
                elif ids != expected[a:b]:
                    plain = _plain_multiword_rows(ids)
                    if plain is None:
                        ok[k] = False
                        continue
                    word_rows, token_rows = plain
                    range_rows[k] = len(ids) - len(word_rows)
                    tokens[k] = len(token_rows)
        system_forms, gold_forms = system_columns[1], gold_columns[1]
        if system_forms != gold_forms:
            for k in range(len(texts)):
                a, b = row_starts[k], row_starts[k + 1]
                if system_forms[a:b] != gold_forms[a:b]:
                    ok[k] = False
        if "" in gold_forms or has_spaces("".join(gold_forms)):
            for k in range(len(texts)):
                forms = gold_forms[row_starts[k]:row_starts[k + 1]]
                if "" in forms or has_spaces("".join(forms)):
                    ok[k] = False

        # Keep the word lines of the pairs still in.
        any_ranges = any(range_rows)
        if any_ranges or not all(ok):
            row_ok = list(chain.from_iterable(map(repeat, ok, rows)))
            if any_ranges:
                row_ok = list(map(and_, row_ok, map(str.isdecimal, gold_ids)))
            system_columns = _kept_rows(system_columns, row_ok)
            gold_columns = _kept_rows(gold_columns, row_ok)
        kept = [k for k in range(len(texts)) if ok[k]]
        words = [rows[k] - range_rows[k] for k in kept]
        if not kept:
            return

        # Step 2: HEADs, trees and DEPS, pair by pair on whole columns.
        word_starts = list(accumulate(words, initial=0))
        fine = _values_ok(gold_columns, words, word_starts)
        fine &= _values_ok(system_columns, words, word_starts, gold_columns[_DEPS])
        if not fine.all():
            word_ok = list(chain.from_iterable(map(repeat, fine.tolist(), words)))
            system_columns = _kept_rows(system_columns, word_ok)
            gold_columns = _kept_rows(gold_columns, word_ok)
            keep = fine.tolist()
            kept = list(compress(kept, keep))
            words = list(compress(words, keep))
            word_starts = list(accumulate(words, initial=0))
        self._pairs = [texts[k][0] for k in kept]
        for k in self._pairs:
            self.passed[k] = True
        self._word_starts = word_starts
        self._tokens = [tokens[k] for k in kept]
        self._system = _word_columns(system_columns)
        self._gold = _word_columns(gold_columns)

    # --- counts -------------------------------------------------------------------

    def counts(self, chosen: Sequence[bool] | None = None) -> Counts:
        """Counts of the passed pairs (of those among them that ``chosen``
        marks, by batch position)."""
        if not self._pairs or self._gold is None or self._system is None:
            return Counts()
        total = count_same_tokens(self._gold, self._system, self._word_starts[:-1],
                                  len(self._pairs), sum(self._tokens))
        if chosen is None:
            return total
        left_out = [j for j, k in enumerate(self._pairs) if not chosen[k]]
        if not left_out:
            return total
        # Counts add up over sentences, so the few pairs left out are counted
        # on their own and taken away (cheaper than cutting all columns again).
        starts = self._word_starts
        pick = [(starts[j], starts[j + 1]) for j in left_out]
        gold = WordColumns(*(_slices(getattr(self._gold, f), pick) for f in _FIELDS))
        system = WordColumns(*(_slices(getattr(self._system, f), pick) for f in _FIELDS))
        words = [b - a for a, b in pick]
        out = count_same_tokens(gold, system, list(accumulate(words, initial=0))[:-1],
                                len(left_out), sum(self._tokens[j] for j in left_out))
        return total - out


    def counts_each(self) -> list[Counts | None]:
        """The counts of each pair by batch position (None for a pair that
        did not pass): for callers that keep per-sentence counts (their sum
        is `counts`).  Costs a call per pair, so the default path never
        asks for it."""
        out: list[Counts | None] = [None] * len(self.passed)
        if not self._pairs or self._gold is None or self._system is None:
            return out
        starts = self._word_starts
        for j, k in enumerate(self._pairs):
            a, b = starts[j], starts[j + 1]
            gold = WordColumns(*(getattr(self._gold, f)[a:b] for f in _FIELDS))
            system = WordColumns(*(getattr(self._system, f)[a:b] for f in _FIELDS))
            out[k] = count_same_tokens(gold, system, [0], 1, self._tokens[j])
        return out


def _slices(column: list, pick: list[tuple[int, int]]) -> list:
    out: list = []
    for a, b in pick:
        out += column[a:b]
    return out


_FIELDS = ("upos", "xpos", "lemma", "feats", "deprel", "heads", "deps")


def _kept_rows(columns: list[list], keep: list[bool]) -> list[list]:
    """The columns' rows that ``keep`` marks.  ID and FORM are done with
    once the token checks are made, so they are left empty, not cut."""
    return [[], []] + [list(compress(c, keep)) for c in columns[_LEMMA:]]


def _split_both(texts: list[tuple[int, str, str, int]]):
    """Columns of all system and all gold token lines; pairs with a line
    that has not ten columns (on either side) are left out."""
    for _ in range(2):
        rows = sum(t[3] for t in texts)
        system = split_columns("\n".join([t[1] for t in texts]), rows)
        gold = split_columns("\n".join([t[2] for t in texts]), rows)
        if system is not None and gold is not None:
            return system, gold, texts
        texts = [t for t in texts if split_columns(t[1], t[3]) is not None
                 and split_columns(t[2], t[3]) is not None]
        if not texts:
            break
    return [], [], []


# HEADs above this are out of range in any sentence, and stay within int64.
_LARGEST_HEAD = 1 << 40


def _values_ok(columns: list[list[str]], words: list[int], word_starts: list[int],
               checked_deps: list[str] | None = None) -> np.ndarray:
    """Per pair: HEADs non-negative numbers forming a tree, DEPS readable and
    within the sentence.  Replaces the HEAD column with the numbers.
    ``checked_deps``: a DEPS column known to be fine for the same sentences
    (gold's); when this one is the same, it needs no second look."""
    n_pairs = len(words)
    fine = np.ones(n_pairs, dtype=bool)
    head_column = columns[_HEAD]
    try:
        heads = list(map(int, head_column))
    except ValueError:
        heads = []
        for k in range(n_pairs):
            a, b = word_starts[k], word_starts[k + 1]
            try:
                part = list(map(int, head_column[a:b]))
            except ValueError:
                fine[k] = False
                part = [0] * (b - a)
            heads += part
    if heads and (max(heads) > _LARGEST_HEAD or min(heads) < 0):
        # Past int64 (a HEAD of 2^63 is a number to int()), and negative:
        # not plain.  -1 marks them out of range below.
        heads = [h if 0 <= h <= _LARGEST_HEAD else -1 for h in heads]
    columns[_HEAD] = heads  # type: ignore[call-overload]
    lengths = np.array(words, dtype=np.int64)
    starts = np.array(word_starts[:-1], dtype=np.int64)
    h = np.array(heads, dtype=np.int64)
    length_of_word = np.repeat(lengths, lengths)
    start_of_word = np.repeat(starts, lengths)
    out = (h < 0) | (h > length_of_word)
    fine &= np.add.reduceat(out.astype(np.int64), starts) == 0
    is_root = h == 0
    fine &= np.add.reduceat(is_root.astype(np.int64), starts) == 1
    # Every word must reach its sentence's root.  Roots (and words whose
    # HEAD is out of range, already refused) point to themselves; after k
    # rounds of parent = parent[parent] each word points to its 2^k-th
    # ancestor, so log2(longest sentence) rounds reach the root of a tree.
    index = np.arange(len(h), dtype=np.int64)
    parent = np.where(is_root | out, index, start_of_word + h - 1)
    for _ in range(int(lengths.max()).bit_length()):
        parent = parent[parent]
    unreached = ~is_root[parent]
    fine &= np.add.reduceat(unreached.astype(np.int64), starts) == 0
    deps = columns[_DEPS]
    if deps != checked_deps and deps.count("_") != len(deps):
        extents = np.array(list(map(_DEPS_EXTENTS.__getitem__, deps)), dtype=np.int64)
        wrong = (extents < 0) | (extents > length_of_word)
        fine &= np.add.reduceat(wrong.astype(np.int64), starts) == 0
    return fine


def _word_columns(columns: list) -> WordColumns:
    return WordColumns(columns[_UPOS], columns[_XPOS], columns[_LEMMA], columns[_FEATS],
                       columns[_DEPREL], columns[_HEAD], columns[_DEPS])


# --------------------------------------------------------------------------
# One side only: sentences that need no parsing to be judged
# --------------------------------------------------------------------------


@dataclass(slots=True)
class PlainSentence:
    """A sentence that passed every check above on its own: no format
    problem, a tree the official scorer accepts.  What the engine keeps of
    it instead of parsing it."""

    sent_id: str | None
    chars: str    # token forms laid end to end (no spaces in them)
    tokens: str   # ID and FORM columns: equal strings mean the same tokens
    words: int
    misc: list[str]
    # Its words' columns for scoring: (columns of the whole batch, first
    # word, end), HEADs as numbers; and its number of tokens.  A caller that
    # scores it soon uses these instead of reading the text again (see
    # `count_plain_pairs`).
    columns: tuple[WordColumns, int, int] | None = None
    n_tokens: int = 0


def read_plain(bodies: Sequence[str | None]) -> list[PlainSentence | None]:
    """Each block read as a `PlainSentence`, or None when it is not plain
    (then parse it: `reader.parse_blocks` reports what is wrong)."""
    out: list[PlainSentence | None] = [None] * len(bodies)
    texts = []
    sent_ids: list[str | None] = [None] * len(bodies)
    for k, body in enumerate(bodies):
        if not body:
            continue
        sent_ids[k], pos = read_comments(body)
        if pos >= 0:
            text = body[pos:] if pos else body
            texts.append((k, text, text.count("\n") + 1))
    for _ in range(2):
        columns = split_columns("\n".join([t[1] for t in texts]), sum(t[2] for t in texts), misc=True) \
            if texts else None
        if columns is not None:
            break
        texts = [t for t in texts if split_columns(t[1], t[2]) is not None]
    if columns is None or not texts:
        return out
    rows = [t[2] for t in texts]
    row_starts = list(accumulate(rows, initial=0))
    ids, forms = columns[0], columns[1]
    ok = [True] * len(texts)
    token_rows: dict[int, list[int]] = {}   # sentences with multiword ranges
    expected = list(chain.from_iterable(map(_id_strings, rows)))
    if ids != expected:
        for k in range(len(texts)):
            a, b = row_starts[k], row_starts[k + 1]
            if ids[a:b] != expected[a:b]:
                plain = _plain_multiword_rows(ids[a:b])
                if plain is None:
                    ok[k] = False
                else:
                    token_rows[k] = plain[1]
    if "" in forms or has_spaces("".join(forms)):
        for k in range(len(texts)):
            part = forms[row_starts[k]:row_starts[k + 1]]
            if "" in part or has_spaces("".join(part)):
                ok[k] = False
    word_mask = list(chain.from_iterable(map(repeat, ok, rows)))
    if token_rows:
        word_mask = list(map(and_, word_mask, map(str.isdecimal, ids)))
    kept = [k for k in range(len(texts)) if ok[k]]
    if not kept:
        return out
    words = [sum(map(str.isdecimal, ids[row_starts[k]:row_starts[k + 1]])) if k in token_rows else rows[k]
             for k in kept]
    word_columns = _kept_rows(columns, word_mask) if not all(word_mask) else columns
    word_starts = list(accumulate(words, initial=0))
    fine = _values_ok(word_columns, words, word_starts).tolist()
    misc = word_columns[9]
    batch = _word_columns(word_columns)
    for j, k in enumerate(kept):
        if not fine[j]:
            continue
        a, b = row_starts[k], row_starts[k + 1]
        sentence_forms = forms[a:b]
        if k in token_rows:
            chars = "".join([sentence_forms[r] for r in token_rows[k]])
        else:
            chars = "".join(sentence_forms)
        index = texts[k][0]
        out[index] = PlainSentence(sent_ids[index], chars,
                                   "\t".join(ids[a:b]) + "\n" + "\t".join(sentence_forms),
                                   words[j], misc[word_starts[j]:word_starts[j + 1]],
                                   (batch, word_starts[j], word_starts[j + 1]),
                                   len(token_rows[k]) if k in token_rows else rows[k])
    return out


def count_plain_pairs(pairs: Sequence[tuple[PlainSentence, PlainSentence]]) -> Counts:
    """The counts of (gold, system) plain sentences with the same tokens
    (equal ``tokens``), from the columns `read_plain` kept: what
    `PlainBatch` would count for them, without reading their text again."""
    if not pairs:
        return Counts()
    starts, start, tokens = [], 0, 0
    for g, _ in pairs:
        starts.append(start)
        start += g.words
        tokens += g.n_tokens
    gold = _gathered([g for g, _ in pairs])
    system = _gathered([s for _, s in pairs])
    return count_same_tokens(gold, system, starts, len(pairs), tokens)


def _gathered(sentences: Sequence[PlainSentence]) -> WordColumns:
    """The sentences' word columns laid end to end.  Sentences read one
    after the other from one batch sit side by side in its columns (the
    usual case: a pass pairs the documents in order), so whole runs of
    them are cut out at once rather than sentence by sentence."""
    runs: list[tuple[WordColumns, int, int]] = []
    batch, first, end = None, 0, 0
    for sentence in sentences:
        columns, a, b = sentence.columns  # type: ignore[misc]
        if columns is batch and a == end:
            end = b
            continue
        if batch is not None:
            runs.append((batch, first, end))
        batch, first, end = columns, a, b
    runs.append((batch, first, end))  # type: ignore[arg-type]
    out: list[list] = [[] for _ in _FIELDS]
    for columns, a, b in runs:
        for column, name in zip(out, _FIELDS):
            column += getattr(columns, name)[a:b]
    return WordColumns(*out)
