"""Reading a labels file: one item per line, ``ID<TAB>LABEL`` or just ``LABEL``.

The first line that is not blank decides the form for the whole file: with
a TAB, every item line is ``ID<TAB>LABEL`` (items are then paired by ID, and
blank lines are skipped); without, every line is a ``LABEL`` (items are
paired by their order, so a blank line in the middle is an item without a
label, which is an error).  Blank lines at the end never count.  The ID
and the label are trimmed of surrounding whitespace (a stray space must not
make ``NOUN `` a class of its own); inner spaces stay.

Errors (``severity`` ERROR; the command line refuses the file, naming the
first): ``format-columns`` (a line without the TAB its file needs, or with
one too many), ``format-empty-id``, ``format-empty-label``,
``format-duplicate-id`` (with the first occurrence as related place).
There is no header line: a first line ``id<TAB>label`` would be an item.
Labelled *text* files (``TEXT<TAB>LABEL``, CSV with a header) are tables
with a text column: `scorer.labels.table` reads them into the same
`LabelFile`, with ``texts``.

`parse_label_text` (a whole file's text) and `parse_labels` (its lines) go
through `parse_label_blocks`: a block of lines that are all well formed is
split with whole-list operations (no Python code per item), any other block
line by line.  `parse_item` reads one line with the columns an editor needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Iterable, Sequence

from ..excerpt import quoted
from ..lines import line_blocks
from ..problems import Problem, Related


@dataclass
class LabelFile:
    has_ids: bool
    labels: list[str] = field(default_factory=list)
    ids: list[str] | None = None   # parallel to labels, when has_ids
    lines: Sequence[int] = field(default_factory=list)  # 0-based line of each item (a range when no line is skipped)
    problems: list[Problem] = field(default_factory=list)
    unique_ids: bool = True
    texts: list[str] | None = None  # parallel to labels, for labelled text files (see `table`)


@dataclass(frozen=True, slots=True)
class LabelItem:
    """One item line, with where its parts are (code-point columns)."""

    line: int
    label: str
    label_start: int
    label_end: int
    id: str | None = None
    id_start: int = 0
    id_end: int = 0


def _trimmed(text: str, offset: int) -> tuple[str, int, int]:
    """``text`` without surrounding whitespace, and its columns in the line."""
    stripped = text.lstrip()
    start = offset + len(text) - len(stripped)
    stripped = stripped.rstrip()
    return stripped, start, start + len(stripped)


def parse_item(line: str, number: int, has_ids: bool) -> tuple[LabelItem | None, list[Problem]]:
    """One line as an item (None for a blank line in an ID file, or an
    unusable line) and its problems, on line ``number``."""
    if has_ids:
        if not line.strip():
            return None, []
        if "\t" not in line:
            return None, [Problem("format-columns", "no TAB: this file's items are ID<TAB>LABEL",
                                  number, 0, len(line))]
        raw_id, _, raw_label = line.partition("\t")
        if "\t" in raw_label:
            second = len(raw_id) + 1 + raw_label.index("\t")
            return None, [Problem("format-columns", "more than one TAB: expected ID<TAB>LABEL",
                                  number, second, len(line))]
        id_, id_start, id_end = _trimmed(raw_id, 0)
        label, label_start, label_end = _trimmed(raw_label, len(raw_id) + 1)
        if not id_:
            return None, [Problem("format-empty-id", "empty ID before the TAB", number, 0, len(raw_id))]
        if not label:
            return None, [Problem("format-empty-label", "empty label after the TAB",
                                  number, len(raw_id), len(line))]
        return LabelItem(number, label, label_start, label_end, id_, id_start, id_end), []
    if "\t" in line:
        return None, [Problem("format-columns",
                              "a TAB in a line of a file of plain LABEL lines (its first item has no ID)",
                              number, line.index("\t"), len(line))]
    label, start, end = _trimmed(line, 0)
    if not label:
        return None, [Problem("format-empty-label",
                              "blank line among items: items are paired by line, so every line needs a label",
                              number, 0, len(line))]
    return LabelItem(number, label, start, end), []


def parse_labels(lines: Sequence[str]) -> LabelFile:
    """All items of a file given as lines (see the module docstring)."""
    return parse_label_blocks([(0, list(lines))])


def parse_label_text(text: str) -> LabelFile:
    """All items of a file given as one text, read a block of lines at a time."""
    return parse_label_blocks(line_blocks(text))


class _Items:
    """The items found so far; ``lines`` stays a range while no line is skipped."""

    def __init__(self, has_ids: bool) -> None:
        self.file = LabelFile(has_ids, ids=[] if has_ids else None, lines=range(0))
        self.shared: dict[str, str] = {}  # one string object per distinct label
        # Line -> column of its ID, only for IDs after leading whitespace (rare),
        # so that a duplicate-ID problem points at the ID where it is.
        self.id_columns: dict[int, int] = {}

    def add_block(self, first: int, ids: list[str] | None, labels: list[str]) -> None:
        f = self.file
        if isinstance(f.lines, range) and f.lines.stop == first:
            f.lines = range(first + len(labels))
        else:
            self._numbers().extend(range(first, first + len(labels)))
        self._extend(ids, labels)

    def note_id_columns(self, first: int, raw_ids: list[str]) -> None:
        """Where the IDs of a block's lines (untrimmed, from line ``first`` on) start."""
        for number, raw in enumerate(raw_ids, first):
            if raw[:1].isspace():
                self.id_columns[number] = len(raw) - len(raw.lstrip())

    def add_item(self, item: LabelItem) -> None:
        if item.id_start:
            self.id_columns[item.line] = item.id_start
        self._numbers().append(item.line)
        self._extend(None if item.id is None else [item.id], [item.label])

    def _numbers(self) -> list[int]:
        f = self.file
        if isinstance(f.lines, range):
            f.lines = list(f.lines)
        assert isinstance(f.lines, list)
        return f.lines

    def _extend(self, ids: list[str] | None, labels: list[str]) -> None:
        # Equal strings become one object: counted faster (pointer comparison,
        # hash computed once), and a million copies of a label take no memory.
        self.file.labels += map(self.shared.setdefault, labels, labels)
        if ids is not None and self.file.ids is not None:
            self.file.ids += ids


def parse_label_blocks(blocks: Iterable[tuple[int, list[str]]]) -> LabelFile:
    """All items, from (number of the first line, lines) blocks in file order.

    A block whose lines are all well formed is split with whole-list
    operations (C speed, no Python code per line); any other block line by
    line with `parse_item`.
    """
    items: _Items | None = None
    blank: list[tuple[int, int]] = []  # plain-label files: (line, its length) of blank lines,
                                       # an error once an item follows
    for first, block in blocks:
        if items is None:
            start = next((k for k, line in enumerate(block) if line.strip()), None)
            if start is None:
                blank += [(number, len(line)) for number, line in enumerate(block, first)]
                continue
            items = _Items("\t" in block[start])
        f = items.file
        tabs = list(map(str.count, block, repeat("\t")))
        if f.has_ids and tabs.count(1) == len(block):
            # Every line is ID<TAB>LABEL, so joined with TABs and split again
            # they alternate ID, LABEL, ID, ...
            pieces = "\t".join(block).split("\t")
            raw_ids = pieces[0::2]
            ids = list(map(str.strip, raw_ids))
            labels = list(map(str.strip, pieces[1::2]))
            if "" not in ids and "" not in labels:
                if ids != raw_ids:  # some ID had whitespace around it
                    items.note_id_columns(first, raw_ids)
                items.add_block(first, ids, labels)
                continue
        elif not f.has_ids and tabs.count(0) == len(block):
            labels = list(map(str.strip, block))
            if "" not in labels:
                f.problems += _blank_lines(blank)
                blank = []
                items.add_block(first, None, labels)
                continue
        for k, line in enumerate(block, first):
            if not f.has_ids and not line.strip():
                blank.append((k, len(line)))
                continue
            item, found = parse_item(line, k, f.has_ids)
            if not f.has_ids:
                f.problems += _blank_lines(blank)
                blank = []
            f.problems += found
            if item is not None:
                items.add_item(item)
    # Blank lines left over are at the end of the file: they never count.
    if items is None:
        return LabelFile(False)
    result = items.file
    if result.ids is not None and len(set(result.ids)) != len(result.ids):
        result.unique_ids = False
        result.problems += _duplicates(result.ids, result.lines, items.id_columns)
    result.problems.sort(key=lambda p: p.line)
    return result


def _blank_lines(blank: list[tuple[int, int]]) -> list[Problem]:
    # The whole line, whitespace included, as `parse_item` and the CoNLL-U
    # reader mark a line of only whitespace.
    return [Problem("format-empty-label",
                    "blank line among items: items are paired by line, so every line needs a label",
                    number, 0, length) for number, length in blank]


def _duplicates(ids: list[str], numbers: Sequence[int], id_columns: dict[int, int]) -> list[Problem]:
    first: dict[str, int] = {}
    problems = []
    for id_, number in zip(ids, numbers):
        if id_ in first:
            earlier = first[id_]
            start, earlier_start = id_columns.get(number, 0), id_columns.get(earlier, 0)
            problems.append(Problem(
                "format-duplicate-id", f"ID {quoted(id_)} already used on line {earlier + 1}",
                number, start, start + len(id_),
                related=(Related(earlier, earlier_start, earlier_start + len(id_), "first used here"),)))
        else:
            first[id_] = number
    return problems
