"""Inserting, deleting and merging words."""

from __future__ import annotations

from .attach import chain
from .errors import EditError
from .misc import token_items, with_items, without_token_items
from .model import DEPREL, FORM, LEMMA, MISC, ROOT, UPOS, Ref, EditableSentence, Word
from .references import retarget_deps
from .surface import keep_text, surface

# Relations of words that do not head a clause: a deleted root's dependent
# with another relation becomes the root before these.
FUNCTION_RELATIONS = frozenset({"punct", "case", "det", "cc", "mark", "aux", "cop", "discourse", "dep"})


def new_word(form: str = "_", lemma: str = "_", upos: str = "_", head: Ref | None = None,
             deprel: str | None = None, enhanced: bool = False) -> Word:
    """A word line with ``_`` in the cells not given."""
    cells = ["_"] * 10
    cells[FORM], cells[LEMMA], cells[UPOS] = form or "_", lemma or "_", upos or "_"
    if head is None:
        cells[DEPREL] = deprel or "_"
        return Word(cells, "_", "_")
    rel = deprel or ("root" if head is ROOT else "dep")
    cells[DEPREL] = rel
    return Word(cells, head, [(head, rel)] if enhanced else "_")


def insert_word(sentence: EditableSentence, anchor: Word, after: bool, word: Word) -> str:
    """``word`` put before or after ``anchor`` (inside the anchor's multiword
    token when it lands between two of its words)."""
    if word.head is ROOT and sentence.roots():
        raise EditError(f"the sentence has a root already ({sentence.named(sentence.roots()[0])}); "
                        "attach the new word to a word")
    before = surface(sentence)
    label = f"Insert '{word.form}' {'after' if after else 'before'} {sentence.named(anchor)}"
    at = sentence.index(anchor) + (1 if after else 0)
    sentence.words.insert(at, word)
    keep_text(sentence, before)
    return label


def _uses_enhanced(sentence: EditableSentence) -> bool:
    return any(not isinstance(w.deps, str) or w.deps != "_" for w in sentence.words)


def insert_new_word(sentence: EditableSentence, anchor: Word, after: bool, form: str = "_", lemma: str = "_",
                    upos: str = "_", head: Ref | None = None, deprel: str | None = None) -> str:
    return insert_word(sentence, anchor, after,
                       new_word(form, lemma, upos, head, deprel, enhanced=_uses_enhanced(sentence)))


def delete_word(sentence: EditableSentence, word: Word) -> str:
    """The word goes; its dependents attach to its head (a root's dependents:
    the first that is not punctuation becomes the root, the others attach to
    it); a multiword token it was in shrinks, or goes when one word is left."""
    if len(sentence.words) == 1:
        raise EditError("the sentence has no other word; delete the sentence's lines instead")
    before = surface(sentence)
    label = f"Delete {sentence.named(word)}"
    dependents = sentence.dependents(word)
    head = word.head
    new_root = None
    if head is ROOT and dependents:
        new_root = next((d for d in dependents if d.cells[DEPREL].partition(":")[0] not in FUNCTION_RELATIONS),
                        dependents[0])
        label += f"; {sentence.named(new_root)} becomes the root"
        new_root.head, new_root.cells[DEPREL] = ROOT, "root"
        others = [d for d in dependents if d is not new_root]
        for d in others:
            d.head = new_root
        if others:
            label += f", {_names(sentence, others)} attach to it"
    elif dependents:
        for d in dependents:
            d.head = head
        where = sentence.named(head) if isinstance(head, Word) else f"HEAD {head}"
        label += f"; {_names(sentence, dependents)} attach to {where}"
    # The word's own enhanced heads take its place in others' DEPS.
    own = [h for h, _ in word.deps] if not isinstance(word.deps, str) else []

    def target(node, h, rel):
        if h is not word:
            return None
        if node is new_root:
            return ROOT, "root"
        if isinstance(node, Word) and node.head is new_root and new_root is not None:
            return new_root, rel
        if isinstance(node, Word) and node in dependents and not isinstance(node.head, str):
            return node.head, rel
        return (own[0] if own else head if not isinstance(head, str) else ROOT), rel

    retarget_deps(sentence, target)
    i = sentence.index(word)
    previous = sentence.words[i - 1] if i else None
    for node in sentence.empties:
        if node.after is word:
            node.after = previous
    mwt = sentence.range_of(word)
    if mwt is not None:
        rest = [w for w in sentence.range_words(mwt) if w is not word]
        if len(rest) >= 2:
            mwt.first, mwt.last = rest[0], rest[-1]
        else:
            sentence.ranges.remove(mwt)
            rest[0].cells[MISC] = with_items(rest[0].cells[MISC], token_items(mwt.cells[MISC]))
            label += f"; the multiword token '{mwt.form}' is undone"
    del sentence.words[i]
    keep_text(sentence, before)
    return label


def merge_words(sentence: EditableSentence, first: Word, second: Word) -> str:
    """Two neighbouring words become one: the one above the other in the tree
    keeps its cells and head (else the first), FORMs joined (a multiword token of exactly
    these two words gives its FORM and goes)."""
    i = sentence.index(first)
    if sentence.index(second) != i + 1:
        raise EditError("only neighbouring words can be merged")
    before = surface(sentence)
    range_a, range_b = sentence.range_of(first), sentence.range_of(second)
    if range_a is not range_b:
        raise EditError("the words belong to different tokens; undo the multiword token first")
    # The word higher in the tree keeps its cells and head, so no cycle comes of it.
    kept, gone = (second, first) if any(w is second for w in chain(first)) else (first, second)
    label = f"Merge {sentence.named(first)} and {sentence.named(second)}"
    if range_a is not None and range_a.first is first and range_a.last is second:
        form = range_a.form
        misc = with_items(kept.cells[MISC], token_items(range_a.cells[MISC]))
        sentence.ranges.remove(range_a)
    elif range_a is not None:
        form, misc = first.form + second.form, kept.cells[MISC]
    else:
        form = first.form + second.form
        misc = with_items(without_token_items(kept.cells[MISC]), token_items(second.cells[MISC]))
    for d in sentence.dependents(gone):
        d.head = kept
    retarget_deps(sentence, lambda node, h, rel: (kept, rel) if h is gone else None)
    for node in sentence.empties:
        if node.after is gone:
            node.after = kept
    for mwt in sentence.ranges:
        if mwt.first is gone:
            mwt.first = kept
        if mwt.last is gone:
            mwt.last = kept
    kept.cells[FORM], kept.cells[MISC] = form, misc
    sentence.words.remove(gone)
    keep_text(sentence, before)
    return f"{label} into '{form}'"


def _names(sentence: EditableSentence, words: list[Word]) -> str:
    return ", ".join(sentence.named(w) for w in words)
