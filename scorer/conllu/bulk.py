"""Plain sentences, read in bulk straight from their text.

Nearly every sentence of a parser's output, held against its gold sentence,
is as simple as a pair can be: the same token lines (same IDs, same FORMs),
well formed on both sides, with other tags here and there.  Parsing each
sentence into a `Sentence`, checking its tree and counting it one by one
costs far more in Python's per-call overhead than the comparisons
themselves.  So sentences are read a batch at a time (`read_plain`):

1. the token lines of every sentence of the batch are joined and cut into
   columns with one ``str.split("\\t")`` (the trick `parse.parse_block`
   uses for one sentence);
2. every check the reader and `checks.tree_problems` would make is made on
   whole columns: ten columns on every line, IDs 1..n (multiword ranges
   right before their words, no empty nodes), no empty FORM or space in a
   FORM, HEADs that are non-negative numbers forming a tree (one root, no
   cycle, none past the last word; decided for all sentences at once by
   pointer doubling in numpy), DEPS that read and stay within the sentence;
3. each sentence that passes becomes a `PlainSentence`: its characters, its
   tokens (ID and FORM columns: equal strings mean word i aligns with word
   i) and its word columns, kept in the batch's columns.

Two plain sentences with the same tokens — a gold one and a predicted one —
are counted together with others, from those columns
(`count_plain_pairs`, with `identical.count_same_tokens`).  Both `evaluate`
and the engine count plain pairs this way.

A sentence that does not pass is not an error: it is scored the ordinary
way (parse, pair, align), which also reports what is wrong with it.  So
every check here may be stricter than the reader's, never looser: a plain
pair is one the ordinary path would find no problem in and count with
`identical.count_identical`, to the same counts (the tests hold the lanes to it).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import accumulate, chain, compress, repeat
from operator import and_, contains
from typing import TYPE_CHECKING, Sequence

from . import lane
from .checks import acyclic
from .counts import Counts
from .columns import DEPS_EXTENTS, id_strings, plain_multiword_rows
from .parse import read_comments
from .identical import WordColumns, count_same_tokens
from .text import has_spaces

if TYPE_CHECKING:
    import numpy as np

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


_FIELDS = ("upos", "xpos", "lemma", "feats", "deprel", "heads", "deps")


# --------------------------------------------------------------------------
# The steps, shared by one side (`read_plain`) and pairs (`PlainPairs`)
# --------------------------------------------------------------------------


def _split_batch(texts: list[tuple[int, str, int]], misc: bool = False
                 ) -> tuple[list[tuple[int, str, int]], list[list[str]] | None]:
    """The columns of (position, token lines, rows) laid end to end; the
    blocks that have not ten columns on every line are left out (one split
    of the whole batch, and a second without them when one had not)."""
    for _ in range(2):
        if not texts:
            return texts, None
        columns = split_columns("\n".join([t[1] for t in texts]), sum(t[2] for t in texts), misc=misc)
        if columns is not None:
            return texts, columns
        texts = [t for t in texts if split_columns(t[1], t[2]) is not None]
    return texts, None


def _token_checks(ids: list[str], forms: list[str], rows: list[int], row_starts: list[int],
                  ok: list[bool]) -> dict[int, list[int]]:
    """IDs 1..n (or plain multiword ranges before their words) and FORMs
    neither empty nor with spaces, per sentence: clears ``ok`` where not.
    Returns the token rows of the sentences with multiword ranges."""
    token_rows: dict[int, list[int]] = {}
    expected = list(chain.from_iterable(map(id_strings, rows)))
    if ids != expected:
        for k in range(len(rows)):
            a, b = row_starts[k], row_starts[k + 1]
            if ok[k] and ids[a:b] != expected[a:b]:
                plain = plain_multiword_rows(ids[a:b])
                if plain is None:
                    ok[k] = False
                else:
                    token_rows[k] = plain[1]
    if "" in forms or has_spaces("".join(forms)):
        for k in range(len(rows)):
            part = forms[row_starts[k]:row_starts[k + 1]]
            if "" in part or has_spaces("".join(part)):
                ok[k] = False
    return token_rows


def _word_rows(ids: list[str], rows: list[int], ok: list[bool], token_rows: dict[int, list[int]]
               ) -> tuple[list[bool], list[int], list[int]]:
    """Which rows are words of a sentence still in (multiword range lines
    are not), the sentences still in, and their numbers of words."""
    word_mask = list(chain.from_iterable(map(repeat, ok, rows)))
    if token_rows:
        word_mask = list(map(and_, word_mask, map(str.isdecimal, ids)))
    kept = [k for k in range(len(rows)) if ok[k]]
    row_starts = list(accumulate(rows, initial=0)) if token_rows else None
    words = [sum(map(str.isdecimal, ids[row_starts[k]:row_starts[k + 1]]))  # type: ignore[index]
             if k in token_rows else rows[k] for k in kept]
    return word_mask, kept, words


def _kept_rows(columns: list[list], keep: list[bool]) -> list[list]:
    """The columns' rows that ``keep`` marks.  ID and FORM are done with
    once the token checks are made, so they are left empty, not cut."""
    if all(keep):
        return columns
    return [[], []] + [list(compress(c, keep)) for c in columns[_LEMMA:]]


# HEADs above this are out of range in any sentence, and stay within int64.
_LARGEST_HEAD = 1 << 40


def _values_ok(columns: list[list[str]], words: list[int], word_starts: list[int]) -> list[bool]:
    """Per sentence: HEADs non-negative numbers forming a tree, DEPS
    readable and within the sentence.  Replaces the HEAD column with the
    numbers.  In C when the compiled lane is there (`lane`) and every HEAD
    is a plain ASCII number; with numpy otherwise."""
    deps = columns[_DEPS]
    extents = None if deps.count("_") == len(deps) else list(map(DEPS_EXTENTS.__getitem__, deps))
    if lane._plain is not None:
        compiled = lane._plain.tree_verdicts(columns[_HEAD], extents, words)
        if compiled is not None:
            columns[_HEAD] = compiled[1]  # type: ignore[call-overload]
            return compiled[0]
    global _python_words
    if "numpy" not in sys.modules and _python_words < PYTHON_WORDS:
        # A small input is checked word by word: importing numpy would cost
        # more than the whole run (a 10-sentence evaluate in the Python lane).
        _python_words += len(columns[_HEAD])
        return _values_ok_python(columns, words, word_starts, extents)
    return _values_ok_numpy(columns, words, word_starts, extents)


# Words checked by `_values_ok_python` before numpy takes over (in a process).
PYTHON_WORDS = 20_000
_python_words = 0


def _values_ok_python(columns: list[list[str]], words: list[int], word_starts: list[int],
                      extents: list[int] | None) -> list[bool]:
    """`_values_ok_numpy`'s verdicts and HEAD numbers, a sentence at a time."""
    head_column = columns[_HEAD]
    fine = []
    heads: list[int] = []
    for k, n in enumerate(words):
        a = word_starts[k]
        try:
            part = [h if 0 <= h <= _LARGEST_HEAD else -1 for h in map(int, head_column[a:a + n])]
        except ValueError:
            fine.append(False)
            heads += [0] * n
            continue
        heads += part
        fine.append(part.count(0) == 1 and all(0 <= h <= n for h in part) and acyclic(part)
                    and (extents is None or all(0 <= e <= n for e in extents[a:a + n])))
    columns[_HEAD] = heads  # type: ignore[call-overload]
    return fine


def _values_ok_numpy(columns: list[list[str]], words: list[int], word_starts: list[int],
                     extents: list[int] | None) -> list[bool]:
    import numpy as np  # (when first needed: its import costs 0.1-0.2 s)

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
    if extents is not None:
        extent = np.array(extents, dtype=np.int64)
        wrong = (extent < 0) | (extent > length_of_word)
        fine &= np.add.reduceat(wrong.astype(np.int64), starts) == 0
    return fine.tolist()


def _word_columns(columns: list) -> WordColumns:
    return WordColumns(columns[_UPOS], columns[_XPOS], columns[_LEMMA], columns[_FEATS],
                       columns[_DEPREL], columns[_HEAD], columns[_DEPS])


@dataclass(slots=True)
class PlainSentence:
    """A sentence that passed every check above on its own: no format
    problem, a tree the official scorer accepts.  What the engine keeps of
    it instead of parsing it."""

    sent_id: str | None
    chars: str    # token forms laid end to end (no spaces in them); "" when read for counting only
    tokens: str   # what its tokens are: equal strings mean the same tokens and words
    words: int
    misc: list[str]
    # Its words' columns for scoring: (columns of the whole batch, first
    # word, end), HEADs as numbers; and its number of tokens.  A caller that
    # scores it soon uses these instead of reading the text again (see
    # `count_plain_pairs`).
    columns: tuple[WordColumns, int, int] | None = None
    n_tokens: int = 0


def read_plain(bodies: Sequence[str | None], misc: bool = True) -> list[PlainSentence | None]:
    """Each block read as a `PlainSentence`, or None when it is not plain
    (then parse it: `parse.parse_blocks` reports what is wrong)."""
    texts: list[str | None] = [None] * len(bodies)
    sent_ids: list[str | None] = [None] * len(bodies)
    for k, body in enumerate(bodies):
        if body:
            sent_ids[k], pos = read_comments(body)
            if pos >= 0:
                texts[k] = body[pos:] if pos else body
    return read_plain_token_lines(texts, sent_ids, misc)


def read_plain_token_lines(token_lines: Sequence[str | None], sent_ids: Sequence[str | None],
                           misc: bool = True) -> list[PlainSentence | None]:
    """`read_plain` for blocks whose leading comments are cut off already
    (`token_text`; None for a block without token lines), with their
    sent_ids: for callers that read the comments anyway.  ``misc=False``
    is for counting only: MISC and the characters are left out (scoring
    looks at neither)."""
    out: list[PlainSentence | None] = [None] * len(token_lines)
    texts, columns = _split_batch([(k, text, text.count("\n") + 1) for k, text in enumerate(token_lines) if text],
                                  misc=misc)
    if columns is None:
        return out
    rows = [t[2] for t in texts]
    row_starts = list(accumulate(rows, initial=0))
    ids, forms = columns[0], columns[1]
    ok = [True] * len(texts)
    token_rows = _token_checks(ids, forms, rows, row_starts, ok)
    word_mask, kept, words = _word_rows(ids, rows, ok, token_rows)
    if not kept:
        return out
    word_columns = _kept_rows(columns, word_mask)
    word_starts = list(accumulate(words, initial=0))
    fine = _values_ok(word_columns, words, word_starts)
    miscs = word_columns[9] if misc else []
    batch = _word_columns(word_columns)
    join = "\t".join
    for j, k in enumerate(kept):
        if not fine[j]:
            continue
        a, b = row_starts[k], row_starts[k + 1]
        sentence_forms = forms[a:b]
        index = texts[k][0]
        if k in token_rows:
            chars = "".join([sentence_forms[r] for r in token_rows[k]]) if misc else ""
            # IDs other than 1..n: they say which tokens are words (a newline
            # keeps these apart from the plain form below).
            tokens = join(ids[a:b]) + "\n" + join(sentence_forms)
            n_tokens = len(token_rows[k])
        else:
            # IDs 1..n: the forms alone say what the tokens are (no TAB in a form).
            chars = "".join(sentence_forms) if misc else ""
            tokens = join(sentence_forms)
            n_tokens = rows[k]
        out[index] = PlainSentence(sent_ids[index], chars, tokens, words[j],
                                   miscs[word_starts[j]:word_starts[j + 1]],
                                   (batch, word_starts[j], word_starts[j + 1]), n_tokens)
    return out


def plain_pair(gold: PlainSentence | None, system: PlainSentence | None) -> bool:
    """Whether a gold and a system sentence can be counted in bulk
    together: both plain, with the same tokens (so word i aligns with word i)."""
    return gold is not None and system is not None and gold.tokens == system.tokens


class PlainPairs:
    """A batch of (system, gold) token lines (`token_text`) read together:
    which pairs are plain on both sides with the same tokens (``passed``),
    and the counts of any chosen subset of them.  The same steps as
    `read_plain`, with the token checks made once: a pair passes only when
    its ID and FORM columns are the same on both sides, so gold's checks
    hold for the system side too.  (What `evaluate`'s bulk lane uses: it
    needs no `PlainSentence` per sentence.)"""

    def __init__(self, system_texts: Sequence[str | None], gold_texts: Sequence[str | None]) -> None:
        n = len(system_texts)
        self.passed = [False] * n
        self._pairs: list[int] = []
        texts: list[tuple[int, str, str, int]] = []
        for k in range(n):
            system_text, gold_text = system_texts[k], gold_texts[k]
            if system_text and gold_text:
                rows = system_text.count("\n") + 1
                if gold_text.count("\n") + 1 == rows:
                    texts.append((k, system_text, gold_text, rows))
        if texts:
            self._read(texts)

    def _read(self, texts: list[tuple[int, str, str, int]]) -> None:
        system_texts, system = _split_batch([(k, s, rows) for k, s, _, rows in texts])
        gold_texts, gold = _split_batch([(k, g, rows) for k, _, g, rows in texts])
        if system is None or gold is None:
            return
        if len(system_texts) != len(texts) or len(gold_texts) != len(texts):
            both = {t[0] for t in system_texts} & {t[0] for t in gold_texts}
            texts = [t for t in texts if t[0] in both]
            system_texts, system = _split_batch([(k, s, rows) for k, s, _, rows in texts])
            gold_texts, gold = _split_batch([(k, g, rows) for k, _, g, rows in texts])
            if system is None or gold is None:
                return
        rows = [t[3] for t in texts]
        row_starts = list(accumulate(rows, initial=0))
        ok = [True] * len(texts)
        for column in (0, 1):  # the same IDs and FORMs: word i aligns with word i
            if system[column] != gold[column]:
                for k in range(len(texts)):
                    a, b = row_starts[k], row_starts[k + 1]
                    if system[column][a:b] != gold[column][a:b]:
                        ok[k] = False
        token_rows = _token_checks(gold[0], gold[1], rows, row_starts, ok)
        word_mask, kept, words = _word_rows(gold[0], rows, ok, token_rows)
        if not kept:
            return
        system, gold = _kept_rows(system, word_mask), _kept_rows(gold, word_mask)
        word_starts = list(accumulate(words, initial=0))
        fine = list(map(and_, _values_ok(gold, words, word_starts), _values_ok(system, words, word_starts)))
        if not all(fine):
            word_ok = list(chain.from_iterable(map(repeat, fine, words)))
            system, gold = _kept_rows(system, word_ok), _kept_rows(gold, word_ok)
            kept, words = list(compress(kept, fine)), list(compress(words, fine))
            word_starts = list(accumulate(words, initial=0))
        self._pairs = [texts[k][0] for k in kept]
        for k in self._pairs:
            self.passed[k] = True
        self._word_starts = word_starts
        self._tokens = [len(token_rows[k]) if k in token_rows else rows[k] for k in kept]
        self._system, self._gold = _word_columns(system), _word_columns(gold)

    def counts(self, chosen: Sequence[bool] | None = None) -> Counts:
        """Counts of the passed pairs (of those among them that ``chosen``
        marks, by batch position)."""
        if not self._pairs:
            return Counts()
        total = count_same_tokens(self._gold, self._system, self._word_starts[:-1],
                                  len(self._pairs), sum(self._tokens))
        left_out = [j for j, k in enumerate(self._pairs) if chosen is not None and not chosen[k]]
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
        starts = self._word_starts if self._pairs else []
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

def count_plain_pairs(pairs: Sequence[tuple[PlainSentence, PlainSentence]]) -> Counts:
    """The counts of (gold, system) plain sentences with the same tokens
    (equal ``tokens``), from the columns `read_plain` kept, without
    reading their text again."""
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
    if len(runs) == 1 and first == 0 and end == len(batch.upos):  # type: ignore[union-attr]
        return batch  # (the whole batch, in order: nothing to cut)
    out: list[list] = [[] for _ in _FIELDS]
    for columns, a, b in runs:
        for column, name in zip(out, _FIELDS):
            column += getattr(columns, name)[a:b]
    return WordColumns(*out)
