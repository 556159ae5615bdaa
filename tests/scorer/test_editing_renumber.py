"""Renumbering after hand edits: lines inserted, deleted or moved without
renumbering, at random places of generated and real sentences, give back
the tree the annotator meant (the one the library's own operation makes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.editing import generated_sentences, real_blocks  # noqa: E402
from annoscore.scorer.conllu.editing import read_sentence, render  # noqa: E402
from annoscore.scorer.conllu.editing.model import ID, Word  # noqa: E402
from annoscore.scorer.conllu.editing.operations import edit_block  # noqa: E402
from annoscore.scorer.conllu.editing.render import layout  # noqa: E402
from annoscore.scorer.conllu.editing.renumber import out_of_sequence, renumber  # noqa: E402

REAL = real_blocks(limit_per_file=60, seed=3)


def without_text(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("# text")]


def plain_words(block: str) -> list[int]:
    """Lines of words outside multiword tokens with no empty node after them."""
    sentence = read_sentence(block)
    rows = layout(sentence)
    out = []
    for k, (_, node) in enumerate(rows):
        if isinstance(node, Word) and sentence.range_of(node) is None and \
                not any(e.after is node for e in sentence.empties) and (k + 1 >= len(rows) or isinstance(rows[k + 1][1], Word)):
            out.append(k)
    return out


def hand_insert(rng: random.Random, block: str) -> tuple[str, list[str]] | None:
    """A new line typed before a word, with that word's ID and a HEAD in the
    old numbers; and what inserting it with the library gives."""
    lines = block.split("\n")
    places = plain_words(block)
    if not places:
        return None
    k = rng.choice(places)
    cols = lines[k].split("\t")
    n = len(read_sentence(block).words)
    head = rng.randint(1, n)
    new = [cols[ID], "qzxv", "qzxv", "X", "_", "_", str(head), "dep", "_", "_"]
    if cols[8] != "_":
        new[8] = f"{head}:dep"
    edited = "\n".join(lines[:k] + ["\t".join(new)] + lines[k:])
    outcome = edit_block("insertBefore", block, k, {"form": "qzxv", "lemma": "qzxv", "upos": "X",
                                                    "head": head, "deprel": "dep"})
    intended = lines[:outcome.start] + outcome.lines + lines[outcome.end:]
    return edited, intended


def hand_delete(rng: random.Random, block: str) -> tuple[str, list[str], bool] | None:
    sentence = read_sentence(block)
    lines = block.split("\n")
    places = [k for k in plain_words(block) if len(sentence.words) > 1]
    if not places:
        return None
    k = rng.choice(places)
    word = layout(sentence)[k][1]
    referred = bool(sentence.dependents(word)) or any(
        not isinstance(n.deps, str) and any(h is word for h, _ in n.deps) for n in [*sentence.words, *sentence.empties]
        if n is not word)
    edited = "\n".join(lines[:k] + lines[k + 1:])
    outcome = edit_block("delete", block, k)
    intended = lines[:outcome.start] + outcome.lines + lines[outcome.end:]
    return edited, intended, referred


def hand_move(rng: random.Random, block: str) -> tuple[str, list[str]] | None:
    sentence = read_sentence(block)
    if sentence.ranges or sentence.empties or len(sentence.words) < 3:
        return None
    lines = block.split("\n")
    c = len(sentence.comments)
    i, j = rng.sample(range(len(sentence.words)), 2)
    moved = lines[c:]
    moved.insert(j, moved.pop(i))
    word = sentence.words.pop(i)
    sentence.words.insert(j, word)
    return "\n".join(lines[:c] + moved), render(sentence).split("\n")


def check(blocks: list[str], seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    seen = {"insert": 0, "delete": 0, "lost": 0, "move": 0}
    for block in blocks:
        case = hand_insert(rng, block)
        if case is not None:
            edited, intended = case
            assert out_of_sequence(edited) is not None
            result = renumber(edited)
            if "qzxv" not in block:
                assert result.certain, (edited, result.ambiguous, result.lost)
                assert without_text(result.lines) == without_text(intended), edited
                seen["insert"] += 1
        case = hand_delete(rng, block)
        if case is not None:
            edited, intended, referred = case
            if out_of_sequence(edited) is None:
                continue  # the sentence's last word: nothing is out of sequence
            result = renumber(edited)
            if referred:
                assert result.lost and not result.certain, edited
                seen["lost"] += 1
            else:
                assert result.certain and without_text(result.lines) == without_text(intended), edited
                seen["delete"] += 1
        case = hand_move(rng, block)
        if case is not None:
            edited, intended = case
            if edited != block:
                result = renumber(edited)
                assert result.certain and result.lines == intended, edited
                seen["move"] += 1
    return seen


def test_hand_edits_of_generated_sentences_are_renumbered_to_the_intended_tree():
    seen = check(generated_sentences(11, 400), 11)
    assert min(seen.values()) > 30, seen


@pytest.mark.skipif(not REAL, reason="the shared treebanks (../shared/data/ud) are not here")
def test_hand_edits_of_real_sentences_are_renumbered_to_the_intended_tree():
    seen = check(REAL, 12)
    assert min(seen.values()) > 30, seen


def test_an_id_written_twice_that_the_text_does_not_settle_is_not_renumbered():
    block = "\n".join(["# text = a a b", "1\ta\ta\tX\t_\t_\t0\troot\t_\t_", "1\ta\ta\tX\t_\t_\t1\tdep\t_\t_",
                       "2\tb\tb\tX\t_\t_\t1\tdep\t_\t_"])
    result = renumber(block)
    assert not result.certain and result.ambiguous == [
        "HEAD 1 of 'a' (line 3): ID 1 is written on 'a' and 'a'", "HEAD 1 of 'b' (line 4): ID 1 is written on 'a' and 'a'"]
    assert out_of_sequence(block).line == 2 and out_of_sequence(block).expected == "2"


def test_sentences_in_sequence_are_left_alone():
    for block in generated_sentences(2, 50):
        assert out_of_sequence(block) is None
        assert renumber(block).lines == block.split("\n")
