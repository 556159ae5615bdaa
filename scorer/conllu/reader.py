"""A tolerant CoNLL-U reader: never raises on bad input.

Reading happens in two steps.

1. **Blocks.**  The text is cut at blank lines into sentence blocks
   (`BlockSplitter`).  Everything that is wrong *between* sentences is noticed
   here: several blank lines in a row (the official scorer reads an empty
   sentence there and refuses the file), lines of only whitespace, a file that
   does not end with a blank line, a byte-order mark, bytes that are not
   UTF-8.  The splitter works on a stream of text chunks, so a large file is
   never held in memory, and on a whole text (the editor's buffer).

2. **Sentences.**  Each block becomes a `Sentence` (`parse_block`).  A
   well-formed block (ten tab-separated columns on every token line, no
   comment among the token lines) is taken apart without a Python loop over
   its lines: ``block.split("\\t")`` puts the k-th line's FORM at index
   ``9k + 1``, its LEMMA at ``9k + 2`` and so on, because the newline between
   two lines ends up inside one field (``MISC\\nID``).  A block that breaks that
   shape goes through a line-by-line path that reports each problem with its
   line and column and repairs what it can (spaces instead of tabs, missing or
   extra columns) so the rest of the sentence can still be checked and scored.

Where a line is ambiguous the reader follows the official ``conll18_ud_eval.py``
(a multiword range takes the next N non-empty-node lines as its words, IDs
and HEADs are read with ``int()``), so the sentences it scores are the ones
the official script would score; every condition under which that script
refuses a file is reported as a problem with ``refuses=True``.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from functools import lru_cache
from itertools import compress, repeat
from operator import contains, itemgetter, not_
from typing import Iterable, Iterator

from ..binary import HEAD_BYTES, binary_problem, file_binary_problem, text_binary_problem
from ..excerpt import quoted
from ..problems import Problem, Severity
from .sentence import DEPS, FORM, HEAD, ID, MultiwordToken, Sentence
from .text import has_spaces, strip_spaces

CHUNK_SIZE = 64 << 10  # small enough that a chunk and the blocks cut from it stay in the core's cache

_SURROGATE = re.compile("[\udc80-\udcff]")
_EMPTY_NODE_ID = re.compile(r"[0-9]+\.[0-9]+")

# "1", "2", ... so that a sentence's ID column can be checked with one list
# comparison instead of a loop.
_ID_STRINGS: list[str] = []


def _id_strings(n: int) -> list[str]:
    if len(_ID_STRINGS) < n:
        _ID_STRINGS.extend(str(i) for i in range(len(_ID_STRINGS) + 1, n + 1))
    return _ID_STRINGS[:n] if n < len(_ID_STRINGS) else _ID_STRINGS


class BinaryFileError(ValueError):
    """The input is not a text file (NUL bytes, compressed, UTF-16 ...):
    ``problem`` says what it is and where (see `scorer.binary`)."""

    def __init__(self, path: str, problem: Problem) -> None:
        super().__init__(f"{problem.location(path)}: {problem.message}")
        self.problem = problem


def cell_span(line: str, column: int) -> tuple[int, int]:
    """Start and end offsets of a column (0-9) in a token line.

    Lines that use spaces instead of tabs are split on runs of whitespace, as
    the reader does.  A column the line does not have gives the line's end.
    """
    if line.count("\t") >= 9 or " " not in line.strip():
        start = 0
        for _ in range(column):
            tab = line.find("\t", start)
            if tab < 0:
                return len(line), len(line)
            start = tab + 1
        end = line.find("\t", start)
        return start, len(line) if end < 0 else end
    spans = [m.span() for m in re.finditer(r"\S+", line)]
    if column < len(spans):
        return spans[column]
    return len(line), len(line)


# --------------------------------------------------------------------------
# Step 1: blocks
# --------------------------------------------------------------------------


class BlockSplitter:
    """Cuts text into sentence blocks, reporting problems between sentences.

    ``feed`` takes text chunks (newlines already ``\\n``) and returns the
    blocks completed so far as ``(first_line, text)``; ``finish`` returns the
    rest.  ``problems`` collects what was found, with absolute lines.
    """

    def __init__(self, first_line: int = 0, at_file_start: bool = True) -> None:
        self.line = first_line
        self.problems: list[Problem] = []
        # Text after the last blank line, in the pieces it came in: joined
        # only once a blank line ends it, so that a block longer than many
        # chunks (a file without blank lines) costs linear time, not quadratic.
        self._pending: list[str] = []
        # A byte-order mark only counts at the very start of a file.
        self._started = not at_file_start

    def feed(self, chunk: str) -> list[tuple[int, str]]:
        if not self._started and chunk:
            self._started = True
            if chunk.startswith("\ufeff"):
                chunk = chunk[1:]
                self.problems.append(Problem(
                    "format-bom", "the file starts with a byte-order mark; the official scorer "
                    "refuses it", self.line, 0, 1, Severity.WARNING, refuses=True))
        pending = self._pending
        if "\n\n" not in chunk:  # (one across the boundary is found with the next one)
            if chunk:
                pending.append(chunk)
            return []
        buf = "".join(pending) + chunk if pending else chunk
        end = buf.rfind("\n\n")
        # Cut before the whole run of newlines, so that a run of blank lines
        # split over two chunks is still seen as one run.
        while end > 0 and buf[end - 1] == "\n":
            end -= 1
        rest = buf[end + 2:]
        self._pending = [rest] if rest else []
        return self._elements(buf[:end].split("\n\n"), final=False)

    def finish(self) -> list[tuple[int, str]]:
        buf, self._pending = "".join(self._pending), []
        if not buf:
            return []
        blocks = self._elements(buf.split("\n\n"), final=True)
        # Each element counted the blank line after it; the last has none.
        # Now ``line`` is first_line plus the line ends read.
        self.line -= 2
        return blocks

    def _elements(self, elements: list[str], final: bool) -> list[tuple[int, str]]:
        blocks: list[tuple[int, str]] = []
        last = len(elements) - 1
        for k, element in enumerate(elements):
            line = self.line
            self.line += element.count("\n") + 2
            if final and k == last:
                if not element:
                    break  # the file ended with its blank line: good
                if not element.strip("\n"):
                    self._extra_blank_lines(line, element.count("\n"))
                    break
            body = element.lstrip("\n")
            if len(body) != len(element):
                self._extra_blank_lines(line, len(element) - len(body))
                line += len(element) - len(body)
            elif not element:
                self._extra_blank_lines(line, 2)
                continue
            if final and k == last:
                stripped = body.rstrip("\n")
                last_line = line + stripped.count("\n")
                self.problems.append(Problem(
                    "format-final-blank-line",
                    "the file does not end with a blank line after the last sentence; "
                    "the official scorer refuses it", last_line, 0, len(stripped) - stripped.rfind("\n") - 1,
                    refuses=True))
                body = stripped
            blocks.append((line, body))
        return blocks

    def _extra_blank_lines(self, line: int, count: int) -> None:
        self.problems.append(Problem(
            "format-empty-sentence",
            "more than one blank line between sentences; the official scorer reads an "
            "empty sentence here and refuses the file" if count == 1 else
            f"{count} extra blank lines; the official scorer reads an empty sentence here "
            "and refuses the file",
            line, 0, 0, refuses=True))


def encoding_problems(first_line: int, text: str) -> tuple[str, list[Problem]]:
    """Report undecodable bytes (read as lone surrogates) and replace them."""
    problems = []
    seen_lines = set()
    for match in _SURROGATE.finditer(text):
        pos = match.start()
        line = text.count("\n", 0, pos)
        if line in seen_lines:
            continue
        seen_lines.add(line)
        col = pos - (text.rfind("\n", 0, pos) + 1)
        byte = ord(match.group()) - 0xDC00
        problems.append(Problem(
            "format-encoding", f"byte 0x{byte:02X} is not valid UTF-8 (read as U+FFFD)",
            first_line + line, col, col + 1))
    return _SURROGATE.sub("\ufffd", text), problems


# --------------------------------------------------------------------------
# Step 2: one sentence
# --------------------------------------------------------------------------


class _WhitespaceLine(Exception):
    """A line of only whitespace inside a block: it separates two sentences."""


# A line after the first one that holds only whitespace (a leading literal
# newline keeps the regex engine's search fast).
_WHITESPACE_LINE = re.compile(r"\n[^\S\n]*(?:\n|$)")


def holds_one_sentence(body: str) -> bool:
    """True when no line of the block is only whitespace, so that
    `parse_blocks` reads exactly one sentence from it."""
    nl = body.find("\n")
    if not (body[:nl] if nl >= 0 else body).strip():
        return False
    return _WHITESPACE_LINE.search(body) is None


def block_sent_id(body: str) -> str | None:
    """The ``sent_id`` of a block, read from its leading comments exactly as
    `parse_block` reads it, without parsing the rest."""
    return read_comments(body)[0] if body.startswith("#") else None


def read_comments(body: str) -> tuple[str | None, int]:
    """A block's ``sent_id`` (see `block_sent_id`) and where its lines after
    the leading comments start (-1 when there are none): one walk over the
    comments for both."""
    sent_id = None
    pos = 0
    while body.startswith("#", pos):
        nl = body.find("\n", pos)
        if body.startswith(("# sent_id", "#sent_id"), pos):  # only these lines are cut out
            key, sep, value = (body[pos + 1:] if nl < 0 else body[pos + 1:nl]).partition("=")
            if sep and key.strip() == "sent_id":
                sent_id = value.strip()
        if nl < 0:
            return sent_id, -1
        pos = nl + 1
    return sent_id, pos


def parse_blocks(body: str, first_line: int = 0) -> list[Sentence]:
    """Parse a block into its sentence, or several sentences when lines of only
    whitespace separate them (those lines are reported as problems)."""
    try:
        return [parse_block(body, first_line)]
    except _WhitespaceLine:
        pass
    sentences: list[Sentence] = []
    pending: list[Problem] = []
    current: list[str] = []
    start = first_line
    for offset, text in enumerate(body.split("\n") + [""]):
        if text.strip():
            if not current:
                start = first_line + offset
            current.append(text)
            continue
        if offset < body.count("\n") + 1:
            pending.append(Problem(
                "format-blank-line", "this line holds only whitespace; it should be empty "
                "(the official scorer reads it as a token line and refuses the file)",
                first_line + offset, 0, len(text), refuses=True))
        if current:
            sentence = parse_block("\n".join(current), start)
            sentences.append(sentence)
            current = []
    # Each problem goes with the sentence before it (or the first one).
    for problem in pending:
        owner = sentences[0] if sentences else None
        for sentence in sentences:
            if sentence.first_line < problem.line:
                owner = sentence
        if owner is not None:
            owner.problems.append(problem.shifted(-owner.first_line))
    return sentences


def parse_block(body: str, first_line: int = 0, careful: bool = False) -> Sentence:
    """Parse one sentence block (no blank lines in it).

    ``careful`` forces the line-by-line path (the tests hold both paths to the
    same result).  Raises `_WhitespaceLine` when a line of only whitespace
    splits the block; `parse_blocks` handles that.
    """
    sentence = Sentence()
    sentence.first_line = first_line
    sentence.body = body
    pos = 0
    if body.startswith("#"):
        comments = sentence.comments
        while body.startswith("#", pos):
            nl = body.find("\n", pos)
            if nl < 0:
                comments.append(body[pos:])
                pos = len(body)
                break
            comments.append(body[pos:nl])
            pos = nl + 1
        _read_comments(sentence)
        if pos >= len(body):
            sentence.problems.append(Problem(
                "format-empty-sentence", "comments without any token line; the official scorer "
                "reads an empty sentence here and refuses the file", 0, 0, len(comments[0]),
                refuses=True))
            return sentence
    c = len(sentence.comments)
    token_text = body[pos:] if pos else body
    flat = token_text.split("\t")
    n, rest = divmod(len(flat) - 1, 9)
    if not careful and rest == 0 and n and token_text.count("\n") == n - 1 and (
            n == 1 or all(map(contains, flat[9:9 * n:9], repeat("\n")))):
        # Every token line has exactly ten columns: the newline between two
        # lines sits inside field 9k ("MISC\nID"), and nowhere else.
        if n > 1:
            merged = "\n".join(flat[9:9 * n:9]).split("\n")
            ids = [flat[0]]
            ids += merged[1::2]
            misc = merged[0::2]
            misc.append(flat[9 * n])
        else:
            ids, misc = [flat[0]], [flat[9]]
        rows_columns = [ids, flat[1::9], flat[2::9], flat[3::9], flat[4::9], flat[5::9],
                        flat[6::9], flat[7::9], flat[8::9], misc]
        row_lines: list[int] | range = range(c, c + n)
        if ids == _id_strings(n):
            # Words 1..n and nothing else: the common case.
            (_, sentence.form, sentence.lemma, sentence.upos, sentence.xpos, sentence.feats,
             sentence.head, sentence.deprel, sentence.deps, sentence.misc) = rows_columns
            sentence.word_line = row_lines
            _finish(sentence)
            return sentence
        if any(i.startswith("#") for i in ids):
            rows_columns, row_lines = _split_lines_one_by_one(sentence, c)
    else:
        rows_columns, row_lines = _split_lines_one_by_one(sentence, c)

    ids = rows_columns[ID]
    token_rows = None
    if ids == _id_strings(len(ids)):
        word_rows = None
        sentence.word_line = row_lines
    else:
        plain = None if careful else _plain_multiword_rows(ids)
        if plain is not None:
            word_rows, token_rows = plain
            forms = rows_columns[FORM]
            mwts = sentence.mwts
            for r in token_rows:
                first, dash, last = ids[r].partition("-")
                if dash:
                    mwts.append(MultiwordToken(int(first) - 1, int(last), forms[r], row_lines[r]))
        else:
            word_rows = _walk_ids(sentence, ids, rows_columns[FORM], row_lines)
        sentence.word_line = [row_lines[r] for r in word_rows]
    columns = rows_columns if word_rows is None else _select(rows_columns, word_rows)
    (_, sentence.form, sentence.lemma, sentence.upos, sentence.xpos, sentence.feats,
     sentence.head, sentence.deprel, sentence.deps, sentence.misc) = columns
    _finish(sentence, None if token_rows is None else _select([rows_columns[FORM]], token_rows)[0])
    return sentence


def _finish(sentence: Sentence, token_forms: list[str] | None = None) -> None:
    """Read HEADs, the characters of the tokens, and DEPS."""
    _read_heads(sentence)
    if token_forms is None:
        _read_forms(sentence)
    else:
        _read_token_forms(sentence, token_forms)
    if sentence.deps.count("_") != len(sentence.deps):
        _check_deps(sentence)


def _plain_multiword_rows(ids: list[str]) -> tuple[list[int], list[int]] | None:
    """Rows of words and rows of tokens when the IDs are well formed: words
    1..n in order, each range ``a-b`` right before its words ``a`` .. ``b``,
    no empty nodes.  None otherwise (the careful walk then reports why)."""
    is_word = list(map(str.isdecimal, ids))
    word_rows = list(compress(range(len(ids)), is_word))
    if list(compress(ids, is_word)) != _id_strings(len(word_rows)):
        return None
    # The words are 1..n in order, so a range is right before its words
    # when the rows after it are all words and the first and last of them
    # are a and b.
    is_token = [True] * len(ids)
    for r in compress(range(len(ids)), map(not_, is_word)):
        first, dash, last = ids[r].partition("-")
        if not (dash and first.isdecimal() and last.isdecimal()):
            return None
        a, b = int(first), int(last)
        end = r + 1 + b - a
        if (b < a or end >= len(ids) or ids[r + 1] != str(a) or ids[end] != str(b)
                or not all(is_word[r + 1:end + 1])):
            return None
        is_token[r + 1:end + 1] = repeat(False, b - a + 1)
    return word_rows, list(compress(range(len(ids)), is_token))


def _select(rows_columns: list[list[str]], rows: list[int]) -> list[list[str]]:
    if not rows:
        return [[] for _ in rows_columns]
    if len(rows) == 1:
        return [[column[rows[0]]] for column in rows_columns]
    pick = itemgetter(*rows)
    return [list(pick(column)) for column in rows_columns]


_KNOWN_COMMENTS = ("# sent_id", "#sent_id", "# text", "#text")


def _read_comments(sentence: Sentence) -> None:
    for comment in sentence.comments:
        if not comment.startswith(_KNOWN_COMMENTS):
            continue
        key, sep, value = comment[1:].partition("=")
        if not sep:
            continue
        key = key.strip()
        if key == "sent_id":
            sentence.sent_id = value.strip()
        elif key == "text" and sentence.text is None:
            sentence.text = value[1:] if value.startswith(" ") else value


def _split_lines_one_by_one(sentence: Sentence, c: int) -> tuple[list[list[str]], list[int]]:
    """The careful path: each token line on its own, problems reported and repaired."""
    lines = sentence.lines
    rows: list[list[str]] = []
    row_lines: list[int] = []
    problems = sentence.problems
    for r in range(c, len(lines)):
        line = lines[r]
        if not line.strip():
            raise _WhitespaceLine
        if line.startswith("#"):
            sentence.comments.append(line)
            problems.append(Problem(
                "format-comment-position", "a comment among the token lines; comments belong "
                "before the first token line (the official scorer refuses this)",
                r, 0, len(line), refuses=True))
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            spaced = line.split()
            if len(spaced) == 10 and len(cols) < 10:
                problems.append(Problem(
                    "format-spaces", "columns are separated by spaces; CoNLL-U needs one TAB "
                    "between columns (the official scorer refuses this line)",
                    r, 0, len(line), refuses=True))
                cols = spaced
            else:
                problems.append(Problem(
                    "format-columns", f"{len(cols)} tab-separated columns; a token line needs "
                    "exactly 10 (the official scorer refuses this line)",
                    r, 0, len(line), refuses=True))
                if len(cols) < 10:
                    cols = cols + ["_"] * (10 - len(cols))
                else:
                    cols = cols[:9] + ["\t".join(cols[9:])]
        rows.append(cols)
        row_lines.append(r)
    if not rows:
        return [[] for _ in range(10)], row_lines
    return [list(col) for col in zip(*rows)], row_lines


def _walk_ids(sentence: Sentence, ids: list[str], forms: list[str], row_lines) -> list[int]:
    """Find words, multiword ranges and empty nodes from the ID column.

    Follows the official scorer: an ID with '.' is an empty node (skipped), an
    ID with '-' is a range ``a-b`` that takes the next ``b-a+1`` lines that
    are not empty nodes as its words, whatever their IDs; every other line is
    a word whose ID must be the number of words so far plus one.
    """
    problems = sentence.problems
    lines = sentence.lines
    words: list[int] = []
    i, n = 0, len(ids)
    while i < n:
        rid = ids[i]
        line = row_lines[i]
        if "." in rid:
            sentence.empty_lines.append(line)
            if not _EMPTY_NODE_ID.fullmatch(rid):
                problems.append(Problem("format-id", f"{quoted(rid)} is not a valid empty-node ID (N.M)",
                                        line, *_id_span(lines[line]), Severity.WARNING))
            i += 1
            continue
        if "-" in rid:
            try:
                first, last = map(int, rid.split("-"))
            except ValueError:
                problems.append(Problem(
                    "format-id", f"cannot read the multiword range {quoted(rid)} (expected N-M)",
                    line, *_id_span(lines[line]), refuses=True))
                first, last = len(words) + 1, len(words)
            expected = last - first + 1
            members: list[int] = []
            j = i + 1
            while len(members) < expected:
                if j >= n:
                    problems.append(Problem(
                        "format-mwt", f"the multiword token {quoted(rid)} has {len(members)} of its "
                        f"{expected} words before the sentence ends (the official scorer refuses this)",
                        line, *_id_span(lines[line]), refuses=True))
                    break
                if "." in ids[j]:
                    sentence.empty_lines.append(row_lines[j])
                else:
                    members.append(j)
                j += 1
            if first != len(words) + 1 or [ids[m] for m in members] != [
                    str(k) for k in range(first, first + len(members))]:
                problems.append(Problem(
                    "format-mwt", f"the multiword token {quoted(rid)} should be followed by words "
                    f"{len(words) + 1}-{len(words) + max(expected, 1)}",
                    line, *_id_span(lines[line]), Severity.WARNING))
            form = forms[i]
            if not strip_spaces(form):
                problems.append(_empty_form(lines[line], line))
            sentence.mwts.append(MultiwordToken(len(words), len(words) + len(members), form, line))
            words.extend(members)
            i = j
            continue
        try:
            value = int(rid)
        except ValueError:
            problems.append(Problem("format-id", f"cannot read the word ID {quoted(rid)}",
                                    line, *_id_span(lines[line]), refuses=True))
        else:
            if value != len(words) + 1:
                problems.append(Problem(
                    "format-id-order", f"word ID {rid}, expected {len(words) + 1} "
                    "(the official scorer refuses this)",
                    line, *_id_span(lines[line]), refuses=True))
        words.append(i)
        i += 1
    return words


def _id_span(line: str) -> tuple[int, int]:
    return cell_span(line, ID)


def _empty_form(line_text: str, line: int) -> Problem:
    return Problem("format-empty-form", "FORM is empty (the official scorer refuses this)",
                   line, *cell_span(line_text, FORM), refuses=True)


def _read_heads(sentence: Sentence) -> None:
    try:
        heads: list[int | None] = list(map(int, sentence.head))
    except ValueError:
        heads = []
        for i, value in enumerate(sentence.head):
            try:
                heads.append(int(value))
            except ValueError:
                heads.append(None)
                if value != "_":
                    line = sentence.word_line[i]
                    sentence.problems.append(Problem(
                        "format-head", f"HEAD {quoted(value)} is not a number (the official scorer "
                        "refuses this)", line, *cell_span(sentence.lines[line], HEAD), refuses=True))
        if min((h for h in heads if h is not None), default=0) < 0:
            _negative_heads(sentence, heads)
    else:
        if heads and min(heads) < 0:
            _negative_heads(sentence, heads)
    sentence.heads = heads


def _negative_heads(sentence: Sentence, heads: list[int | None]) -> None:
    for i, value in enumerate(heads):
        if value is not None and value < 0:
            heads[i] = None
            line = sentence.word_line[i]
            sentence.problems.append(Problem(
                "format-head", f"HEAD {value} is negative (the official scorer refuses this)",
                line, *cell_span(sentence.lines[line], HEAD), refuses=True))


def _read_token_forms(sentence: Sentence, token_forms: list[str]) -> None:
    """Characters and empty-form checks from the forms of the tokens (multiword
    range lines and the words outside them)."""
    joined = "".join(token_forms)
    spaces = has_spaces(joined)
    sentence.chars = strip_spaces(joined) if spaces else joined
    if "" in token_forms or spaces:
        _read_forms(sentence)


def _read_forms(sentence: Sentence) -> None:
    forms = sentence.form
    if not sentence.mwts:
        joined = "".join(forms)
        spaces = has_spaces(joined)
        sentence.chars = strip_spaces(joined) if spaces else joined
        if "" in forms or spaces:
            for i, form in enumerate(forms):
                if not strip_spaces(form):
                    line = sentence.word_line[i]
                    sentence.problems.append(_empty_form(sentence.lines[line], line))
        return
    # Words inside a multiword token are not tokens: the official scorer
    # neither checks nor counts their forms.
    in_mwt = set()
    for mwt in sentence.mwts:
        in_mwt.update(range(mwt.first, mwt.end))
    for i, form in enumerate(forms):
        if i not in in_mwt and not strip_spaces(form):
            line = sentence.word_line[i]
            sentence.problems.append(_empty_form(sentence.lines[line], line))
    sentence.chars = "".join(form for form, _, _, _ in sentence.token_forms())


@lru_cache(maxsize=1 << 16)
def parse_deps(deps: str) -> tuple[tuple[int | None, tuple[str, ...]], ...]:
    """Enhanced dependencies ``4:nsubj|6:conj>obj`` → ((4, ('nsubj',)), (6, ('conj', 'obj'))).

    A head with '.' (an empty node) gives None: the official scorer drops those
    edges.  Raises ValueError on text it cannot read.
    """
    if deps == "_" or not deps:
        return ()
    edges = []
    for edge in deps.split("|"):
        head, path = edge.split(":", 1)
        edges.append((None if "." in head else int(head), tuple(path.split(">"))))
    return tuple(edges)


def _deps_extent(deps: str) -> int:
    """The largest head in a DEPS value, -1 if it cannot be read, -2 if a head is negative."""
    try:
        edges = parse_deps(deps)
    except ValueError:
        return -1
    heads = [h for h, _ in edges if h is not None]
    if heads and min(heads) < 0:
        return -2
    # Capped so that callers may hold it in an int64 (past any sentence's length anyway).
    return min(max(heads, default=0), DEPS_EXTENT_CAP)


DEPS_EXTENT_CAP = 1 << 40


class _DepsExtents(dict):
    """Memo of `_deps_extent` (lookups of known values stay at C speed)."""

    def __missing__(self, deps: str) -> int:
        if len(self) > 1 << 18:
            self.clear()
        value = self[deps] = _deps_extent(deps)
        return value


_DEPS_EXTENTS = _DepsExtents()


def _check_deps(sentence: Sentence) -> None:
    n = len(sentence.form)
    extents = list(map(_DEPS_EXTENTS.__getitem__, sentence.deps))
    if min(extents) >= 0 and max(extents) <= n:
        return
    for i, extent in enumerate(extents):
        if 0 <= extent <= n:
            continue
        deps = sentence.deps[i]
        if extent == -1:
            message = f"DEPS {quoted(deps)} is not a list of HEAD:DEPREL pairs"
        else:
            message = f"a DEPS head in {quoted(deps)} is outside the sentence (0-{n})"
        line = sentence.word_line[i]
        sentence.problems.append(Problem(
            "format-deps", message + " (the official scorer stops on this)",
            line, *cell_span(sentence.lines[line], DEPS), refuses=True))


# --------------------------------------------------------------------------
# Whole texts and files
# --------------------------------------------------------------------------


class ConlluDocument:
    """Sentences of a whole text, and the problems found between sentences."""

    def __init__(self, sentences: list[Sentence], problems: list[Problem]) -> None:
        self.sentences = sentences
        self.problems = problems  # between sentences, absolute lines

    def all_problems(self) -> list[Problem]:
        out = list(self.problems)
        for sentence in self.sentences:
            out.extend(sentence.absolute_problems())
        out.sort(key=lambda p: (p.line, p.start))
        return out


def normalize_newlines(text: str, lone_cr_ends_lines: bool = True) -> str:
    """CRLF and lone CR become LF, as Python's universal newlines (and the
    LSP) read them.  ``lone_cr_ends_lines=False``: only CRLF does; a lone
    CR stays in its line as a character, as editors such as Neovim and
    Emacs keep it (see `lone_cr_problems`)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if lone_cr_ends_lines:
            text = text.replace("\r", "\n")
    return text


def lone_cr_problems(lines: list[str]) -> list[Problem]:
    """``format-newline`` on each carriage return left inside a line (lines
    relative to the caller's first)."""
    out = []
    for number, line in enumerate(lines):
        column = line.find("\r")
        while column >= 0:
            out.append(Problem(
                "format-newline", "a lone carriage return (CR) inside the line: this editor keeps it as a "
                "character, while evaluate, the official scorer and the UD validator read it as a line "
                "break (the validator's non-unix-newline); remove it", number, column, column + 1,
                Severity.WARNING))
            column = line.find("\r", column + 1)
    return out


def iter_blocks(text: str) -> tuple[list[tuple[int, str]], list[Problem]]:
    """Blocks of a whole text (already in memory)."""
    splitter = BlockSplitter()
    text = normalize_newlines(text)
    blocks = splitter.feed(text)
    blocks += splitter.finish()
    return blocks, splitter.problems


def read_text(text: str) -> ConlluDocument:
    """Read CoNLL-U from a string."""
    problems: list[Problem] = []
    binary = text_binary_problem(text)
    if binary is not None:
        return ConlluDocument([], [binary])
    if _SURROGATE.search(text):
        text, problems = encoding_problems(0, text)
    blocks, block_problems = iter_blocks(text)
    sentences = [s for line, body in blocks for s in parse_blocks(body, line)]
    return ConlluDocument(sentences, problems + block_problems)


class _ByteRange(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a file, hashed on the way when asked
    (so that a signature needs no second pass over a large file)."""

    def __init__(self, raw: io.BufferedReader, start: int, end: int | None, digest=None) -> None:
        super().__init__()
        self.raw = raw
        self.remaining = None if end is None else end - start
        self.digest = digest
        self.position = start
        raw.seek(start)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        view = memoryview(buffer)
        if self.remaining is not None:
            view = view[:self.remaining]
        n = self.raw.readinto(view)
        if n:
            if self.remaining is not None:
                self.remaining -= n
            if self.digest is not None:
                self.digest.update(view[:n])
            self.position += n
        return n


class ConlluFileReader:
    """Streams the sentences of a file, collecting file-level problems.

    Iterate over it for sentences; ``problems`` is complete once the
    iteration ends.  Raises `BinaryFileError` on a file that is not text
    (at the start, or at the first chunk with a NUL byte) and OSError when
    the file cannot be read.

    ``start``/``end`` (byte offsets, at sentence boundaries) and
    ``first_line`` read part of a file, for scoring in parallel.  Reading a
    whole file also computes its SHA-256 (``sha256``).
    """

    def __init__(self, path: str | os.PathLike[str], chunk_size: int = CHUNK_SIZE,
                 start: int = 0, end: int | None = None, first_line: int = 0) -> None:
        self.path = os.fspath(path)
        self.chunk_size = chunk_size
        self.start, self.end, self.first_line = start, end, first_line
        self.problems: list[Problem] = []
        self.bytes_read = 0
        self.sha256: str | None = None
        self.lines: int | None = None  # line ends read, once the iteration ends

    def __iter__(self) -> Iterator[Sentence]:
        for line, body in self.blocks():
            yield from parse_blocks(body, line)

    def blocks(self) -> Iterator[tuple[int, str]]:
        """The sentence blocks as ``(first_line, text)``, not parsed yet
        (undecodable bytes already replaced and reported)."""
        whole = self.start == 0 and self.end is None
        splitter = BlockSplitter(self.first_line, at_file_start=self.start == 0)
        digest = hashlib.sha256() if whole else None
        with open(self.path, "rb") as raw:
            binary = binary_problem(raw.read(HEAD_BYTES))
            if binary is not None:
                raise BinaryFileError(self.path, binary)
            part = _ByteRange(raw, self.start, self.end, digest)
            stream = io.TextIOWrapper(io.BufferedReader(part, 1 << 16), encoding="utf-8",
                                      errors="surrogateescape", newline=None)
            while True:
                chunk = stream.read(self.chunk_size)
                self.bytes_read = part.position
                if not chunk:
                    break
                if "\x00" in chunk:  # anywhere in the file: say where its first NUL is
                    raise BinaryFileError(self.path, file_binary_problem(self.path) or binary_problem(b"\x00"))
                yield from self._decoded(splitter.feed(chunk))
            yield from self._decoded(splitter.finish())
        if digest is not None:
            self.sha256 = digest.hexdigest()
        self.lines = splitter.line - self.first_line
        self.problems = splitter.problems + self.problems
        self.problems.sort(key=lambda p: (p.line, p.start))

    def _decoded(self, blocks: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
        for line, body in blocks:
            if not body.isascii() and _SURROGATE.search(body):
                body, problems = encoding_problems(line, body)
                self.problems.extend(problems)
            yield line, body
