"""A sentence as the editing operations see it: words that point at words.

``Word.head`` is the head word itself (or `ROOT`), and each DEPS item's head
likewise (a word, an `EmptyNode` or `ROOT`); a multiword range names its
first and last word.  Numbers exist only when the sentence is written out
(`render`), so moving words around never retargets a reference.  A HEAD or
DEPS that does not read as references (``_``, a number outside the
sentence) is kept as the text it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .errors import EditError

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)


class _Root:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ROOT"


ROOT = _Root()


@dataclass(eq=False)
class Word:
    """One word line; ``cells[ID]`` is the ID it was read with (not written)."""

    cells: list[str]
    head: "Ref" = None  # type: ignore[assignment]
    deps: "Deps" = "_"

    @property
    def form(self) -> str:
        return self.cells[FORM]

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Word {self.cells[ID]} {self.cells[FORM]!r}>"


@dataclass(eq=False)
class EmptyNode:
    """An empty node line ``N.M``: it comes after word ``after`` (None: before the first word)."""

    cells: list[str]
    after: Word | None
    deps: "Deps" = "_"


@dataclass(eq=False)
class MultiwordRange:
    """A range line ``A-B``: the words ``first`` .. ``last`` are one token."""

    cells: list[str]
    first: Word
    last: Word

    @property
    def form(self) -> str:
        return self.cells[FORM]


# A reference: a word, an empty node (in DEPS), ROOT, or the text kept as it was.
Ref = Union[Word, EmptyNode, _Root, str]
# DEPS: (head, relation) items in their order, or the cell's text when it does not read.
Deps = Union[list[tuple[Ref, str]], str]


@dataclass(eq=False)
class Sentence:
    comments: list[str] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    ranges: list[MultiwordRange] = field(default_factory=list)
    empties: list[EmptyNode] = field(default_factory=list)

    # --- looking up -----------------------------------------------------------

    def index(self, word: Word) -> int:
        for i, w in enumerate(self.words):
            if w is word:
                return i
        raise EditError("that word is not in the sentence")

    def range_of(self, word: Word) -> MultiwordRange | None:
        """The multiword token the word is in, if any."""
        i = self.index(word)
        for mwt in self.ranges:
            if self.index(mwt.first) <= i <= self.index(mwt.last):
                return mwt
        return None

    def range_words(self, mwt: MultiwordRange) -> list[Word]:
        return self.words[self.index(mwt.first):self.index(mwt.last) + 1]

    def dependents(self, word: Word) -> list[Word]:
        return [w for w in self.words if w.head is word]

    def roots(self) -> list[Word]:
        return [w for w in self.words if w.head is ROOT]

    def number(self, word: Word) -> int:
        """The ID the word will be written with."""
        return self.index(word) + 1

    def named(self, word: Word) -> str:
        """How a label names a word: its number (as written after the edit) and FORM."""
        return f"{self.number(word)} '{word.form}'"

    def comment_value(self, key: str) -> str | None:
        for comment in self.comments:
            name, sep, value = comment[1:].partition("=")
            if sep and name.strip() == key:
                return value.strip()
        return None


# --- reading ---------------------------------------------------------------------


def split_rows(text: str) -> tuple[list[str], list[list[str]]]:
    """A block's leading comments and its token lines cut into columns;
    EditError for what no edit should guess about (a comment among the token
    lines, a line without ten columns)."""
    lines = text.split("\n")
    comments: list[str] = []
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        comments.append(lines[i])
        i += 1
    rows = []
    for k in range(i, len(lines)):
        line = lines[k]
        if line.startswith("#"):
            raise EditError(f"line {k + 1} of the sentence is a comment among its token lines; move it up first")
        cols = line.split("\t")
        if len(cols) != 10:
            raise EditError(f"line {k + 1} of the sentence has {len(cols)} tab-separated columns, "
                            "not 10; mend it first")
        rows.append(cols)
    if not rows:
        raise EditError("the sentence has no token lines")
    return comments, rows


def read_sentence(text: str) -> Sentence:
    """The sentence in ``text`` (one block, no blank line), its references
    resolved; EditError when it cannot be edited as a tree without changing
    lines the edit does not touch (IDs out of sequence: renumber first)."""
    comments, rows = split_rows(text)
    sentence = Sentence(comments=comments)
    words = sentence.words
    pending_ranges: list[tuple[list[str], int, int]] = []
    empties: list[tuple[list[str], int]] = []
    for cols in rows:
        ident = cols[ID]
        if ident.isdigit():
            if int(ident) != len(words) + 1 or str(int(ident)) != ident:
                raise EditError(f"IDs are out of sequence at word '{cols[FORM]}' (ID {ident}, "
                                f"expected {len(words) + 1}): renumber the sentence first")
            words.append(Word(cols))
        elif "-" in ident:
            a, _, b = ident.partition("-")
            if not (a.isdigit() and b.isdigit() and int(a) == len(words) + 1 and int(b) > int(a)):
                raise EditError(f"the multiword range {ident} does not start at the next word "
                                f"({len(words) + 1}): mend it first")
            pending_ranges.append((cols, int(a), int(b)))
        elif "." in ident:
            a, _, b = ident.partition(".")
            if not (a.isdigit() and b.isdigit() and int(a) == len(words)):
                raise EditError(f"the empty node {ident} is not after word {a}: renumber the sentence first")
            empties.append((cols, int(a)))
        else:
            raise EditError(f"the ID '{ident}' cannot be read")
    for cols, a, b in pending_ranges:
        if b > len(words):
            raise EditError(f"the multiword range {cols[ID]} goes past the last word")
        sentence.ranges.append(MultiwordRange(cols, words[a - 1], words[b - 1]))
    for cols, a in empties:
        sentence.empties.append(EmptyNode(cols, words[a - 1] if a else None))
    by_id: dict[str, Ref] = {"0": ROOT}
    for i, w in enumerate(words):
        by_id[str(i + 1)] = w
    for node in sentence.empties:
        by_id[node.cells[ID]] = node
    for w in words:
        head = w.cells[HEAD]
        found = by_id.get(head)
        w.head = found if isinstance(found, (Word, _Root)) else head
        w.deps = read_deps(w.cells[DEPS], by_id)
    for node in sentence.empties:
        node.deps = read_deps(node.cells[DEPS], by_id)
    from .render import render
    again = render(sentence)
    if again != text:
        old, new = text.split("\n"), again.split("\n")
        k = next((k for k, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        raise EditError(f"line {k + 1} of the sentence is not in the order or form an edit would write it "
                        "(empty nodes and ranges out of place, or DEPS not readable): mend it first")
    return sentence


def read_deps(cell: str, by_id: dict[str, Ref]) -> Deps:
    if cell == "_":
        return cell
    out: list[tuple[Ref, str]] = []
    for item in cell.split("|"):
        head, sep, rel = item.partition(":")
        found = by_id.get(head)
        if not sep or found is None:
            return cell
        out.append((found, rel))
    return out
