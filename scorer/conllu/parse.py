"""One sentence block into a `Sentence`: the tolerant parse.

A well-formed block (ten tab-separated columns on every token line, no
comment among the token lines) is taken apart without a Python loop over its
lines: ``block.split("\\t")`` puts the k-th line's FORM at index ``9k + 1``,
its LEMMA at ``9k + 2`` and so on, because the newline between two lines
ends up inside one field (``MISC\\nID``).  A block that breaks that shape
goes through a line-by-line path that reports each problem with its line and
column and repairs what it can (spaces instead of tabs, missing or extra
columns) so the rest of the sentence can still be checked and scored.

Where a line is ambiguous the parse follows the official
``conll18_ud_eval.py`` (a multiword range takes the next N non-empty-node
lines as its words, IDs and HEADs are read with ``int()``), so the sentences
it scores are the ones the official script would score; every condition
under which that script refuses a file is reported as a problem with
``refuses=True``.
"""

from __future__ import annotations

import re
from itertools import repeat
from operator import contains, itemgetter

from ..excerpt import quoted
from ..problems import Problem, Severity
from .sentence import DEPS, FORM, HEAD, ID, MultiwordToken, Sentence
from .text import has_spaces, strip_spaces
from .columns import DEPS_EXTENTS, cell_span, id_strings, plain_multiword_rows


_EMPTY_NODE_ID = re.compile(r"[0-9]+\.[0-9]+")


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
        if ids == id_strings(n):
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
    if ids == id_strings(len(ids)):
        word_rows = None
        sentence.word_line = row_lines
    else:
        plain = None if careful else plain_multiword_rows(ids)
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


def _check_deps(sentence: Sentence) -> None:
    n = len(sentence.form)
    extents = list(map(DEPS_EXTENTS.__getitem__, sentence.deps))
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
