"""Inlay hints in a sentence whose IDs are out of sequence name the word each
HEAD meant — the one Renumber keeps it attached to — not the word that now
happens to hold that number."""

from __future__ import annotations

from annoscore.server.engine import Engine
from annoscore.server.engine.reading import inlay_hints
from annoscore.scorer.conllu.editing.renumber import renumber


def row(*cells: str) -> str:
    return "\t".join(cells)


SENTENCE = [
    "# sent_id = 1",
    "# text = Ali demir aldı",
    row("1", "Ali", "Ali", "PROPN", "_", "_", "3", "nsubj", "3:nsubj", "_"),
    row("2", "demir", "demir", "NOUN", "_", "_", "3", "obj", "_", "SpaceAfter=No"),
    row("3", "aldı", "al", "VERB", "_", "_", "0", "root", "0:root", "SpaceAfter=No"),
]
# A word typed in by hand after "Ali", numbered as the next word, nothing renumbered.
INSERTED = row("2", "büyük", "büyük", "ADJ", "_", "_", "3", "amod", "_", "_")


def hints(lines: list[str]) -> dict[int, list[str]]:
    text = "\n".join(lines) + "\n\n"
    engine = Engine()
    engine.open("k", None, text, language="conllu")
    out: dict[int, list[str]] = {}
    for hint in inlay_hints(engine, "k", 0, len(lines)):
        out.setdefault(hint.line, []).append(hint.label)
    return out


def test_hints_after_a_hand_insertion_name_the_meant_heads():
    lines = SENTENCE[:3] + [INSERTED] + SENTENCE[3:]
    got = hints(lines)
    # Ali's HEAD 3 and DEPS 3:nsubj mean aldı (the third word before the insertion), not demir.
    assert got[2] == ["▸ aldı", "▸ aldı"]
    assert got[4] == ["▸ aldı"] and got[5] == ["▸ root", "▸ root"]
    # The same words Renumber attaches them to.
    renumbered = renumber("\n".join(lines)).lines
    heads = {cells[1]: cells[6] for cells in (line.split("\t") for line in renumbered if not line.startswith("#"))}
    forms = {cells[0]: cells[1] for cells in (line.split("\t") for line in renumbered if not line.startswith("#"))}
    assert forms[heads["Ali"]] == "aldı" and forms[heads["demir"]] == "aldı"


def test_hints_in_a_sentence_in_sequence_are_by_id():
    got = hints(SENTENCE)
    assert got[2] == ["▸ aldı", "▸ aldı"] and got[3] == ["▸ aldı"] and got[4] == ["▸ root", "▸ root"]
