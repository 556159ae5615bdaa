"""The sentence operations under random use: on generated sentences (every
clone) and on sentences of the shared treebanks (skipped without them).

Each operation's outcome is applied to the document's lines as a client
applies the WorkspaceEdit; then the document must be as valid at levels 1-2
of the UD validator as it was, every word the operation did not touch must
have the same head word, and an operation followed by its inverse must give
back the text byte for byte.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.editing import apply_change, blocks_of, generated_sentence, generated_sentences, real_blocks  # noqa: E402
from annoscore.scorer.conllu.editing import EditError, read_sentence  # noqa: E402
from annoscore.scorer.conllu.editing.misc import no_space_after  # noqa: E402
from annoscore.scorer.conllu.editing.model import MISC, MultiwordRange, Word  # noqa: E402
from annoscore.scorer.conllu.editing.operations import OPERATIONS, edit_block  # noqa: E402
from annoscore.scorer.conllu.editing.render import layout  # noqa: E402
from annoscore.scorer.conllu.editing.surface import surface  # noqa: E402
from annoscore.scorer.validation import ValidationSettings, validate_block  # noqa: E402

LEVEL2 = ValidationSettings(level=2)
REAL = real_blocks()


def errors(text: str) -> list[tuple[str, str]]:
    out = []
    for _, block in blocks_of(text):
        out += [(i.test_id, i.message) for i in validate_block(block, LEVEL2).incidents]
    return out


def word_lines(block: str) -> list[int]:
    return [k for k, (_, node) in enumerate(layout(read_sentence(block))) if isinstance(node, Word)]


def sent_ids(text: str) -> set[str]:
    return {line.partition("=")[2].strip() for line in text.split("\n") if line.startswith("# sent_id")}


def random_args(rng: random.Random, operation: str, block: str, line: int) -> dict:
    sentence = read_sentence(block)
    n = len(sentence.words)
    word = layout(sentence)[line][1]
    if operation in ("insertBefore", "insertAfter"):
        return {"form": rng.choice(("ni", "xo", "ka")), "upos": "NOUN", "head": rng.randint(1, n), "deprel": "dep"}
    if operation == "attach":
        return {"head": rng.randint(0, n), "deprel": rng.choice((None, "obl"))}
    if operation == "splitWord":
        return {"at": rng.randint(1, max(1, len(word.form) - 1))}
    return {}


def apply(text: str, operation: str, block_index: int, line: int, args: dict) -> tuple[str, str]:
    """The document after ``operation`` at ``line`` of its ``block_index``-th
    block, applied as a client applies the outcome, and the label."""
    blocks = blocks_of(text)
    first, block = blocks[block_index]
    following = blocks[block_index + 1] if block_index + 1 < len(blocks) else None
    between = following[0] - first - block.count("\n") - 1 if following else 1
    outcome = edit_block(operation, block, line, args, sent_ids(text),
                         following[1] if following else None, between)
    return "\n".join(apply_change(text.split("\n"), first, outcome.start, outcome.end, outcome.lines)), outcome.label


def tagged(text: str) -> str:
    """Every word's MISC gets ``Ident=k``, unique in the document: who is who after an edit."""
    out, k = [], 0
    for line in text.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            k += 1
            cols[MISC] = f"Ident={k}" if cols[MISC] == "_" else f"Ident={k}|{cols[MISC]}"
        out.append("\t".join(cols))
    return "\n".join(out)


def heads_by_identity(text: str) -> dict[str, tuple[str, str]]:
    """Ident of each word → (Ident of its head, or 'root', its sent_id); words
    whose Ident occurs twice (a split copies MISC) are left out."""
    out: dict[str, tuple[str, str]] = {}
    twice: set[str] = set()
    for _, block in blocks_of(text):
        sentence = read_sentence(block)
        sid = sentence.comment_value("sent_id") or ""

        def ident(w: Word) -> str:
            return next(i for i in w.cells[MISC].split("|") if i.startswith("Ident="))
        for w in sentence.words:
            key = ident(w) if "Ident=" in w.cells[MISC] else None
            if key is None:
                continue
            if key in out:
                twice.add(key)
            head = w.head
            out[key] = ("root" if not isinstance(head, Word) else
                        ident(head) if "Ident=" in head.cells[MISC] else "new", sid)
    return {k: v for k, v in out.items() if k not in twice}


def random_session(text: str, rng: random.Random, steps: int = 6) -> dict[str, int]:
    """Random operations one after the other; how many of each were made (not refused)."""
    made: dict[str, int] = {}
    for _ in range(steps):
        blocks = blocks_of(text)
        b = rng.randrange(len(blocks))
        block = blocks[b][1]
        operation = rng.choice(OPERATIONS)
        line = rng.choice(word_lines(block))
        args = random_args(rng, operation, block, line)
        valid_before = not errors(text)
        before = heads_by_identity(text)
        target = layout(read_sentence(block))[line][1]
        try:
            after_text, label = apply(text, operation, b, line, args)
        except EditError as refused:
            assert str(refused)
            continue
        where = f"{operation} {args} at line {line} of\n{block}\n→\n{after_text}"
        if valid_before:
            assert not errors(after_text), (where, errors(after_text))
        after = heads_by_identity(after_text)
        target_ident = next((i for i in target.cells[MISC].split("|") if i.startswith("Ident=")), None)
        for ident, (head, sid) in before.items():
            if ident not in after or ident == target_ident or head not in after and head != "root":
                continue  # gone, the word operated on, or its head gone
            if head == target_ident and operation in ("delete", "mergeWithNext"):
                continue  # a dependent of the word deleted or merged: the label says where it went
            new_head, new_sid = after[ident]
            if operation in ("splitSentence", "joinWithNext", "delete") and new_head != head:
                # A head across the cut (or a deleted root's dependent): named in the label.
                assert "attached" in label or "root" in label, (where, label)
                continue
            if operation == "splitWord" and head == target_ident:
                continue  # its head is the first part now, which keeps the identity
            assert new_head == head, (where, ident, head, new_head)
        text = after_text
        made[operation] = made.get(operation, 0) + 1
    return made


def add(total: dict[str, int], made: dict[str, int]) -> None:
    for operation, count in made.items():
        total[operation] = total.get(operation, 0) + count


@pytest.mark.parametrize("seed", range(12))
def test_random_operations_on_generated_sentences_keep_validity_and_heads(seed: int):
    rng = random.Random(seed)
    total: dict[str, int] = {}
    for k in range(20):
        text = tagged("\n\n".join(generated_sentences(seed * 100 + k, 3)) + "\n")
        assert not errors(text)
        add(total, random_session(text, rng))
    assert sum(total.values()) > 60 and len(total) >= 8, total  # most are made, of most kinds


@pytest.mark.skipif(not REAL, reason="the shared treebanks (../shared/data/ud) are not here")
def test_random_operations_on_real_treebank_sentences_keep_validity_and_heads():
    rng = random.Random(7)
    total: dict[str, int] = {}
    for k in range(0, len(REAL) - 1, 2):
        text = tagged(REAL[k] + "\n\n" + REAL[k + 1] + "\n")
        add(total, random_session(text, rng, steps=4))
    assert set(total) == set(OPERATIONS) and sum(total.values()) > len(REAL), total


# --- operation followed by its inverse ----------------------------------------------


def consistent(block: str) -> bool:
    """``# text`` is what the FORMs and SpaceAfter make, and MISC items are
    sorted: where an inverse can give back every byte (an inverse rebuilds
    ``# text`` and puts SpaceAfter back where it sorts)."""
    sentence = read_sentence(block)
    ok = sentence.comment_value("text") is None or sentence.comment_value("text") == surface(sentence)
    for w in sentence.words:
        items = w.cells[MISC].split("|")
        ok = ok and items == sorted(items, key=lambda i: i.partition("=")[0].lower())
    return ok


def inverse_cases(blocks: list[str], rng: random.Random):
    for block in blocks:
        if not consistent(block):
            continue
        sentence = read_sentence(block)
        rows = layout(sentence)
        lines = [k for k, (_, node) in enumerate(rows) if isinstance(node, Word)]
        yield block, sentence, rows, rng.choice(lines)


def _line_of_word(text: str, number: int) -> int:
    rows = layout(read_sentence(blocks_of(text)[0][1]))
    return next(k for k, (_, node) in enumerate(rows) if isinstance(node, Word) and node.cells[0] == str(number))


def round_trip(block: str, first: tuple[str, dict], line: int, second) -> str:
    text = block + "\n"
    after, _ = apply(text, first[0], 0, line, first[1])
    operation, line2, args2 = second(after)
    back, _ = apply(after, operation, 0, line2, args2)
    return back


def check_inverses(blocks: list[str], seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    for block, sentence, rows, line in inverse_cases(blocks, rng):
        word = rows[line][1]
        n = sentence.number(word)
        # insert, then delete what was inserted
        for operation, new in (("insertAfter", n + 1), ("insertBefore", n)):
            back = round_trip(block, (operation, {"form": "zu", "upos": "X", "head": n, "deprel": "dep"}), line,
                              lambda after, new=new: ("delete", _line_of_word(after, new), {}))
            assert back == block + "\n", (operation, block, back)
        # split a word, then merge its parts
        if len(word.form) > 1:
            at = rng.randint(1, len(word.form) - 1)
            back = round_trip(block, ("splitWord", {"at": at}), line,
                              lambda after: ("mergeWithNext", _line_of_word(after, n), {}))
            assert back == block + "\n", ("split/merge", block, back)
        # make a multiword token of two words written without space between, then undo it
        i = sentence.index(word)
        if i + 1 < len(sentence.words) and sentence.range_of(word) is None \
                and sentence.range_of(sentence.words[i + 1]) is None and no_space_after(word.cells[MISC]) \
                and not any(e.after is word for e in sentence.empties):
            back = round_trip(block, ("makeToken", {}), line,
                              lambda after: ("undoToken", _line_of_word(after, n), {}))
            assert back == block + "\n", ("make/undo", block, back)
        checked += 1
    return checked


def test_inverse_operations_give_back_generated_sentences_byte_for_byte():
    assert check_inverses(generated_sentences(5, 400), 5) > 300


@pytest.mark.skipif(not REAL, reason="the shared treebanks (../shared/data/ud) are not here")
def test_inverse_operations_give_back_real_sentences_byte_for_byte():
    assert check_inverses(REAL, 6) > len(REAL) // 2


def test_splitting_a_sentence_and_joining_it_again_gives_it_back():
    rng = random.Random(3)
    checked = 0
    for k in range(200):
        at = rng.randint(1, 6)
        block = generated_sentence(rng, f"p{k}", parataxis_at=at)
        text = block + "\n"
        line = _line_of_word(block, at + 1)
        split, label = apply(text, "splitSentence", 0, line, {})
        assert len(blocks_of(split)) == 2 and f"p{k}-2" in label
        assert not errors(split), (block, split)
        joined, _ = apply(split, "joinWithNext", 0, 0, {})
        assert joined == text, (block, split, joined)
        checked += 1
    assert checked == 200
