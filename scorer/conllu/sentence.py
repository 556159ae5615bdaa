"""One CoNLL-U sentence as the readers return it.

Columns are kept as parallel lists of strings, one entry per *word* (lines
whose ID is an integer), because that is what scoring compares and because
lists of strings compare and map at C speed.  Multiword-token range lines and
empty nodes are kept apart (``mwts``, ``empty_lines``).

Lines inside a sentence count from the sentence's own first line (its first
comment, or its first token line); ``first_line`` says where that is in the
file.  This lets a cache reuse a parsed sentence when lines above it change.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..problems import Problem

# (the column numbers: `scorer.columns`, handed on for the readers' users)
from ..columns import COLUMN_NAMES, DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, XPOS  # noqa: F401


class MultiwordToken(NamedTuple):
    """A range line ``3-4 du``: words ``first`` .. ``end - 1`` (0-based) form one token."""

    first: int
    end: int
    form: str  # as written (spaces not removed)
    line: int  # relative to the sentence's first line


class Sentence:
    __slots__ = (
        "first_line", "comments", "sent_id", "text",
        "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc",
        "word_line", "heads", "mwts", "empty_lines", "chars", "problems", "body", "_lines", "tree_ok",
    )

    def __init__(self) -> None:
        self.first_line = 0
        self.comments: list[str] = []
        self.sent_id: str | None = None
        self.text: str | None = None
        self.form: list[str] = []
        self.lemma: list[str] = []
        self.upos: list[str] = []
        self.xpos: list[str] = []
        self.feats: list[str] = []
        self.head: list[str] = []
        self.deprel: list[str] = []
        self.deps: list[str] = []
        self.misc: list[str] = []
        # Relative line of each word (a range when the lines are consecutive).
        self.word_line: Sequence[int] = ()
        # HEAD as an int, or None where it is `_` or not a number.
        self.heads: list[int | None] = []
        self.mwts: list[MultiwordToken] = []
        self.empty_lines: list[int] = []
        # The official scorer's "characters": token forms, spaces (Unicode Zs)
        # removed, concatenated.  Equal texts are the condition for aligning.
        self.chars = ""
        # Format problems (relative lines); tree problems come from checks.
        self.problems: list[Problem] = []
        # The block's text as read; its lines give cell positions for diagnostics.
        self.body = ""
        self._lines: list[str] | None = None
        # True when the HEADs are known to form a tree (set by the batch
        # reader); None when not checked yet.
        self.tree_ok: bool | None = None

    # --- derived views ------------------------------------------------------

    @property
    def n_lines(self) -> int:
        return self.body.count("\n") + 1

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.body.split("\n")
        return self._lines

    def __len__(self) -> int:
        return len(self.form)

    @property
    def is_unparsed(self) -> bool:
        """Every HEAD is `_`: a parser has not been run on this sentence yet."""
        heads = self.heads
        return bool(heads) and heads.count(None) == len(heads) and self.head.count("_") == len(heads)

    @property
    def has_missing_heads(self) -> bool:
        """Some HEAD is not a number (`_` or garbage)."""
        return None in self.heads

    def columns(self, index: int) -> list[str]:
        """The ten columns of word ``index`` (0-based), ID first."""
        return [self.line_id(index), self.form[index], self.lemma[index], self.upos[index],
                self.xpos[index], self.feats[index], self.head[index], self.deprel[index],
                self.deps[index], self.misc[index]]

    def line_id(self, index: int) -> str:
        line = self.lines[self.word_line[index]]
        tab = line.find("\t")
        return line if tab < 0 else line[:tab]

    def token_forms(self) -> list[tuple[str, int, int, bool]]:
        """Tokens in order: (form without spaces, first word, end word, is multiword)."""
        from .text import strip_spaces

        tokens = []
        mwts = iter(self.mwts)
        mwt = next(mwts, None)
        i, n = 0, len(self.form)
        while i < n or mwt is not None:
            if mwt is not None and mwt.first <= i:
                tokens.append((strip_spaces(mwt.form), mwt.first, mwt.end, True))
                i = max(i, mwt.end)
                mwt = next(mwts, None)
                continue
            if i >= n:
                break
            tokens.append((strip_spaces(self.form[i]), i, i + 1, False))
            i += 1
        return tokens

    def absolute_problems(self) -> list[Problem]:
        return [p.shifted(self.first_line) for p in self.problems]

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Sentence {self.sent_id!r} line {self.first_line + 1}, {len(self.form)} words>"
