"""Labelled text files: tables with a text column and a label column.

The plain labels files of `reader` are ``ID<TAB>LABEL`` or ``LABEL``.  A
split maker and a leak check need the text of each item too, so a labels
file may also be a table:

- **TSV** (TAB between fields, no quoting: a text cannot hold a TAB or a
  line break; use CSV for those).  Without a header when every column is
  given by number: ``TEXT<TAB>LABEL`` is text column 1, label column 2 (the
  defaults).  With a header when a column is given by name.
- **CSV** (as Python's ``csv`` module reads RFC 4180: fields with commas,
  quotes or line breaks are quoted, ``""`` is a quote).  Always with a
  header; an item may span several lines.

Columns are chosen by header name or by 1-based number.  With a header the
defaults are the columns named ``text``, ``label`` and ``id`` (a name is
matched exactly, else ignoring case; ``id`` and ``text`` only when the
header has them).  An ID column makes the items pair by ID, as in an
``ID<TAB>LABEL`` file; without one they pair by order, and `text_mismatches`
says where two paired items have different texts (the files are then not
about the same items).  Texts, unlike IDs, may repeat.

Every row must have as many fields as the header (or, without one, as the
first row): a row with a TAB inside its text would otherwise give its label
column the wrong field.  Problems (ERROR unless said): ``format-header`` (a
column the header does not have), ``format-columns`` (a row with another
number of fields), ``format-csv`` (a quote left open, and what the csv
module refuses), ``format-empty-label``, ``format-empty-id``,
``format-duplicate-id``, ``format-empty-text`` (WARNING).  A problem names
the row's first line; the columns are those of the whole line.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from typing import Iterator

from ..excerpt import excerpt, quoted
from ..lines import split_lines
from ..problems import Problem, Severity
from .reader import LabelFile, _duplicates

TSV, CSV = "\t", ","


@dataclass(frozen=True)
class TableSpec:
    """How to read a table: its delimiter and its columns, each a header
    name or a 1-based number (as a string, as the command line gives it);
    None: the default."""

    delimiter: str
    text: str | None = None
    label: str | None = None
    id: str | None = None

    @property
    def header(self) -> bool:
        """CSV always has one; TSV when some column is given by name."""
        if self.delimiter == CSV:
            return True
        return any(c is not None and not c.strip().isdigit() for c in (self.text, self.label, self.id))

    def describe(self) -> str:
        """For messages and signatures: ``csv text=text label=label``."""
        kind = "csv" if self.delimiter == CSV else "tsv"
        named = [f"{k}={v}" for k, v in (("text", self.text), ("label", self.label), ("id", self.id)) if v]
        return " ".join([kind] + named)


def table_spec(name: str, text: str | None = None, label: str | None = None,
               id: str | None = None, text_by_default: bool = False) -> TableSpec | None:
    """The table form of the labels file ``name``: CSV by its extension
    ``.csv``, TSV when a column is named (or, with ``text_by_default``, as
    the leak check and the split maker read a ``TEXT<TAB>LABEL`` file);
    None for a plain ``ID<TAB>LABEL`` / ``LABEL`` file."""
    if os.path.splitext(name)[1].lower() == ".csv":
        return TableSpec(CSV, text, label, id)
    if text_by_default or any(c is not None for c in (text, label, id)):
        return TableSpec(TSV, text, label, id)
    return None


def _column(spec: str | None, header: list[str] | None, width: int, role: str,
            default: str | int | None, required: bool) -> tuple[int | None, Problem | None]:
    """The 0-based index of a column, or why it cannot be found."""
    wanted = spec if spec is not None else default
    if wanted is None:
        return None, None
    if isinstance(wanted, int) or wanted.strip().isdigit():
        number = int(wanted)
        if 1 <= number <= width:
            return number - 1, None
        return None, Problem("format-header", f"no column {number} for the {role}: the rows have {width} "
                             f"field{'s' if width != 1 else ''}", 0, 0, 0)
    assert header is not None
    names = [h.strip() for h in header]
    for candidates in (names, [n.casefold() for n in names]):
        key = wanted.strip() if candidates is names else wanted.strip().casefold()
        if key in candidates:
            return candidates.index(key), None
    if spec is None and not required:
        return None, None
    shown = ", ".join(quoted(n, 20) for n in names[:12]) + (", …" if len(names) > 12 else "")
    return None, Problem("format-header", f"no column {quoted(wanted)} for the {role} in the header "
                         f"(its columns: {shown})", 0, 0, len(",".join(header)))


def _rows(text: str, delimiter: str, problems: list[Problem]) -> Iterator[tuple[int, list[str], int]]:
    """(first line, fields, length of the first line) of each row that is not blank."""
    lines = split_lines(text)
    if delimiter == TSV:
        for number, line in enumerate(lines):
            if line.strip():
                yield number, line.split("\t"), len(line)
        return
    reader = csv.reader((line + "\n" for line in lines), strict=True)
    while True:
        start = reader.line_num
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            problems.append(Problem("format-csv", f"cannot be read as CSV: {excerpt(str(error), 80)} "
                                    "(a quote left open?)", start, 0, len(lines[start]) if start < len(lines)
                                    else 0))
            if reader.line_num <= start:  # nothing read: it would fail again
                return
            continue
        if fields and any(f.strip() for f in fields):
            yield start, fields, len(lines[start]) if start < len(lines) else 0


def parse_table_text(text: str, spec: TableSpec, text_required: bool = False) -> LabelFile:
    """The items of a table (see the module docstring).  ``text_required``:
    a missing text column is a problem (the leak check and the split
    maker need the texts; scoring does not)."""
    problems: list[Problem] = []
    rows = _rows(text, spec.delimiter, problems)
    first = next(rows, None)
    if first is None:
        return LabelFile(False, problems=problems)
    header = first[1] if spec.header else None
    width = len(first[1])
    default_text, default_label, default_id = ("text", "label", "id") if header else (1, 2, None)
    found = []
    for role, given, default, required in (("text", spec.text, default_text, text_required),
                                           ("label", spec.label, default_label, True),
                                           ("ID", spec.id, default_id, False)):
        index, problem = _column(given, header, width, role, default, required)
        if problem is not None:
            problems.append(problem)
        found.append(index)
    text_at, label_at, id_at = found
    result = LabelFile(id_at is not None, ids=[] if id_at is not None else None, lines=[],
                       texts=[] if text_at is not None else None, problems=problems)
    if label_at is None or any(p.code == "format-header" for p in problems):
        return result
    body = rows if header else _chain(first, rows)
    lines = result.lines
    assert isinstance(lines, list)
    for number, fields, length in body:
        if len(fields) != width:
            what = "TAB-separated" if spec.delimiter == TSV else "comma-separated"
            hint = " (a TAB inside a text? write the file as CSV)" if spec.delimiter == TSV else ""
            problems.append(Problem("format-columns", f"{len(fields)} {what} fields where the "
                                    f"{'header has' if header else 'first row has'} {width}{hint}",
                                    number, 0, length))
            continue
        label = fields[label_at].strip()
        if not label:
            problems.append(Problem("format-empty-label", "empty label", number, 0, length))
            continue
        if id_at is not None:
            id_ = fields[id_at].strip()
            if not id_:
                problems.append(Problem("format-empty-id", "empty ID", number, 0, length))
                continue
            result.ids.append(id_)  # type: ignore[union-attr]
        if text_at is not None:
            item_text = fields[text_at]
            if not item_text.strip():
                problems.append(Problem("format-empty-text", "empty text", number, 0, length,
                                        Severity.WARNING))
            result.texts.append(item_text)  # type: ignore[union-attr]
        result.labels.append(label)
        lines.append(number)
    if result.ids is not None and len(set(result.ids)) != len(result.ids):
        result.unique_ids = False
        problems += _duplicates(result.ids, lines, {})
    problems.sort(key=lambda p: p.line)
    return result


def _chain(first, rest):
    yield first
    yield from rest


def text_mismatches(gold: LabelFile, system: LabelFile, by_id: bool) -> list[Problem]:
    """``text-mismatch`` errors (in the system file) where a paired item's
    text is not gold's: by order, the k-th items; by ID, equal IDs.  Empty
    when either file has no texts."""
    if gold.texts is None or system.texts is None:
        return []
    if by_id and gold.ids is not None and system.ids is not None:
        gold_at = {id_: k for k, id_ in reversed(list(enumerate(gold.ids)))}
        pairs = [(gold_at[id_], k) for k, id_ in enumerate(system.ids) if id_ in gold_at]
    else:
        pairs = [(k, k) for k in range(min(len(gold.texts), len(system.texts)))]
    problems = []
    for g, s in pairs:
        if gold.texts[g] != system.texts[s]:
            problems.append(Problem(
                "text-mismatch", f"the text {quoted(system.texts[s])} is not gold's {quoted(gold.texts[g])} "
                f"(gold line {gold.lines[g] + 1}): the files do not list the same items",
                system.lines[s], 0, 0))
    return problems
