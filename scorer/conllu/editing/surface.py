"""The sentence's surface text, from its tokens' FORMs and SpaceAfter, and
the ``# text`` comment kept to it when an edit changes the surface."""

from __future__ import annotations

from .misc import no_space_after
from .model import MISC, EditableSentence


def tokens(sentence: EditableSentence) -> list[tuple[str, str]]:
    """(FORM, MISC) of each token: a multiword range's own, or the word's."""
    out = []
    starts = {id(mwt.first): mwt for mwt in sentence.ranges}
    i = 0
    words = sentence.words
    while i < len(words):
        mwt = starts.get(id(words[i]))
        if mwt is not None:
            out.append((mwt.form, mwt.cells[MISC]))
            i = sentence.index(mwt.last) + 1
        else:
            out.append((words[i].form, words[i].cells[MISC]))
            i += 1
    return out


def surface(sentence: EditableSentence) -> str:
    parts = []
    for form, misc in tokens(sentence):
        parts.append(form)
        if not no_space_after(misc):
            parts.append(" ")
    return "".join(parts).rstrip(" ")


def set_text(sentence: EditableSentence, text: str) -> None:
    """The first ``# text`` comment says ``text`` (none is added where there was none)."""
    for k, comment in enumerate(sentence.comments):
        name, sep, _ = comment[1:].partition("=")
        if sep and name.strip() == "text":
            sentence.comments[k] = f"# text = {text}"
            return


def keep_text(sentence: EditableSentence, before: str) -> None:
    """After an edit: ``# text`` rebuilt when the surface changed from ``before`` (only then)."""
    after = surface(sentence)
    if after != before:
        set_text(sentence, after)
