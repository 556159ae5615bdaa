"""Reading a sentence's text into the model (`model`) an edit works on;
a sentence that would not be written back as it was (`render`) is refused."""

from __future__ import annotations

from .errors import EditError
from .model import DEPS, Deps, EmptyNode, FORM, HEAD, ID, MultiwordRange, ROOT, Ref, EditableSentence, Word, _Root
from .render import render


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


def read_sentence(text: str) -> EditableSentence:
    """The sentence in ``text`` (one block, no blank line), its references
    resolved; EditError when it cannot be edited as a tree without changing
    lines the edit does not touch (IDs out of sequence: renumber first)."""
    comments, rows = split_rows(text)
    sentence = EditableSentence(comments=comments)
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
