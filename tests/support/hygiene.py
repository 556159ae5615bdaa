"""Seeded corpora for the hygiene tests: texts that are all different, so
that every leak a test finds is one it planted."""

from __future__ import annotations

import random

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "do", "fe", "gi", "hu", "ja"]


def words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(n)]


def distinct_texts(seed: int, n: int, low: int = 6, high: int = 14) -> list[str]:
    """``n`` texts of ``low``–``high`` words, pairwise different even after
    masking digits and case (no digits, no weekday or month names)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out = []
    while len(out) < n:
        text = " ".join(words(rng, rng.randint(low, high))) + "."
        if text not in seen:
            seen.add(text)
            out.append(text[0].upper() + text[1:])
    return out


def conllu_block(sent_id: str, text: str, upos: str = "X", newdoc: bool = False) -> str:
    """A sentence block with ``# text``: its words, the final period as PUNCT."""
    tokens = text.rstrip(".").split(" ") + ["."]
    lines = (["# newdoc"] if newdoc else []) + [f"# sent_id = {sent_id}", f"# text = {text}"]
    for k, form in enumerate(tokens, 1):
        space = "SpaceAfter=No" if k == len(tokens) - 1 else "_"
        tag = "PUNCT" if form == "." else upos
        head = 0 if k == 1 else 1
        rel = "root" if k == 1 else ("punct" if form == "." else "dep")
        lines.append(f"{k}\t{form}\t{form.lower()}\t{tag}\t_\t_\t{head}\t{rel}\t_\t{space}")
    return "\n".join(lines) + "\n"


def conllu_file(blocks: list[str]) -> str:
    return "\n".join(blocks) + "\n"


def first_lines(text: str) -> list[int]:
    """The 1-based first line of each CoNLL-U block of ``text``."""
    out, line, start = [], 1, True
    for row in text.split("\n"):
        if row.strip():
            if start:
                out.append(line)
            start = False
        else:
            start = True
        line += 1
    return out
