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

`parse_labels` reads a whole file with whole-list operations (no Python
code per item) when every line is well formed, and line by line otherwise;
`parse_item` reads one line with the columns an editor needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Sequence

from ..problems import Problem, Related


@dataclass
class LabelFile:
    has_ids: bool
    labels: list[str] = field(default_factory=list)
    ids: list[str] | None = None   # parallel to labels, when has_ids
    lines: Sequence[int] = field(default_factory=list)  # 0-based line of each item (a range when no line is skipped)
    problems: list[Problem] = field(default_factory=list)
    unique_ids: bool = True


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


def item_lines(lines: Sequence[str]) -> int:
    """The number of lines that can hold items (blank lines at the end left out)."""
    n = len(lines)
    while n and not lines[n - 1].strip():
        n -= 1
    return n


def parse_labels(lines: Sequence[str]) -> LabelFile:
    """All items of a file (see the module docstring)."""
    n = item_lines(lines)
    first = next((line for line in lines[:n] if line.strip()), "")
    result = LabelFile("\t" in first)
    body = lines[:n] if n < len(lines) else lines
    tabs = list(map(str.count, body, repeat("\t")))
    if result.has_ids and tabs.count(1) == n:
        # Every line is ID<TAB>LABEL, so joined with TABs and split again they
        # alternate ID, LABEL, ID, ...: one C-level split for the whole file.
        pieces = "\t".join(body).split("\t")
        ids = list(map(str.strip, pieces[0::2]))
        labels = list(map(str.strip, pieces[1::2]))
        del pieces
        if "" not in ids and "" not in labels:
            result.ids, result.labels, result.lines = ids, _shared(labels), range(n)
            _check_duplicates(result, lines)
            return result
    elif not result.has_ids and tabs.count(0) == n:
        labels = list(map(str.strip, body))
        if "" not in labels:
            result.labels, result.lines = _shared(labels), range(n)
            return result
    _parse_line_by_line(result, lines, n)
    return result


def _shared(labels: list[str]) -> list[str]:
    """The same list with one string object per distinct label: a file has a
    handful of labels a million times, and equal objects are counted faster
    (pointer comparison, hash computed once) and take no memory each."""
    first: dict[str, str] = {}
    return list(map(first.setdefault, labels, labels))


def _parse_line_by_line(result: LabelFile, lines: Sequence[str], n: int) -> None:
    """The slow way, for files with blank lines or problems: each line on its own."""
    labels: list[str] = []
    numbers: list[int] = []
    ids: list[str] | None = [] if result.has_ids else None
    for number in range(n):
        item, found = parse_item(lines[number], number, result.has_ids)
        result.problems += found
        if item is None:
            continue
        labels.append(item.label)
        numbers.append(number)
        if ids is not None:
            assert item.id is not None
            ids.append(item.id)
    result.labels, result.lines, result.ids = _shared(labels), numbers, ids
    _check_duplicates(result, lines)


def _check_duplicates(result: LabelFile, lines: Sequence[str]) -> None:
    ids = result.ids
    if ids is not None and len(set(ids)) != len(ids):
        result.unique_ids = False
        result.problems += _duplicates(ids, result.lines, lines)
        result.problems.sort(key=lambda p: p.line)


def _duplicates(ids: list[str], numbers: Sequence[int], lines: Sequence[str]) -> list[Problem]:
    first: dict[str, int] = {}
    problems = []
    for id_, number in zip(ids, numbers):
        if id_ in first:
            earlier = first[id_]
            start = lines[number].index(id_)
            problems.append(Problem(
                "format-duplicate-id", f"ID '{id_}' already used on line {earlier + 1}",
                number, start, start + len(id_),
                related=(Related(earlier, 0, len(id_), "first used here"),)))
        else:
            first[id_] = number
    return problems
