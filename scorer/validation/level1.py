"""Level 1: the CoNLL-U backbone of one sentence (lines, columns, IDs).

A *sentence* here is what the official validator reads as one: the lines up
to and including the next empty or whitespace-only line (its terminator).
`ValidatedSentence` holds those lines, the incidents found so far and what later
levels need.  The checks run in the validator's order and return whether
the sentence may be checked further: a sentence with level-1 errors is not
(with the validator's one exception: an unterminated last sentence that has
token lines goes on whatever else was wrong).

Fast path: most sentences are clean, so each check first asks one cheap
question of the whole sentence (is there whitespace other than tabs? an
empty cell? an ID that is not the next integer?) and does the per-line work
of the official check only when the answer is yes.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from annoscore.scorer.conllu import lane
from annoscore.scorer.excerpt import quoted
from annoscore.scorer.columns import COLUMN_NAMES, DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, UPOS, XPOS
from annoscore.scorer.validation.chars import (EMPTY_ID, MWT_ID, NON_TAB_SPACE, SENT_ID, WORD_ID, WS, WS2, cell_span,
                                     is_whitespace_line)
from annoscore.scorer.validation.incident import Incident
from annoscore.scorer.validation.registry import checks

# "1", "2", ...: a sentence whose IDs are exactly these has a valid ID sequence.
_NUMBERS = [str(i) for i in range(4096)]


class ValidatedSentence:
    """One sentence being validated; lines are relative to the block."""

    __slots__ = ("lines", "first", "bom", "comment_start", "sentence_line",
                 "rows", "cols", "heads", "out", "sent_id", "keep")

    def __init__(self, lines: list[str], first: int, bom: bool, keep: frozenset[str]) -> None:
        self.lines = lines              # including the terminator when there is one
        self.first = first              # block-relative line of lines[0]
        self.bom = bom                  # lines[0] is the file's first line and starts with U+FEFF
        self.comment_start = first
        self.sentence_line = first      # first line that is not a comment
        self.rows: list[list[str]] = []  # token lines split into cells
        self.cols: tuple | None = None   # the same by column, when the quick way made them
        # [None, HEAD of word 1, ...] when the compiled quick way found the HEADs
        # a tree, False when it found them none; None: not looked at.
        self.heads: list | bool | None = None
        self.out: list[Incident] = []
        self.sent_id: str | None = None
        self.keep = keep

    def text_of(self, line: int) -> str:
        index = line - self.first
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def add(self, test_id: str, line: int, message: str,
            span: tuple[int, int] | None = None, related: tuple = ()) -> None:
        if test_id not in self.keep:
            return
        if span is None:
            span = (0, len(self.text_of(line)))
        start, end = span
        if self.bom and line == self.first:
            # Columns count from after the byte-order mark, as editors show the line.
            start, end = max(0, start - 1), max(0, end - 1)
        self.out.append(Incident(test_id, message, line, start, end, self.sent_id, related))

    def add_cell(self, test_id: str, line: int, column: int, message: str) -> None:
        if test_id in self.keep:
            self.add(test_id, line, message, cell_span(self.text_of(line), column))


_TABS = itertools.repeat("\t")
_BLANKS = itertools.repeat("")
# Whitespace inside a cell (an empty cell is a tab next to a tab or a line end):
# every str.isspace character but tab and newline, listed (faster than \s).
_CELL_SPACE = re.compile("[ \x0b\x0c\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_ASCII_SPACES = "\r\x0b\x0c\x1c\x1d\x1e\x1f"  # (with the space, searched apart)


def plain_sentence(s: ValidatedSentence, block: str) -> str | None:
    """The quick way through `check_lines`, `check_columns`, `check_ids` and
    `check_ranges` for a block that is one terminated sentence: the kinds of
    its token lines (``s.rows`` set) when none of them would report
    anything; None leaves the rest to them.  Comment lines first, then lines
    of ten non-empty cells without whitespace whose IDs `quick_kinds`
    accepts (so each starts with a digit: no invalid or misplaced line)."""
    if "\ufffd" in block or (not block.isascii() and not unicodedata.is_normalized("NFC", block)):
        return None
    compiled = lane._plain
    cut = _cut_compiled(s, block, compiled) if compiled is not None else _cut_python(s, block)
    if cut is None:
        return None
    n_comments, rows, cols, kinds = cut
    if kinds is None:
        return None
    s.sentence_line = s.first + n_comments
    s.rows = rows
    s.cols = cols
    for line in s.lines[:n_comments]:
        if "sent_id" in line:
            match = SENT_ID.fullmatch(line)
            if match:
                s.sent_id = match.group(1)
    return kinds


def _cut_compiled(s: ValidatedSentence, block: str, compiled) -> tuple | None:
    """`_cut_python` in the compiled plain lane (``_plain.plain_sentence``,
    which refuses what this refuses and, for a sentence numbered 1..n, also
    answers `level2.quick_level2`'s question whether the HEADs are a tree)."""
    cut = compiled.plain_sentence(block)
    if cut is None:
        return None
    n_comments, rows, cols, numbered, heads = cut
    if numbered:
        s.heads = heads
        return n_comments, rows, cols, "w" * len(rows)
    return n_comments, rows, cols, quick_kinds(rows, cols[ID])


def _cut_python(s: ValidatedSentence, block: str) -> tuple | None:
    """(comment lines, rows, columns, kinds) of a block whose token lines
    are ten non-empty cells without whitespace each (kinds: None when
    `quick_kinds` does not accept the IDs); None when they are not."""
    lines = s.lines
    n_comments = 0
    end = 0
    while lines[n_comments][:1] == "#":
        end += len(lines[n_comments]) + 1
        n_comments += 1
    if end >= len(block) or block.find(" ", end) >= 0:
        return None
    if block.isascii():
        if any(map(block.__contains__, _ASCII_SPACES)):
            return None
    elif _CELL_SPACE.search(block, end):
        return None
    rows = [*map(str.split, lines[n_comments:-1], _TABS)]
    if set(map(len, rows)) != {10} or any(map(list.__contains__, rows, _BLANKS)):
        return None  # a line without ten cells, or an empty cell
    cols = tuple(zip(*rows))
    return n_comments, rows, cols, quick_kinds(rows, cols[ID])


def quick_kinds(rows: list[list[str]], ids: list[str] | tuple[str, ...] | None = None) -> str | None:
    """The kinds of the lines (see `level2.row_kinds`) when their IDs are
    plainly right, so that `check_ids` and `check_ranges` would report
    nothing: words 1, 2, ..., n, each multiword range right before its
    first word, within the words and apart from the others.  None: ask them."""
    ids = [cols[ID] for cols in rows] if ids is None else list(ids)
    n = len(ids)
    if n < len(_NUMBERS) and ids == _NUMBERS[1:n + 1]:
        return "w" * n
    if "." in "".join(ids):
        return None
    words = [value for value in ids if "-" not in value]
    n = len(words)
    if n >= len(_NUMBERS) or words != _NUMBERS[1:n + 1]:
        return None
    kinds = []
    covered = 0
    for i, value in enumerate(ids):
        if "-" in value:
            match = MWT_ID.fullmatch(value)
            if match is None or i + 1 >= len(ids):
                return None
            beg, end = int(match.group(1)), int(match.group(2))
            if ids[i + 1] != str(beg) or beg <= covered or end < beg or end > n:
                return None
            covered = end
            kinds.append("m")
        else:
            kinds.append("w")
    return "".join(kinds)


@checks("misplaced-comment pseudo-empty-line extra-empty-line empty-sentence invalid-line missing-empty-line")
def check_lines(s: ValidatedSentence) -> bool:
    """A sentence is its comment lines (``#``), then its token lines (each
    starting with a digit), then one empty line.  A comment after a token
    line, a line that starts with neither, a line of whitespace only, an
    empty line inside the sentence (``extra-empty-line``, unreachable:
    every empty line ends a sentence), a sentence with no token line
    and a missing final empty line are reported
    (``check_sentence_lines``)."""
    lines = s.lines
    last = len(lines) - 1
    seen_non_comment = False
    seen_token = False
    last_is_empty = False
    ok = True
    for i, line in enumerate(lines):
        lineno = s.first + i
        if "\ufffd" in line:
            check_utf(s, line, lineno)
        if not line.isascii() and not unicodedata.is_normalized("NFC", line):
            check_normalization(s, line, lineno)
        if line and line[0] == "#":
            if "sent_id" in line:
                match = SENT_ID.fullmatch(line)
                if match:
                    s.sent_id = match.group(1)
            if seen_non_comment:
                s.add("misplaced-comment", lineno,
                      "comment line after the token lines; comments are only allowed before a sentence")
                ok = False
            continue
        if not seen_non_comment:
            s.sentence_line = lineno
        seen_non_comment = True
        if line and line[0].isdigit():
            seen_token = True
        elif not line or is_whitespace_line(line):
            if line:
                s.add("pseudo-empty-line", lineno,
                      "a line that looks empty but holds whitespace characters")
            if i != last:
                s.add("extra-empty-line", lineno, "an empty line that does not end the sentence")
                ok = False
            else:
                last_is_empty = True
                if not seen_token:
                    s.add("empty-sentence", lineno,
                          "an empty sentence: only one empty line is expected after each sentence")
                    ok = False
        else:
            s.add("invalid-line", lineno,
                  f"spurious line {quoted(line)}: every non-empty line must start with a "
                  "digit or #")
            ok = False
    if not last_is_empty:
        s.add("missing-empty-line", s.first + last, "no empty line after the sentence")
        ok = seen_token
    return ok


def _column_name(column: int) -> str:
    """A column's name; one past the tenth (a line with too many cells) by
    its number, where the official validator fails with an IndexError."""
    return COLUMN_NAMES[column] if column < len(COLUMN_NAMES) else f"column {column + 1}"


@checks("invalid-utf")
def check_utf(s: ValidatedSentence, line: int | str, lineno: int) -> None:
    """The file is valid UTF-8: a byte that is not reads as U+FFFD, which is reported at its cell and character."""
    text = line  # type: ignore[assignment]
    cells = text.split("\t")
    column, position = 0, 0
    offset = text.index("\ufffd")
    for k, cell in enumerate(cells):
        if "\ufffd" in cell:
            column, position = k, cell.index("\ufffd")
            break
    where = f"{_column_name(column)}.character[{position}]" if len(cells) > 1 else f"character[{position}]"
    s.add("invalid-utf", lineno, f"invalid byte in the UTF-8 encoding (U+FFFD): {where}",
          (offset, offset + 1))


@checks("unicode-normalization")
def check_normalization(s: ValidatedSentence, text: str, lineno: int) -> None:
    """Every line is in Unicode normalization form C (NFC); the first
    character that differs from its NFC form is reported."""
    normalized = unicodedata.normalize("NFC", text)
    cells, ncells = text.split("\t"), normalized.split("\t")
    offset, column, position = 0, 0, 0
    found = ""
    for k, cell in enumerate(cells):
        other = ncells[k] if k < len(ncells) else ""
        for j, ch in enumerate(cell):
            if j >= len(other) or ch != other[j]:
                column, position = k, j
                found = f"{unicodedata.name(ch, hex(ord(ch)))}, should be " + (
                    unicodedata.name(other[j], hex(ord(other[j]))) if j < len(other) else "nothing")
                break
        if found:
            break
        offset += len(cell) + 1
    where = f"{_column_name(column)}.character[{position}]" if len(cells) > 1 else f"character[{position}]"
    start = offset + position
    s.add("unicode-normalization", lineno, f"Unicode not normalized (NFC): {where} is {found}",
          (start, start + 1))


@checks("number-of-columns")
def check_columns(s: ValidatedSentence) -> bool:
    """A token line has exactly ten cells, separated by tabs; its cells'
    whitespace is then checked (`check_whitespace`)
    (``check_sentence_columns``)."""
    lines = s.lines
    n_comments = s.sentence_line - s.comment_start
    end = len(lines) - 1 if (not lines[-1] or is_whitespace_line(lines[-1])) else len(lines)
    token_lines = lines[n_comments:end]
    rows = [line.split("\t") for line in token_lines]
    s.rows = rows
    ok = True
    for i, cols in enumerate(rows):
        lineno = s.sentence_line + i
        if len(cols) != 10:
            s.add("number-of-columns", lineno, f"the line has {len(cols)} columns, 10 are expected")
            ok = False
            continue
        line = token_lines[i]
        if (NON_TAB_SPACE.search(line) is None and "\t\t" not in line
                and line[0] != "\t" and line[-1] != "\t"):
            continue  # no whitespace in any cell and no empty cell: nothing to report
        check_whitespace(s, cols, line, lineno)
    return ok


_NO_SPACE_COLUMNS = (ID, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS)


@checks("invalid-whitespace-mwt invalid-whitespace empty-column leading-whitespace trailing-whitespace "
        "repeated-whitespace")
def check_whitespace(s: ValidatedSentence, cols: list[str], line: str, lineno: int) -> None:
    """No cell is empty (``_`` stands for no value); FORM and LEMMA may hold
    single inner spaces (not a multiword token's), the other columns but
    MISC none; no cell starts or ends with whitespace or has two
    whitespace characters in a row (``check_whitespace``)."""
    is_mwt = MWT_ID.fullmatch(cols[ID]) is not None
    for k, value in enumerate(cols):
        if is_mwt and k in (FORM, LEMMA) and WS.search(value):
            s.add_cell("invalid-whitespace-mwt", lineno, k,
                       f"whitespace in the {COLUMN_NAMES[k]} of a multiword token "
                       f"{quoted(value)}: a token with a space is not one surface token")
        elif k in _NO_SPACE_COLUMNS and WS.search(value):
            s.add_cell("invalid-whitespace", lineno, k,
                       f"whitespace is not allowed in {COLUMN_NAMES[k]}: {quoted(value)}")
        elif not value:
            s.add_cell("empty-column", lineno, k, f"empty {COLUMN_NAMES[k]} cell (use _ for no value)")
        else:
            if value[0].isspace():
                s.add_cell("leading-whitespace", lineno, k,
                           f"leading whitespace in {COLUMN_NAMES[k]}: {quoted(value)}")
            if value[-1].isspace():
                s.add_cell("trailing-whitespace", lineno, k,
                           f"trailing whitespace in {COLUMN_NAMES[k]}: {quoted(value)}")
            if WS2.search(value):
                s.add_cell("repeated-whitespace", lineno, k,
                           f"two or more whitespace characters in a row in {COLUMN_NAMES[k]}: "
                           f"{quoted(value)}")


@checks("invalid-word-id invalid-word-interval misplaced-word-interval misplaced-empty-node word-id-sequence "
        "reversed-word-interval word-interval-out")
def check_ids(s: ValidatedSentence) -> bool:
    """IDs are words 1, 2, 3, ... in order, multiword-token ranges ``N-M``
    (N < M, within the sentence) right before their first word, and empty
    nodes ``N.1``, ``N.2``, ... right after word N; a malformed ID is
    reported (``invalid-word-interval`` is unreachable: the expression that
    picks out a range line is the one that would have to fail)
    (``check_id_sequence``)."""
    rows = s.rows
    ids = [cols[ID] for cols in rows]
    n = len(ids)
    if n < len(_NUMBERS) and ids == _NUMBERS[1:n + 1]:
        return True
    ok = True
    words: list[int] = []
    tokens: list[tuple[int, int, int]] = []
    current_word, next_empty = 0, 1
    for i, value in enumerate(ids):
        lineno = s.sentence_line + i
        word = WORD_ID.fullmatch(value)
        mwt = MWT_ID.fullmatch(value) if word is None else None
        empty = EMPTY_ID.fullmatch(value) if word is None and mwt is None else None
        if word is None and mwt is None and empty is None:
            s.add_cell("invalid-word-id", lineno, ID, f"unexpected ID format {quoted(value)}")
            ok = False
            continue
        if empty is None:
            next_empty = 1
        if word is not None:
            t_id = int(value)
            current_word = t_id
            words.append(t_id)
            if not (tokens and tokens[-1][0] <= t_id <= tokens[-1][1]):
                tokens.append((t_id, t_id, lineno))
        elif mwt is not None:
            beg, end = int(mwt.group(1)), int(mwt.group(2))
            if not ((not words and beg >= 1) or (words and beg >= words[-1] + 1)):
                s.add_cell("misplaced-word-interval", lineno, ID,
                           "a multiword range that does not come before its first word")
                ok = False
                continue
            tokens.append((beg, end, lineno))
        else:
            word_id, empty_id = int(empty.group(1)), int(empty.group(2))
            if word_id != current_word or empty_id != next_empty:
                s.add_cell("misplaced-empty-node", lineno, ID,
                           f"empty node ID {value}, expected {current_word}.{next_empty}")
                ok = False
            next_empty += 1
            if word_id == current_word and tokens and word_id < tokens[-1][0]:
                s.add_cell("misplaced-empty-node", lineno, ID,
                           f"empty node {value} must come before the multiword token "
                           f"{tokens[-1][0]}-{tokens[-1][1]}")
                ok = False
    if words != list(range(1, len(words) + 1)):
        got = ",".join(str(x) for x in words)
        s.add("word-id-sequence", s.sentence_line,
              f"the word IDs are not 1, 2, ..., {len(words)}: got {quoted(got)}")
        ok = False
    for beg, end, lineno in tokens:
        if end < beg:
            s.add_cell("reversed-word-interval", lineno, ID, f"reversed token range {beg}-{end}")
            ok = False
            continue
        if beg < 1 or end > len(words):
            s.add_cell("word-interval-out", lineno, ID,
                       f"token range {beg}-{end} goes beyond the words (1-{len(words)})")
            ok = False
    return ok


@checks("overlapping-word-intervals")
def check_ranges(s: ValidatedSentence) -> bool:
    """Multiword-token ranges do not overlap: a word belongs to one token at
    most (``check_token_range_overlaps``)."""
    ok = True
    covered: set[int] = set()
    for i, cols in enumerate(s.rows):
        match = MWT_ID.fullmatch(cols[ID])
        if match is None:
            continue
        start, end = int(match.group(1)), int(match.group(2))
        span = set(range(start, end + 1))
        if covered & span:
            s.add_cell("overlapping-word-intervals", s.sentence_line + i, ID,
                       f"the range {cols[ID]} overlaps another")
            ok = False
        covered |= span
    return ok
