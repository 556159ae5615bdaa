"""Reattaching a word: a new HEAD (and DEPREL), never a cycle."""

from __future__ import annotations

from .errors import EditError
from .model import DEPREL, ROOT, Ref, EditableSentence, Word


def chain(word: Word) -> list[Word]:
    """The word and its heads upwards, until the root, a HEAD that is not a
    word, or a word seen before."""
    out: list[Word] = []
    seen: set[int] = set()
    node: Ref = word
    while isinstance(node, Word) and id(node) not in seen:
        seen.add(id(node))
        out.append(node)
        node = node.head
    return out


def reattach(sentence: EditableSentence, word: Word, head: Ref, deprel: str | None = None) -> str:
    """``word``'s HEAD becomes ``head`` (DEPREL too when given; ``root`` for
    the root); its DEPS item for the old head follows.  Refused where it
    would make a cycle or a second root."""
    if head is word:
        raise EditError(f"{sentence.named(word)} cannot be its own head")
    if isinstance(head, Word):
        up = chain(head)
        if any(w is word for w in up):
            path = " → ".join(sentence.named(w) for w in up[:up.index(word) + 1])
            raise EditError(f"attaching {sentence.named(word)} to {sentence.named(head)} would make a cycle: "
                            f"{path}")
    elif head is ROOT:
        others = [r for r in sentence.roots() if r is not word]
        if others:
            raise EditError(f"the sentence has a root already ({sentence.named(others[0])}); "
                            "attach that one elsewhere first")
    old_head, old_rel = word.head, word.cells[DEPREL]
    rel = deprel or ("root" if head is ROOT else old_rel if old_rel not in ("root", "_") else "dep")
    word.head = head
    word.cells[DEPREL] = rel
    if not isinstance(word.deps, str):
        word.deps = [(head, rel) if h is old_head and r == old_rel else (h, r) for h, r in word.deps]
    where = "the root" if head is ROOT else sentence.named(head)
    return f"Attach {sentence.named(word)} to {where} as {rel}"
