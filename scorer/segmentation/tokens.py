"""Reading one line of a segmentation file into words (and tags), as litsea does.

- **space** format: the line is split on U+0020 only; TABs and other
  whitespace stay inside tokens.  **tsv** format: split on TAB only, so a
  token may be a literal space (the space-preserving protocol of the Korean
  and English files).  Either way empty pieces are dropped: runs of
  separators and separators at either end make no tokens.
- **--pos**: each token is split at its *last* ``/``; before it is the word,
  after it the tag.  ``//PUNCT`` is the word ``/`` tagged PUNCT, and
  ``and/or/CCONJ`` is ``and/or`` tagged CCONJ.  A tag that is not exactly one
  of the 17 UD UPOS names (case matters), an empty tag, and a token without
  ``/`` all get ``X``.  What follows the last ``/`` always leaves the word,
  even when it is no tag: ``a/b`` is the word ``a`` tagged X.  A bare ``/`` is
  an empty word.
- A token is **whitespace** when it is not empty and every character has the
  Unicode White_Space property (Rust's ``char::is_whitespace``).  Python's
  ``str.isspace`` agrees except on U+001C..U+001F, which it calls space and
  White_Space does not; `is_white_space` corrects for that.  Whitespace
  tokens are part of the text but never scored.
- The line's **text** is its words joined with nothing between them.  In
  space format it therefore has no spaces; in tsv format the ``" "`` tokens
  put them back.

`split_words` is the fast path used for whole files.  `parse_line` also
returns where each word and tag sits in the line (code-point columns), for
diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..excerpt import quoted
from ..problems import Problem, Severity

UPOS_TAGS = frozenset("ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT "
                      "SCONJ SYM VERB X".split())
UNKNOWN_TAG = "X"
SEPARATORS = {"space": " ", "tsv": "\t"}

# str.isspace() is true for these, Unicode White_Space (and Rust) says no.
SPACE_BUT_NOT_WHITE_SPACE = frozenset("\x1c\x1d\x1e\x1f")


@dataclass(frozen=True, slots=True)
class SegmentationOptions:
    format: str = "space"  # "space" or "tsv"
    pos: bool = False

    def __post_init__(self) -> None:
        if self.format not in SEPARATORS:
            raise ValueError(f"segmentation format must be one of {', '.join(SEPARATORS)}, "
                             f"not {self.format!r}")

    @property
    def separator(self) -> str:
        return SEPARATORS[self.format]


def is_white_space(token: str) -> bool:
    """True for a non-empty token made only of Unicode White_Space characters."""
    return token.isspace() and SPACE_BUT_NOT_WHITE_SPACE.isdisjoint(token)


def split_tokens(line: str, separator: str) -> list[str]:
    """The tokens of a line: split on the separator, empty pieces dropped."""
    tokens = line.split(separator)
    return tokens if "" not in tokens else list(filter(None, tokens))


def split_tag(token: str) -> tuple[str, str]:
    """``word/TAG`` → (word, TAG); unknown, empty or absent tags become X."""
    word, slash, tag = token.rpartition("/")
    if not slash:
        return token, UNKNOWN_TAG
    return word, tag if tag in UPOS_TAGS else UNKNOWN_TAG


class LineWords(NamedTuple):
    """A line's words; with --pos their tags, and how many non-whitespace
    tokens had their tag read as X without saying X (a cheap count, so that
    only such lines need a closer look)."""

    words: list[str]
    tags: list[str] | None
    unknown_tags: int = 0


def split_words(line: str, options: SegmentationOptions) -> LineWords:
    """The words of a line and, with --pos, their tags."""
    tokens = split_tokens(line, options.separator)
    if not options.pos:
        return LineWords(tokens, None)
    words: list[str] = []
    tags: list[str] = []
    add_word, add_tag = words.append, tags.append
    unknown = 0
    for token in tokens:
        word, slash, tag = token.rpartition("/")
        if slash:
            add_word(word)
            if tag in UPOS_TAGS:
                add_tag(tag)
            else:
                add_tag(UNKNOWN_TAG)
                unknown += 1
        else:
            add_word(token)
            add_tag(UNKNOWN_TAG)
            # tsv space tokens carry no tag, rightly (is_white_space, inlined)
            if not (token.isspace() and SPACE_BUT_NOT_WHITE_SPACE.isdisjoint(token)):
                unknown += 1
    return LineWords(words, tags, unknown)


def has_tokens(line: str, options: SegmentationOptions) -> bool:
    """False for a line that yields no tokens (empty, or only separators)."""
    return bool(line.strip(options.separator))


def token_columns(line: str, separator: str) -> list[tuple[int, int]]:
    """Where each token of the line starts and ends (code points)."""
    columns = []
    position = 0
    for piece in line.split(separator):
        if piece:
            columns.append((position, position + len(piece)))
        position += len(piece) + 1
    return columns


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One line with everything diagnostics need.

    ``words[i]`` sits at ``word_columns[i]`` in the line and, with --pos,
    its tag (as written, before mapping to X) at ``tag_columns[i]`` (an empty
    span right after the word when there is no ``/``).  ``starts[i]`` and
    ``ends[i]`` are the word's offsets in ``text``.
    """

    line: str
    words: tuple[str, ...]
    tags: tuple[str, ...] | None
    word_columns: tuple[tuple[int, int], ...]
    tag_columns: tuple[tuple[int, int], ...] | None
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    white_space: tuple[bool, ...]

    @property
    def text(self) -> str:
        return "".join(self.words)

    def column_of(self, offset: int) -> int:
        """The column in the line of a character offset in ``text`` (the end
        of the line's last word for an offset past the text)."""
        for (start, _), word_start, word_end in zip(self.word_columns, self.starts, self.ends):
            if word_start <= offset < word_end:
                return start + offset - word_start
        return self.word_columns[-1][1] if self.word_columns else 0

    def problems(self) -> list[Problem]:
        """Warnings for tags read as X that did not say X (line 0)."""
        if self.tags is None or self.tag_columns is None:
            return []
        out = []
        for i, tag in enumerate(self.tags):
            if tag != UNKNOWN_TAG or self.white_space[i]:
                continue
            word_start, word_end = self.word_columns[i]
            tag_start, tag_end = self.tag_columns[i]
            if tag_start == word_end:  # no '/' at all
                message, start, end = "no /TAG after the word: read as X", word_start, word_end
            elif tag_start == tag_end:
                message, start, end = "empty tag after '/': read as X", word_end, tag_end
            else:
                written = self.line[tag_start:tag_end]
                if written == UNKNOWN_TAG:
                    continue
                message, start, end = f"{quoted(written)} is not a UD UPOS tag: read as X", tag_start, tag_end
            out.append(Problem("format-unknown-tag", message, 0, start, end, Severity.WARNING))
        return out


def parse_line(line: str, options: SegmentationOptions) -> ParsedLine:
    """A line's words, tags and their columns (see `ParsedLine`)."""
    words: list[str] = []
    tags: list[str] | None = [] if options.pos else None
    word_columns: list[tuple[int, int]] = []
    tag_columns: list[tuple[int, int]] | None = [] if options.pos else None
    for start, end in token_columns(line, options.separator):
        token = line[start:end]
        if tags is None or tag_columns is None:
            words.append(token)
            word_columns.append((start, end))
            continue
        slash = token.rfind("/")
        if slash < 0:
            words.append(token)
            word_columns.append((start, end))
            tags.append(UNKNOWN_TAG)
            tag_columns.append((end, end))
        else:
            tag = token[slash + 1:]
            words.append(token[:slash])
            word_columns.append((start, start + slash))
            tags.append(tag if tag in UPOS_TAGS else UNKNOWN_TAG)
            tag_columns.append((start + slash + 1, end))
    starts, ends = [], []
    offset = 0
    for word in words:
        starts.append(offset)
        offset += len(word)
        ends.append(offset)
    return ParsedLine(line, tuple(words), None if tags is None else tuple(tags), tuple(word_columns),
                      None if tag_columns is None else tuple(tag_columns), tuple(starts), tuple(ends),
                      tuple(is_white_space(w) for w in words))
