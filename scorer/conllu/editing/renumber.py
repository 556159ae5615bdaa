"""Renumbering a sentence whose IDs were left out of sequence by hand
(a line inserted, deleted or moved without renumbering).

The IDs as written say what each HEAD and DEPS item meant: a reference to
ID 7 meant the line written with ID 7.  Renumbering writes the lines in
their order with IDs 1, 2, … and every reference to the new ID of the line
it meant, so that each word keeps its head.

Where that is not certain it says so:
- an ID written on two word lines (a line copied to insert one): the line
  whose FORM the sentence's ``# text`` does not hold is the new one, when
  exactly one choice makes the FORMs give the text; otherwise references to
  that ID are *ambiguous* and no renumbering is offered;
- a reference to an ID no line has (its line was deleted) is *lost*: the
  HEAD becomes ``_`` (the DEPS item goes), and the outcome names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from .errors import EditError
from .model import DEPS, FORM, HEAD, ID, ROOT, EmptyNode, MultiwordRange, Ref, EditableSentence, Word
from .read import split_rows
from .render import render_lines


@dataclass
class OutOfSequence:
    """Where a sentence's IDs stop following each other."""

    row: int          # index of the token line (0 = the first after the comments)
    line: int         # its line in the block
    expected: str
    found: str


@dataclass
class Renumbering:
    lines: list[str]
    lost: list[str] = field(default_factory=list)        # references to IDs no line has
    ambiguous: list[str] = field(default_factory=list)   # references to IDs written twice

    @property
    def certain(self) -> bool:
        """Every reference maps to the line it meant."""
        return not self.lost and not self.ambiguous


def _kind(ident: str) -> str | None:
    if ident.isdigit():
        return "word"
    a, dash, b = ident.partition("-")
    if dash and a.isdigit() and b.isdigit():
        return "range"
    a, dot, b = ident.partition(".")
    if dot and a.isdigit() and b.isdigit():
        return "empty"
    return None


def out_of_sequence(block: str) -> OutOfSequence | None:
    """The first token line whose ID does not follow from the lines before
    it (None when they all do, or when an ID or a line cannot be read: those
    are format problems of their own)."""
    try:
        comments, rows = split_rows(block)
    except EditError:
        return None
    words = 0
    empty = 0
    for r, cols in enumerate(rows):
        ident = cols[ID]
        kind = _kind(ident)
        if kind is None:
            return None
        if kind == "word":
            expected = str(words + 1)
            words += 1
            empty = 0
        elif kind == "range":
            a, _, b = ident.partition("-")
            expected = f"{words + 1}-{b}"
            if int(b) <= int(a):
                return None  # a broken range: format-mwt says so
        else:
            empty += 1
            expected = f"{words}.{empty}"
        if ident != expected:
            return OutOfSequence(r, len(comments) + r, expected, ident)
    return None


def _chars(text: str) -> str:
    return "".join(text.split())


def _choose_new_lines(rows: list[list[str]], duplicated: dict[str, list[int]], text: str | None) -> dict[str, int] | None:
    """For each ID written on several word lines, the one that meant it (the
    others are new), when ``# text`` settles it: exactly one choice leaves
    words whose surface is the text."""
    if text is None:
        return None
    groups = list(duplicated.items())
    if sum(len(rs) for _, rs in groups) > 12:
        return None
    target = _chars(text)
    found = None
    for choice in product(*(rs for _, rs in groups)):
        new = {r for (_, rs), keep in zip(groups, choice) for r in rs if r != keep}
        if _surface(rows, new) == target:
            if found is not None:
                return None
            found = {ident: keep for (ident, _), keep in zip(groups, choice)}
    return found


def _surface(rows: list[list[str]], leave_out: set[int]) -> str:
    """The words' characters without ``leave_out``, a range's FORM standing for its words."""
    out = []
    covered = 0
    for r, cols in enumerate(rows):
        kind = _kind(cols[ID])
        if kind == "range":
            a, _, b = cols[ID].partition("-")
            covered = int(b) - int(a) + 1
            out.append(_chars(cols[FORM]))
        elif kind == "word":
            if covered:
                covered -= 1
            elif r not in leave_out:
                out.append(_chars(cols[FORM]))
    return "".join(out)


def renumber(block: str) -> Renumbering:
    """The block's lines renumbered (see the module's docstring); EditError
    when a line cannot be read as a token line."""
    comments, rows = split_rows(block)
    kinds = [_kind(cols[ID]) for cols in rows]
    if None in kinds:
        bad = kinds.index(None)
        raise EditError(f"the ID '{rows[bad][ID]}' on line {len(comments) + bad + 1} cannot be read")
    sentence = EditableSentence(comments=list(comments))
    by_written: dict[str, list[int]] = {}
    nodes: dict[int, Word | EmptyNode] = {}
    last_word: Word | None = None
    pending: list[tuple[list[str], int]] = []  # ranges waiting for their words: (cells, words left)
    for r, (cols, kind) in enumerate(zip(rows, kinds)):
        if kind == "word":
            word = Word(list(cols))
            sentence.words.append(word)
            nodes[r] = word
            by_written.setdefault(cols[ID], []).append(r)
            last_word = word
            _advance(sentence, pending, word)
        elif kind == "empty":
            node = EmptyNode(list(cols), last_word)
            sentence.empties.append(node)
            nodes[r] = node
            by_written.setdefault(cols[ID], []).append(r)
        else:
            a, _, b = cols[ID].partition("-")
            pending.append([list(cols), int(b) - int(a) + 1, None])  # type: ignore[list-item]
    duplicated = {ident: rs for ident, rs in by_written.items() if len(rs) > 1}
    text = sentence.comment_value("text")
    chosen = _choose_new_lines(rows, {i: rs for i, rs in duplicated.items() if kinds[rs[0]] == "word"}, text) \
        if duplicated else {}
    result = Renumbering([])

    def meant(ref: str, r: int, column: str) -> Ref | None:
        if ref == "0":
            return ROOT
        rs = by_written.get(ref)
        name = f"{column} {ref} of '{rows[r][FORM]}' (line {len(comments) + r + 1})"
        if not rs:
            result.lost.append(f"{name}: no line has ID {ref}")
            return None
        if len(rs) > 1:
            keep = (chosen or {}).get(ref)
            if keep is None:
                forms = " and ".join(f"'{rows[x][FORM]}'" for x in rs)
                result.ambiguous.append(f"{name}: ID {ref} is written on {forms}")
                return None
            return nodes[keep]
        return nodes[rs[0]]

    for r, node in nodes.items():
        cols = rows[r]
        if isinstance(node, Word):
            head = cols[HEAD]
            if head == "_" or not head.isdigit():
                node.head = head
            else:
                found = meant(head, r, "HEAD")
                node.head = found if isinstance(found, (Word, type(ROOT))) else "_"
        node.deps = _deps(cols[DEPS], r, meant)
    result.lines = render_lines(sentence)
    return result


def _advance(sentence: EditableSentence, pending: list, word: Word) -> None:
    """The word joins the ranges read before it that still wait for words."""
    for entry in list(pending):
        cells, left, first = entry
        if first is None:
            entry[2] = first = word
        entry[1] = left - 1
        if entry[1] == 0:
            sentence.ranges.append(MultiwordRange(cells, first, word))
            pending.remove(entry)


def _deps(cell: str, r: int, meant):
    if cell == "_":
        return cell
    out = []
    for item in cell.split("|"):
        head, sep, rel = item.partition(":")
        if not sep or _kind(head) not in ("word", "empty"):
            return cell
        found = meant(head, r, "DEPS head")
        if found is not None:
            out.append((found, rel))
    return out

