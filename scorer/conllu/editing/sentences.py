"""Splitting a sentence in two at a word, joining a sentence with the next."""

from __future__ import annotations

from typing import Container

from .errors import EditError
from .model import DEPREL, ROOT, EmptyNode, Ref, EditableSentence, Word
from .references import retarget_deps
from .surface import keep_text, set_text, surface

# How the second sentence's root hangs on the first's when two are joined
# (UD's relation for a sentence placed beside another).
JOIN_RELATION = "parataxis"


def new_sent_id(sent_id: str, taken: Container[str]) -> str:
    """``sent_id`` with ``-2`` (``-3`` …) after it: the first not in ``taken``."""
    k = 2
    while f"{sent_id}-{k}" in taken:
        k += 1
    return f"{sent_id}-{k}"


def _depth(word: Word) -> int:
    from .attach import chain
    return len(chain(word))


def _cut(part: EditableSentence, inside: set[int], label_names: list[str], who: str) -> None:
    """Heads (and DEPS heads) of ``part``'s words outside it are replaced:
    by the part's root, or, when it has none, by a new root: the crossing
    word nearest the old root."""
    crossing = [w for w in part.words if isinstance(w.head, Word) and id(w.head) not in inside]
    roots = part.roots()
    new_root: Word | None = None
    if crossing:
        if roots:
            target: Ref = roots[0]
            for w in crossing:
                w.head = target
            label_names.append(f"{', '.join(repr(w.form) for w in crossing)} attached to the root "
                               f"'{roots[0].form}' of the {who} part")
        else:
            new_root = min(crossing, key=_depth)
            new_root.head, new_root.cells[DEPREL] = ROOT, "root"
            rest = [w for w in crossing if w is not new_root]
            for w in rest:
                w.head = new_root
            names = f"'{new_root.form}' is the new root of the {who} part"
            if rest:
                names += f" ({', '.join(repr(w.form) for w in rest)} attached to it)"
            label_names.append(names)
    root_now = part.roots()[0] if part.roots() else None

    def target_of(node, h, rel):
        if not isinstance(h, (Word, EmptyNode)) or id(h) in inside:
            return None
        if node is new_root or node is root_now or root_now is None:
            return ROOT, "root"
        return root_now, rel

    retarget_deps(part, target_of)


def split_sentence(sentence: EditableSentence, at: Word, taken: Container[str]) -> tuple[EditableSentence, EditableSentence, str]:
    """Two sentences: the words before ``at`` and ``at`` with the words after
    it.  The second gets a new sent_id (see `new_sent_id`) and a ``# text``;
    the first keeps every comment."""
    k = sentence.index(at)
    if k == 0:
        raise EditError("the sentence cannot be split before its first word")
    mwt = sentence.range_of(at)
    if mwt is not None and mwt.first is not at:
        raise EditError(f"{sentence.named(at)} is inside the multiword token '{mwt.form}'; split before the token")
    before = surface(sentence)
    first = EditableSentence(comments=list(sentence.comments), words=sentence.words[:k])
    second = EditableSentence(words=sentence.words[k:])
    in_first = {id(w) for w in first.words}
    for r in sentence.ranges:
        (first if id(r.first) in in_first else second).ranges.append(r)
    for node in sentence.empties:
        (first if node.after is None or id(node.after) in in_first else second).empties.append(node)
    in_second = {id(w) for w in second.words} | {id(n) for n in second.empties}
    in_first |= {id(n) for n in first.empties}
    notes: list[str] = []
    _cut(first, in_first, notes, "first")
    _cut(second, in_second, notes, "second")
    sent_id = sentence.comment_value("sent_id")
    label = f"Split the sentence before {sentence.named(at)}"
    if sent_id is not None:
        new_id = new_sent_id(sent_id, taken)
        second.comments.append(f"# sent_id = {new_id}")
        label += f" (new sent_id {new_id})"
    if sentence.comment_value("text") is not None:
        second.comments.append(f"# text = {surface(second)}")
    keep_text(first, before)
    if notes:
        label += "; " + "; ".join(notes)
    return first, second, label


def _has_graph(sentence: EditableSentence) -> bool:
    return bool(sentence.empties) or any(not isinstance(w.deps, str) for w in sentence.words)


def join_sentences(first: EditableSentence, second: EditableSentence) -> tuple[EditableSentence, str]:
    """One sentence: the second's words after the first's, its root attached
    to the first's root (`JOIN_RELATION`); the first's comments (``# text``
    rebuilt), the second's dropped (named in the label)."""
    roots = first.roots()
    label = "Join with the next sentence"
    graphs = _has_graph(first), _has_graph(second)
    if graphs[0] != graphs[1]:
        # One enhanced graph for the whole: the other's words get their basic heads as DEPS.
        without = second if graphs[0] else first
        for w in without.words:
            if isinstance(w.deps, str) and w.deps == "_" and not isinstance(w.head, str):
                w.deps = [(w.head, w.cells[DEPREL])]
        label += f"; the {'next' if graphs[0] else 'first'} sentence's basic heads copied to its DEPS"
    joined = EditableSentence(comments=list(first.comments), words=first.words + second.words,
                      ranges=first.ranges + second.ranges, empties=list(first.empties))
    last = first.words[-1]
    for node in second.empties:
        if node.after is None:
            node.after = last
        joined.empties.append(node)
    if roots:
        root = roots[0]
        for w in second.roots():
            w.head, w.cells[DEPREL] = root, JOIN_RELATION
            label += f"; its root '{w.form}' attached to '{root.form}' as {JOIN_RELATION}"
        moved = {id(w) for w in second.words} | {id(n) for n in second.empties}
        retarget_deps(joined, lambda node, h, rel: (root, JOIN_RELATION)
                      if h is ROOT and id(node) in moved else None)
    dropped = second.comment_value("sent_id")
    if dropped is not None:
        label += f"; its sent_id {dropped} goes"
    others = [c for c in second.comments if (c[1:].partition("=")[0].strip() not in ("sent_id", "text"))]
    if others:
        label += f" with {len(others)} other comment{'s' if len(others) > 1 else ''}"
    text_before = first.comment_value("text")
    if text_before is not None:
        set_text(joined, surface(joined))
    return joined, label
