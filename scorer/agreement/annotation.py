"""One annotation of a text, read whole: its sentences and every word's cells.

An annotation is a CoNLL-U file.  It is read as `evaluate` reads one (the
tolerant reader: blocks cut at blank lines, undecodable bytes reported, a
binary file refused), and kept as columns: one list per CoNLL-U column
holding every word of the file in order (``upos[k]`` is the UPOS of the
file's k-th word), with where each sentence is.  A sentence is a slice of those
lists (`SentenceRecord`).  Columns are what agreement compares, and lists
of strings compare and code at C speed, a whole file at a time.

Most sentence blocks are *plain*: token lines with ten TAB-separated
columns, IDs 1..n, FORMs without spaces.  Those are cut into columns a batch
at a time with one ``str.split`` (the bulk lane's trick, `bulk.split_columns`)
and never parsed one by one.  Any other block (multiword tokens, empty
nodes, a malformed line) is parsed by the tolerant reader into a `Sentence`,
which is kept: aligning its words with another annotation's needs its
tokens.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from itertools import chain, compress
from operator import attrgetter, not_

import numpy as np

from ..conllu.bulk import split_columns
from ..conllu.columns import id_strings
from ..conllu.parse import parse_blocks, read_comments
from ..conllu.reader import ConlluFileReader
from ..conllu.sentence import Sentence
from ..conllu.text import has_spaces
from ..problems import Problem
from .coding import Coder

BATCH = 256  # blocks cut into columns together

# The columns kept, as the attribute names of `Annotation` and `Sentence`.
COLUMNS = ("form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps")


@dataclass(slots=True)
class SentenceRecord:
    sent_id: str | None
    first_line: int      # 0-based line of the block's first line
    token_line: int      # ... and of its first token line
    start: int           # its first word's index in the annotation's columns
    words: int
    # The parsed sentence, for blocks that are not plain (empty nodes,
    # format problems); None for plain ones.
    parsed: Sentence | None = None
    body: str = ""       # the block's text (parsed again for the few aligned word by word)
    # A plain block's multiword tokens: (first word, end word, FORM), 0-based,
    # and the rows of its words among its token lines (None: IDs 1..n, no ranges).
    mwts: tuple[tuple[int, int, str], ...] = ()
    word_rows: list[int] | None = None

    def line_of(self, word: int) -> int:
        """The line of its word ``word`` (0-based, in the sentence)."""
        if self.parsed is not None:
            return self.parsed.first_line + self.parsed.word_line[word]
        return self.token_line + (word if self.word_rows is None else self.word_rows[word])


# SentenceRecord's fields, in the order its constructor takes them.
RECORD_FIELDS = tuple(f.name for f in fields(SentenceRecord))


@dataclass
class Annotation:
    """A CoNLL-U file as columns (see the module's docstring)."""

    name: str            # how reports call it: "A", "B", ...
    path: str
    sha256: str = ""
    sentences: list[SentenceRecord] = field(default_factory=list)
    form: list[str] = field(default_factory=list)
    lemma: list[str] = field(default_factory=list)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    head: list[str] = field(default_factory=list)
    deprel: list[str] = field(default_factory=list)
    deps: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # between sentences (the reader's)
    # The columns other than FORM as codes, once read (`coded`): per word
    # an index into the column's distinct values.
    codes: dict[str, tuple[np.ndarray, list[str]]] = field(default_factory=dict)

    @property
    def words(self) -> int:
        return len(self.form)

    def __getstate__(self) -> dict:
        """Pickled with its sentence records as columns: `agree` reads large
        files in processes of their own, and pickling 12,544 records one by
        one (a dataclass with slots: a Python call each way per record) took
        0.2 s of CPU per 200k-word file, more than the rest of the annotation."""
        state = self.__dict__.copy()
        records = state.pop("sentences")
        state["sentence_columns"] = [list(map(attrgetter(name), records)) for name in RECORD_FIELDS]
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        columns = state.pop("sentence_columns")
        self.__dict__.update(state)
        self.sentences = list(map(SentenceRecord, *columns))

    def coded(self, name: str) -> tuple[np.ndarray, list[str]]:
        """A column (other than FORM) as (codes per word, distinct values)."""
        return self.codes[name]

    def cell(self, name: str, k: int) -> str:
        codes, names = self.codes[name]
        return names[codes[k]]

    def word_id(self, k: int, record: SentenceRecord) -> str:
        """The ID cell of the annotation's k-th word (in ``record``)."""
        if record.parsed is None:
            return str(k - record.start + 1)
        return record.parsed.line_id(k - record.start)

    def chars(self, record: SentenceRecord) -> str:
        """The sentence's characters: token forms without spaces, end to end
        (two annotations' words can be aligned only when these are equal)."""
        if record.parsed is not None:
            return record.parsed.chars
        forms = self.form[record.start:record.start + record.words]
        if not record.mwts:
            return "".join(forms)
        parts, i = [], 0
        for first, end, form in record.mwts:
            parts += forms[i:first]
            parts.append(form)
            i = end
        parts += forms[i:]
        return "".join(parts)

    def sentence(self, record: SentenceRecord) -> Sentence:
        """The record as a parsed `Sentence` (parsed now for a plain one)."""
        if record.parsed is not None:
            return record.parsed
        return parse_blocks(record.body, record.first_line)[0]


def read_annotation(path: str | os.PathLike[str], name: str) -> Annotation:
    """Read a CoNLL-U file.  Raises OSError, and `reader.BinaryFileError`
    for a file that is not text."""
    out = Annotation(name, os.fspath(path))
    reader = ConlluFileReader(path)
    coders = {name: Coder() for name in COLUMNS[1:]}
    batch: list[tuple[int, str]] = []
    for block in reader.blocks():
        batch.append(block)
        if len(batch) >= BATCH:
            _add_batch(out, batch)
            _code_batch(out, coders)
            batch = []
    _add_batch(out, batch)
    _code_batch(out, coders)
    out.sha256 = reader.sha256 or ""
    out.problems = reader.problems
    for name, coder in coders.items():
        out.codes[name] = coder.result()
    return out


def _code_batch(out: Annotation, coders: dict[str, Coder]) -> None:
    """Code the cells added since the last batch, and let their strings go
    (coding the whole file's at the end took about half the reading time,
    looking up cold strings, and kept every cell's string meanwhile)."""
    for name, coder in coders.items():
        cells = getattr(out, name)
        if cells:
            coder.add(cells)
            cells.clear()


def _add_batch(out: Annotation, blocks: list[tuple[int, str]]) -> None:
    """Cut a batch of blocks into columns: the plain ones (with or without
    multiword tokens) together, the others parsed one by one, in order."""
    entries: list[tuple[int, str, str | None, int]] = []  # first line, body, sent_id, first token line
    texts: list[str] = []
    for first_line, body in blocks:
        if body.startswith("#"):
            sent_id, pos = read_comments(body)
            if pos < 0:
                entries.append((first_line, body, sent_id, -1))  # comments only: no words
                continue
            texts.append(body[pos:])
            entries.append((first_line, body, sent_id, first_line + body.count("\n", 0, pos)))
        else:
            texts.append(body)
            entries.append((first_line, body, None, first_line))
    rows = [t.count("\n") + 1 for t in texts]
    columns = split_columns("\n".join(texts), sum(rows)) if texts else None
    if columns is None:
        if len(blocks) > 1:  # some line has not ten columns: block by block
            for block in blocks:
                _add_batch(out, [block])
        elif blocks:
            _add_parsed(out, *blocks[0])
        return
    ids, forms = columns[0], columns[1]
    forms_fine = "" not in forms and not has_spaces("".join(forms))
    if forms_fine and len(texts) == len(entries) and ids == list(chain.from_iterable(map(id_strings, rows))):
        # Every block plain, without multiword tokens: the columns as they are.
        start = len(out.form)
        records = out.sentences
        for (first_line, body, sent_id, token_line), n in zip(entries, rows):
            records.append(SentenceRecord(sent_id, first_line, token_line, start, n, None, body))
            start += n
        for name, column in zip(COLUMNS, columns[1:9]):
            getattr(out, name).extend(column)
        return
    run = _Run(out, columns)
    k = 0
    for first_line, body, sent_id, token_line in entries:
        if token_line < 0:
            run.flush()
            _add_parsed(out, first_line, body)
            continue
        n = rows[k]
        k += 1
        a = run.end
        run.end = b = a + n
        sentence_ids, sentence_forms = ids[a:b], forms[a:b]
        if not forms_fine and ("" in sentence_forms or has_spaces("".join(sentence_forms))):
            found = None
        elif sentence_ids == id_strings(n):
            found = (None, ())
        else:
            found = _multiword(sentence_ids, sentence_forms)
        if found is None:  # empty nodes, IDs out of order, a FORM with spaces: parsed
            run.skip(n)
            _add_parsed(out, first_line, body)
            continue
        word_rows, mwts = found
        run.take(sentence_ids if word_rows is not None else None, n)
        words = n if word_rows is None else len(word_rows)
        out.sentences.append(SentenceRecord(sent_id, first_line, token_line, run.next_word - words, words,
                                            None, body, mwts, word_rows))
    run.flush()


class _Run:
    """Rows of a batch taken into the annotation's columns: a run of plain
    sentences' word rows, added at once (`flush`) before a parsed sentence
    and at the end."""

    def __init__(self, out: Annotation, columns: list[list[str]]) -> None:
        self.out, self.columns = out, columns
        self.start = self.end = 0      # batch rows of the run; ``end``: the next row
        self.keep: list[bool] = []     # per row of the run: a word to take
        self.pending = 0               # words taken, not added yet

    @property
    def next_word(self) -> int:
        """The annotation's index of the word after those taken so far."""
        return len(self.out.form) + self.pending

    def take(self, ids: list[str] | None, n: int) -> None:
        """The last n rows are a plain sentence's (``ids``: its ID cells when
        it has multiword ranges, which are not words)."""
        if ids is None:
            self.keep += [True] * n
            self.pending += n
        else:
            marks = list(map(str.isdecimal, ids))
            self.keep += marks
            self.pending += sum(marks)

    def skip(self, n: int) -> None:
        self.keep += [False] * n
        self.flush()

    def flush(self) -> None:
        a, b = self.start, self.start + len(self.keep)
        if b > a:
            everything = all(self.keep)
            for name, column in zip(COLUMNS, self.columns[1:9]):
                part = column[a:b]
                getattr(self.out, name).extend(part if everything else compress(part, self.keep))
        self.start, self.keep, self.pending = b, [], 0


def _multiword(ids: list[str], forms: list[str]) -> tuple[list[int], tuple] | None:
    """Word rows and multiword tokens of a sentence whose IDs have ranges:
    words 1..n in order, each range ``a-b`` right before its words (as
    `columns.plain_multiword_rows`); None otherwise (empty nodes, IDs out
    of order: the sentence is parsed)."""
    is_word = list(map(str.isdecimal, ids))
    word_rows = list(compress(range(len(ids)), is_word))
    if list(compress(ids, is_word)) != id_strings(len(word_rows)):
        return None
    mwts = []
    for r in compress(range(len(ids)), map(not_, is_word)):
        first, dash, last = ids[r].partition("-")
        if not (dash and first.isdecimal() and last.isdecimal()):
            return None
        a, b = int(first), int(last)
        end = r + 1 + b - a
        if b < a or end >= len(ids) or ids[r + 1] != first or ids[end] != last or not all(is_word[r + 1:end + 1]):
            return None
        mwts.append((a - 1, b, forms[r]))
    return word_rows, tuple(mwts)


def _add_parsed(out: Annotation, first_line: int, body: str) -> None:
    for sentence in parse_blocks(body, first_line):
        if not sentence.form:
            continue  # comments without token lines: no words to compare
        start = len(out.form)
        out.sentences.append(SentenceRecord(sentence.sent_id, sentence.first_line, sentence.first_line, start,
                                            len(sentence.form), sentence, sentence.body))
        for name in COLUMNS:
            getattr(out, name).extend(getattr(sentence, name))

