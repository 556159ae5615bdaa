"""Moving references from one node to another (the DEPS side of deleting,
merging and cutting): every DEPS item that named ``old`` names ``new``
instead, without duplicates and without a node naming itself."""

from __future__ import annotations

from typing import Callable

from .model import EmptyNode, Ref, EditableSentence, Word


def nodes(sentence: EditableSentence) -> list[Word | EmptyNode]:
    return [*sentence.words, *sentence.empties]


def retarget_deps(sentence: EditableSentence, target: Callable[[Word | EmptyNode, Ref, str], tuple[Ref, str] | None]) -> None:
    """Each DEPS item (head, rel) of each node replaced by ``target(node,
    head, rel)`` (None: the item stays); items that come out equal or
    pointing at their own node are dropped."""
    for node in nodes(sentence):
        if isinstance(node.deps, str):
            continue
        out: list[tuple[Ref, str]] = []
        changed = False
        for head, rel in node.deps:
            new = target(node, head, rel)
            if new is not None:
                changed = True
                head, rel = new
            if head is node or any(h is head and r == rel for h, r in out):
                changed = True
                continue
            out.append((head, rel))
        if changed:
            node.deps = out


def deps_items_to(node: Word | EmptyNode, head: Ref) -> list[str]:
    return [] if isinstance(node.deps, str) else [rel for h, rel in node.deps if h is head]
