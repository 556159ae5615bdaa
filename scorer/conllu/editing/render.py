"""A `model.EditableSentence` written as CoNLL-U lines, numbered by position."""

from __future__ import annotations

from .model import DEPS, HEAD, ID, EmptyNode, Ref, EditableSentence, Word, _Root


def numbering(sentence: EditableSentence) -> dict[int, str]:
    """The ID each word and empty node is written with, by ``id()`` of the object."""
    ids: dict[int, str] = {}
    for i, w in enumerate(sentence.words):
        ids[id(w)] = str(i + 1)
    counts: dict[int, int] = {}
    for node in sentence.empties:
        k = 0 if node.after is None else int(ids[id(node.after)])
        counts[k] = counts.get(k, 0) + 1
        ids[id(node)] = f"{k}.{counts[k]}"
    return ids


def _ref(ref: Ref, ids: dict[int, str]) -> str:
    if isinstance(ref, _Root):
        return "0"
    if isinstance(ref, str):
        return ref
    return ids[id(ref)]


def _deps(deps, ids: dict[int, str]) -> str:
    if isinstance(deps, str):
        return deps
    if not deps:
        return "_"
    return "|".join(f"{_ref(head, ids)}:{rel}" for head, rel in deps)


def _sort_key(text_id: str) -> tuple[int, int]:
    whole, _, part = text_id.partition(".")
    return int(whole), int(part or 0)


def render_lines(sentence: EditableSentence) -> list[str]:
    return [line for line, _ in layout(sentence)]


def layout(sentence: EditableSentence) -> list[tuple[str, object]]:
    """Each line written, with what it writes: None for a comment, else the
    word, empty node or multiword range."""
    ids = numbering(sentence)
    starting: dict[int, list] = {}
    for mwt in sentence.ranges:
        starting.setdefault(id(mwt.first), []).append(mwt)
    after: dict[int, list[EmptyNode]] = {}
    for node in sentence.empties:
        after.setdefault(id(node.after), []).append(node)
    lines: list[tuple[str, object]] = [(c, None) for c in sentence.comments]

    def node_line(node: EmptyNode) -> tuple[str, object]:
        cells = list(node.cells)
        cells[ID] = ids[id(node)]
        cells[DEPS] = _deps(_sorted_deps(node.deps, ids), ids)
        return "\t".join(cells), node

    for node in after.get(id(None), ()):
        lines.append(node_line(node))
    for w in sentence.words:
        for mwt in starting.get(id(w), ()):
            cells = list(mwt.cells)
            cells[ID] = f"{ids[id(mwt.first)]}-{ids[id(mwt.last)]}"
            lines.append(("\t".join(cells), mwt))
        cells = list(w.cells)
        cells[ID] = ids[id(w)]
        cells[HEAD] = _ref(w.head, ids)
        cells[DEPS] = _deps(_sorted_deps(w.deps, ids), ids)
        lines.append(("\t".join(cells), w))
        for node in after.get(id(w), ()):
            lines.append(node_line(node))
    return lines


def _sorted_deps(deps, ids: dict[int, str]):
    """DEPS items ordered by their heads' new IDs, then relations, as the format asks."""
    if isinstance(deps, str) or len(deps) < 2:
        return deps
    def key(item) -> tuple[tuple[int, int], str]:
        head = item[0]
        return ((10**9, 0) if isinstance(head, str) else _sort_key(_ref(head, ids))), item[1]

    return sorted(deps, key=key)


def render(sentence: EditableSentence) -> str:
    return "\n".join(render_lines(sentence))


def node_at_line(sentence: EditableSentence, line: int) -> object:
    """What ``line`` of the block (0-based) writes: a word, an empty node, a
    multiword range, or None (a comment, or past the end)."""
    rows = layout(sentence)
    return rows[line][1] if 0 <= line < len(rows) else None
