"""Multiword tokens: splitting a token into words under one, making one of
neighbouring words, undoing one."""

from __future__ import annotations

from .errors import EditError
from .misc import joined, no_space_after, token_items, with_items, without_token_items
from .model import DEPREL, FEATS, FORM, MISC, UPOS, XPOS, MultiwordRange, EditableSentence, Word
from .surface import keep_text, surface

# The relation the split-off word gets to the word it came from: the
# annotator corrects it (any other choice would be a guess too).
SPLIT_RELATION = "dep"


def split_word(sentence: EditableSentence, word: Word, forms: tuple[str, str]) -> str:
    """The word becomes two words ``forms`` under a multiword token with the
    word's FORM (or inside the token it is in already).  Both words carry the
    word's UPOS, XPOS, FEATS and MISC (Arborator #183); the first keeps its
    place in the tree, the second depends on it (`SPLIT_RELATION`)."""
    a, b = forms
    if not a or not b:
        raise EditError("both parts of a split need a FORM")
    before = surface(sentence)
    label = f"Split {sentence.named(word)} into '{a}' + '{b}'"
    mwt = sentence.range_of(word)
    misc = without_token_items(word.cells[MISC])
    if mwt is None:
        cells = ["_"] * 10
        cells[FORM], cells[MISC] = word.form, joined(token_items(word.cells[MISC]))
        mwt = MultiwordRange(cells, word, word)
        sentence.ranges.append(mwt)
        label += f" under the multiword token '{word.form}'"
    cells = ["_"] * 10
    cells[FORM] = b
    for column in (UPOS, XPOS, FEATS):
        cells[column] = word.cells[column]
    cells[DEPREL], cells[MISC] = SPLIT_RELATION, misc
    second = Word(cells, word, [(word, SPLIT_RELATION)] if not isinstance(word.deps, str) else "_")
    word.cells[FORM], word.cells[MISC] = a, misc
    i = sentence.index(word)
    sentence.words.insert(i + 1, second)
    if mwt.last is word:
        mwt.last = second
    for node in sentence.empties:  # (they stay after the token's last word)
        if node.after is word:
            node.after = second
    keep_text(sentence, before)
    return f"{label}; '{b}' attached to '{a}' as {SPLIT_RELATION}"


def make_token(sentence: EditableSentence, first: Word, last: Word) -> str:
    """Words ``first`` .. ``last`` become one multiword token, its FORM their
    FORMs joined, the last word's SpaceAfter moved to it."""
    i, j = sentence.index(first), sentence.index(last)
    if j <= i:
        raise EditError("a multiword token needs at least two words, the first before the last")
    words = sentence.words[i:j + 1]
    for w in words:
        if sentence.range_of(w) is not None:
            raise EditError(f"{sentence.named(w)} is in a multiword token already")
    if any(node.after is w for node in sentence.empties for w in words[:-1]):
        raise EditError("an empty node lies between these words")
    before = surface(sentence)
    form = "".join(w.form for w in words)
    cells = ["_"] * 10
    cells[FORM], cells[MISC] = form, joined(token_items(last.cells[MISC]))
    for w in words:
        w.cells[MISC] = without_token_items(w.cells[MISC])
    sentence.ranges.append(MultiwordRange(cells, first, last))
    sentence.ranges.sort(key=lambda r: sentence.index(r.first))
    keep_text(sentence, before)
    return f"Make words {i + 1}-{j + 1} the multiword token '{form}'"


def undo_token(sentence: EditableSentence, word: Word) -> str:
    """The multiword token the word is in goes; its words keep their FORMs,
    written without space between them, the last one taking the token's SpaceAfter."""
    mwt = sentence.range_of(word)
    if mwt is None:
        raise EditError(f"{sentence.named(word)} is not in a multiword token")
    before = surface(sentence)
    words = sentence.range_words(mwt)
    for w in words[:-1]:
        if not no_space_after(w.cells[MISC]):
            w.cells[MISC] = with_items(w.cells[MISC], ["SpaceAfter=No"])
    last = words[-1]
    last.cells[MISC] = with_items(last.cells[MISC], token_items(mwt.cells[MISC]))
    sentence.ranges.remove(mwt)
    keep_text(sentence, before)
    ids = f"{sentence.number(words[0])}-{sentence.number(last)}"
    return f"Undo the multiword token {ids} '{mwt.form}'"

