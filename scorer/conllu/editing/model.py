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

# (the editing modules take the column numbers from here)
from ...columns import DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, XPOS  # noqa: F401
from .errors import EditError


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
class EditableSentence:
    """A sentence as the editing operations change it: its words, ranges and
    empty nodes in order, heads as references to words (not numbers), so that
    any edit is renumbered when it is written again (`render`)."""

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
