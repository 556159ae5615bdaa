"""The items of a file, as the leak check and the split maker compare them.

An item is what can leak from one split into another:

- **CoNLL-U**: a sentence.  Its text is its ``# text`` or, without one,
  its tokens' FORMs joined as the text is rebuilt (a space after each token
  unless its MISC says ``SpaceAfter=No``; the words of a multiword token
  and empty nodes are not tokens).  Its *annotation* is its token lines
  without MISC (ID to DEPS), so that two copies of a sentence annotated
  differently are a conflict.  Its document is counted from ``# newdoc``.
- **Segmentation** (``space``, ``tsv``; words with tags with ``pos``): a
  line with words.  Its text is its words joined with nothing between them
  (as the segmentation scorer rebuilds it: two segmentations of the same
  sentence are one text), its annotation the words (and tags).
- **Labelled text** (``labels``): a row of a table (`scorer.labels.table`;
  a two-column TSV file is ``TEXT<TAB>LABEL``).  Its annotation is its label.

Each item keeps its first line (0-based), its ID (``sent_id``, or the ID
column), and its text as written in the file (``raw``), which the split
maker writes out unchanged.  Reading never raises on bad input: problems
come back with their line and column; a file that cannot be read as text at
all (`scorer.binary`) gives no items and one ``format-binary`` problem.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

from ..formats import EXTENSIONS, FORMATS
from ..conllu.reader import BinaryFileError, ConlluFileReader
from ..lines import decode_text, split_lines
from ..problems import Problem, Severity
from ..labels.table import TableSpec, parse_table_text, table_spec
from ..segmentation.tokens import SegmentationOptions, has_tokens, split_words
from ..reading import open_file

# File problems worth passing on: what was read differs from the bytes.
# (Blank-line and final-line matters of CoNLL-U change no sentence's text.)
_KEPT = ("format-encoding", "format-binary", "format-bom")


@dataclass(frozen=True, slots=True)
class Item:
    text: str
    annotation: str | None
    line: int               # 0-based first line
    id: str | None = None   # sent_id, or the ID column
    document: int = 0       # CoNLL-U: the # newdoc document it is in
    raw: str = ""           # as written in the file (without its line end)


@dataclass
class ItemFile:
    path: str
    format: str
    items: list[Item] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sha256: str = ""
    header: str | None = None   # a table's header row, as written
    unit: str = "item"          # "sentence" or "item", for reports

    def shown(self, item: Item) -> str:
        """The item's text as a person reads it: a segmentation file's line
        (its text has no spaces between words), otherwise its text."""
        return item.raw if self.format in ("space", "tsv") else item.text

    def unusable(self) -> Problem | None:
        """The problem that leaves nothing to compare, if any."""
        return next((p for p in self.problems if p.code == "format-binary"), None)


def conllu_text(body: str) -> str | None:
    """A CoNLL-U sentence block's text: ``# text``, else its FORMs rebuilt
    (see the module docstring); None when it has neither."""
    text, _, _, token_lines = _read_block(body)
    return text if text is not None else _rebuilt(token_lines)


def _read_block(body: str) -> tuple[str | None, str | None, bool, list[str]]:
    """(# text, sent_id, whether # newdoc starts here, token lines)."""
    text = sent_id = None
    newdoc = False
    lines = body.split("\n")
    k = 0
    for k, line in enumerate(lines):
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].partition("=")
        key = key.strip()
        if key.split(" ", 1)[0] == "newdoc":  # "# newdoc" or "# newdoc id = ..."
            newdoc = True
        elif sep and key == "text" and text is None:
            text = value[1:] if value.startswith(" ") else value
        elif sep and key == "sent_id":
            sent_id = value.strip()
    else:
        k = len(lines)
    return text, sent_id, newdoc, [line for line in lines[k:] if line and not line.startswith("#")]


def _rebuilt(token_lines: list[str]) -> str | None:
    pieces: list[str] = []
    covered = 0  # words up to this ID belong to a multiword token already written
    for line in token_lines:
        cells = line.split("\t")
        if len(cells) < 2:
            continue
        id_ = cells[0]
        first, dash, last = id_.partition("-")
        if dash:
            if last.isdecimal():
                covered = int(last)
        elif "." in id_ or (id_.isdecimal() and int(id_) <= covered):
            continue
        pieces.append(cells[1])
        misc = cells[9] if len(cells) > 9 else ""
        if "SpaceAfter=No" not in misc.split("|"):
            pieces.append(" ")
    return "".join(pieces).rstrip(" ") if pieces else None


def _annotation(token_lines: list[str]) -> str:
    # Each line without its MISC column (ID ... DEPS).
    return "\n".join(line[:line.rfind("\t")] if line.count("\t") >= 9 else line for line in token_lines)


def read_conllu(path: str) -> ItemFile:
    out = ItemFile(path, "conllu", unit="sentence")
    reader = ConlluFileReader(path)
    document = 0
    try:
        for line, body in reader.blocks():
            text, sent_id, newdoc, token_lines = _read_block(body)
            if newdoc and out.items:
                document += 1
            if text is None:
                text = _rebuilt(token_lines)
            if text is None:
                out.problems.append(Problem("no-text", "a sentence without # text or token lines: "
                                            "nothing to compare (left out)", line, 0, 0, Severity.WARNING))
                continue
            out.items.append(Item(text, _annotation(token_lines), line, sent_id, document, body))
    except BinaryFileError as error:
        out.items, out.problems = [], [error.problem]
        return out
    out.problems += [p for p in reader.problems if p.code in _KEPT]
    out.sha256 = reader.sha256 or ""
    return out


def _decoded(path: str) -> tuple[str, list[Problem], str]:
    with open_file(path) as f:
        data = f.read()
    text, problems = decode_text(data)
    return text, problems, hashlib.sha256(data).hexdigest()


def read_segmentation(path: str, fmt: str, pos: bool = False) -> ItemFile:
    text, problems, digest = _decoded(path)
    out = ItemFile(path, fmt, problems=problems, sha256=digest, unit="sentence")
    options = SegmentationOptions(fmt, pos)
    for number, line in enumerate(split_lines(text)):
        if not has_tokens(line, options):
            continue
        words = split_words(line, options)
        annotation = "\x1f".join(words.words)
        if words.tags is not None:
            annotation += "\x1e" + "\x1f".join(words.tags)
        out.items.append(Item("".join(words.words), annotation, number, None, number, line))
    return out


def read_labelled(path: str, spec: TableSpec) -> ItemFile:
    text, problems, digest = _decoded(path)
    out = ItemFile(path, "labels", problems=problems, sha256=digest)
    if any(p.code == "format-binary" for p in problems):
        return out
    table = parse_table_text(text, spec, text_required=True)
    out.problems += table.problems
    lines = split_lines(text)
    starts = list(table.lines)
    if spec.header:
        first = next((k for k, line in enumerate(lines) if line.strip()), 0)
        out.header = _record(lines, first, starts[0] if starts else len(lines))
    if table.texts is None:
        return out
    ends = starts[1:] + [len(lines)]
    for k, (start, end) in enumerate(zip(starts, ends)):
        raw = lines[start] if spec.delimiter == "\t" else _record(lines, start, end)
        out.items.append(Item(table.texts[k], table.labels[k], start,
                              table.ids[k] if table.ids is not None else None, k, raw))
    return out


def _record(lines: list[str], start: int, end: int) -> str:
    """Lines ``start`` to ``end`` (a CSV record, which may span lines),
    without the blank lines after it."""
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


@dataclass(frozen=True)
class ReadOptions:
    """How to read files: the format (None: from the name), word/POS
    tokens, and a labels table's columns (``text``, ``label``, ``id``)."""

    format: str | None = None
    pos: bool = False
    text_column: str | None = None
    label_column: str | None = None
    id_column: str | None = None


def format_of(path: str, options: ReadOptions) -> str | None:
    """The format asked for, else the one the extension says; a table
    column given makes a ``.tsv`` file labelled text."""
    if options.format:
        return options.format
    extension = os.path.splitext(path)[1].lower()
    if extension == ".tsv" and (options.text_column or options.label_column or options.id_column):
        return "labels"
    return EXTENSIONS.get(extension)


def read_items(path: str, options: ReadOptions = ReadOptions()) -> ItemFile:
    """The items of a file.  Raises OSError when it cannot be opened, and
    ValueError when its format cannot be told (give ``options.format``)."""
    fmt = format_of(path, options)
    if fmt == "conllu":
        return read_conllu(path)
    if fmt in ("space", "tsv"):
        return read_segmentation(path, fmt, options.pos)
    if fmt == "labels":
        spec = table_spec(path, options.text_column, options.label_column, options.id_column,
                          text_by_default=True)
        assert spec is not None
        return read_labelled(path, spec)
    raise ValueError(f"{path}: cannot tell the format from the name; give --format ({', '.join(FORMATS)})")
