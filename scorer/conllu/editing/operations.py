"""The operations by name, on the text of the sentence block at the cursor:
what the language server and its tests call.

Each takes the block's text (and the next block's, to join), the line of the
cursor in it and the operation's arguments, and gives an `Outcome`: a label
for the editor and the block's lines replaced by new ones, reduced to the
lines that change (so an edit touches no line it does not change).  Words
are named by the ID they are written with now (``head`` 0 is the root).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Container

from .attach import reattach
from .errors import EditError
from .model import ROOT, EmptyNode, MultiwordRange, Ref, EditableSentence, Word
from .read import read_sentence
from .render import node_at_line, render_lines
from .sentences import join_sentences, split_sentence
from .tokens import make_token, split_word, undo_token
from .words import delete_word, insert_new_word, merge_words


@dataclass
class Outcome:
    """Lines ``start`` .. ``end`` (exclusive, relative to the block's first
    line) become ``lines``; ``label`` says what was done."""

    label: str
    start: int
    end: int
    lines: list[str]


def smallest_change(old: list[str], new: list[str]) -> tuple[int, int, list[str]]:
    """(start, end, lines): the range of ``old`` to replace by ``lines`` to get ``new``."""
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old, new[start:end_new]


def _word_at(sentence: EditableSentence, line: int) -> Word:
    node = node_at_line(sentence, line)
    if isinstance(node, MultiwordRange):
        return node.first
    if isinstance(node, Word):
        return node
    if isinstance(node, EmptyNode):
        raise EditError("the cursor is on an empty node; put it on a word")
    raise EditError("put the cursor on a word's line")


def word_by_id(sentence: EditableSentence, value: Any, what: str = "head") -> Ref:
    """The word written with ID ``value`` now (0: the root)."""
    try:
        number = int(str(value))
    except ValueError:
        raise EditError(f"the {what} must be a word's ID, not {str(value)[:40]!r}") from None
    if number == 0:
        return ROOT
    if not 1 <= number <= len(sentence.words):
        raise EditError(f"the sentence has no word {number}")
    return sentence.words[number - 1]


def _text_arg(args: dict, name: str, default: str = "_") -> str:
    value = args.get(name)
    if value is None or value == "":
        return default
    value = str(value)
    if any(c in value for c in "\t\n\r"):
        raise EditError(f"the {name} cannot hold a tab or a line break")
    if name == "form" and value != value.strip():
        raise EditError("the FORM cannot start or end with a space")
    return value


def _insert(after: bool):
    def run(sentence: EditableSentence, word: Word, args: dict) -> str:
        head = args.get("head")
        return insert_new_word(sentence, word, after, _text_arg(args, "form"), _text_arg(args, "lemma"),
                               _text_arg(args, "upos"), None if head is None else word_by_id(sentence, head),
                               args.get("deprel") and _text_arg(args, "deprel"))
    return run


def _split(sentence: EditableSentence, word: Word, args: dict) -> str:
    forms = args.get("forms")
    if forms is not None:
        if not isinstance(forms, (list, tuple)) or len(forms) != 2:
            raise EditError("a split needs two FORMs")
        a, b = (str(f) for f in forms)
    else:
        at = args.get("at")
        if not isinstance(at, int) or not 0 < at < len(word.form):
            raise EditError(f"put the cursor inside the FORM '{word.form}' where it is to be split")
        a, b = word.form[:at], word.form[at:]
    return split_word(sentence, word, (a, b))


def _next(sentence: EditableSentence, word: Word) -> Word:
    i = sentence.index(word)
    if i + 1 >= len(sentence.words):
        raise EditError(f"{sentence.named(word)} is the sentence's last word")
    return sentence.words[i + 1]


def _make(sentence: EditableSentence, word: Word, args: dict) -> str:
    last = args.get("last")
    end = _next(sentence, word) if last is None else word_by_id(sentence, last, "last word")
    if not isinstance(end, Word):
        raise EditError("the last word of a multiword token must be a word")
    return make_token(sentence, word, end)


def _attach(sentence: EditableSentence, word: Word, args: dict) -> str:
    if "head" not in args:
        raise EditError("say which word to attach to (its ID, 0 for the root)")
    deprel = args.get("deprel")
    return reattach(sentence, word, word_by_id(sentence, args["head"]),
                    None if deprel in (None, "") else _text_arg(args, "deprel"))


# Operations on one sentence: (sentence, word at the cursor, arguments) → label.
IN_SENTENCE: dict[str, Callable[[EditableSentence, Word, dict], str]] = {
    "insertBefore": _insert(False),
    "insertAfter": _insert(True),
    "delete": lambda s, w, a: delete_word(s, w),
    "splitWord": _split,
    "mergeWithNext": lambda s, w, a: merge_words(s, w, _next(s, w)),
    "makeToken": _make,
    "undoToken": lambda s, w, a: undo_token(s, w),
    "attach": _attach,
}
OPERATIONS = (*IN_SENTENCE, "splitSentence", "joinWithNext")


def edit_block(operation: str, block: str, line: int, args: dict | None = None,
               sent_ids: Container[str] | None = None, next_block: str | None = None,
               between: int = 1) -> Outcome:
    """Run ``operation`` on the sentence in ``block`` with the cursor on its
    ``line``.  ``sent_ids``: the document's (a new one must differ from
    them); ``next_block`` and ``between`` (blank lines before it): the next
    sentence, for joinWithNext, whose outcome then covers both blocks."""
    args = dict(args or {})
    sentence = read_sentence(block)
    old = block.split("\n")
    if operation in IN_SENTENCE:
        word = _word_at(sentence, line)
        label = IN_SENTENCE[operation](sentence, word, args)
        new = render_lines(sentence)
    elif operation == "splitSentence":
        word = _word_at(sentence, line)
        first, second, label = split_sentence(sentence, word, sent_ids if sent_ids is not None else set())
        new = render_lines(first) + [""] + render_lines(second)
    elif operation == "joinWithNext":
        if next_block is None:
            raise EditError("this is the document's last sentence")
        following = read_sentence(next_block)
        joined, label = join_sentences(sentence, following)
        old = old + [""] * between + next_block.split("\n")
        new = render_lines(joined)
    else:
        raise EditError(f"no operation '{operation}' (known: {', '.join(OPERATIONS)})")
    start, end, lines = smallest_change(old, new)
    return Outcome(label, start, end, lines)
