"""Sentences to edit and a client's way of applying edits, for the editing tests.

`generated_sentences` makes valid sentences (levels 1-2 of the UD
validator) from a seed: random trees, multiword tokens, SpaceAfter=No,
sometimes an enhanced graph with an empty node, and a ``# text`` made from
the FORMs.  `real_blocks` reads blocks from the shared treebanks (skipped
by the callers when they are not there).
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.support.data import SHARED

UPOS = ("NOUN", "VERB", "ADJ", "ADP", "DET", "PRON", "PROPN", "ADV", "PUNCT", "AUX")
DEPRELS = ("nsubj", "obj", "obl", "amod", "det", "case", "advmod", "nmod", "conj", "cc", "mark")
FORMS = ("Joana", "viu", "o", "gato", "em", "um", "tapete", "ontem", "e", "correu", "casa", "grande")


def generated_sentence(rng: random.Random, sent_id: str, enhanced: bool | None = None,
                       parataxis_at: int | None = None) -> str:
    """One valid sentence; ``parataxis_at``: words from there on form a
    clause attached to the root by parataxis only (a place where splitting
    the sentence and joining it again must give it back)."""
    n = rng.randint(2, 12) if parataxis_at is None else max(parataxis_at + rng.randint(1, 5), 3)
    if enhanced is None:
        enhanced = rng.random() < 0.3
    parts = [(0, n)] if parataxis_at is None else [(0, parataxis_at), (parataxis_at, n)]
    heads = [0] * n
    rels = [""] * n
    main_root = None
    for a, b in parts:
        root = rng.randrange(a, b)
        if main_root is None:
            main_root, heads[root], rels[root] = root, 0, "root"
        else:
            heads[root], rels[root] = main_root + 1, "parataxis"
        attached = [root]
        others = [i for i in range(a, b) if i != root]
        rng.shuffle(others)
        for i in others:
            heads[i] = rng.choice(attached) + 1
            rels[i] = rng.choice(DEPRELS)
            attached.append(i)
    forms = [rng.choice(FORMS) for _ in range(n)]
    misc = ["_"] * n
    for i in range(n - 1):
        if rng.random() < 0.15:
            misc[i] = "SpaceAfter=No"
    tokens: list[tuple[int, int]] = []  # multiword ranges (0-based first, last)
    i = 0
    while i < n - 1:
        if rng.random() < 0.12 and (parataxis_at is None or i + 1 != parataxis_at):
            tokens.append((i, i + 1))
            i += 2
        else:
            i += 1
    # (an empty node would hang across the parataxis clause's cut)
    empty_after = rng.randrange(1, n + 1) if enhanced and parataxis_at is None and rng.random() < 0.5 else None
    lines = [f"# sent_id = {sent_id}"]
    text = []
    starts = {a: b for a, b in tokens}
    inside = {k for a, b in tokens for k in range(a, b + 1)}
    k = 0
    while k < n:
        if k in starts:
            b = starts[k]
            space = misc[b] != "SpaceAfter=No"
            text.append("".join(forms[k:b + 1]) + (" " if space else ""))
            k = b + 1
        else:
            text.append(forms[k] + ("" if misc[k] == "SpaceAfter=No" else " "))
            k += 1
    lines.append("# text = " + "".join(text).rstrip(" "))
    for i in range(n):
        if i in starts:
            b = starts[i]
            lines.append("\t".join([f"{i + 1}-{b + 1}", "".join(forms[i:b + 1])] + ["_"] * 7 + [misc[b]]))
        deps = "_"
        if enhanced:
            deps = f"{heads[i]}:{rels[i]}"
        word_misc = "_" if i in inside else misc[i]
        lines.append("\t".join([str(i + 1), forms[i], forms[i].lower(), rng.choice(UPOS), "_", "_",
                                str(heads[i]), rels[i], deps, word_misc]))
        if empty_after == i + 1:
            lines.append("\t".join([f"{i + 1}.1", "elided", "elide", "VERB", "_", "_", "_", "_",
                                    f"{heads[i] if heads[i] else i + 1}:conj" if heads[i] else f"{i + 1}:conj",
                                    "_"]))
    return "\n".join(lines)


def generated_sentences(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [generated_sentence(rng, f"g{seed}-{k}") for k in range(count)]


def real_blocks(limit_per_file: int = 120, seed: int = 0) -> list[str]:
    """Blocks sampled from every treebank under ../shared/data/ud (none when it is not there)."""
    root = SHARED / "data" / "ud"  # (not shared_path: its skip, at import, would fail collection)
    if not root.is_dir():
        return []
    rng = random.Random(seed)
    out = []
    for path in sorted(root.glob("*/*.conllu")):
        blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        out.extend(b.strip("\n") for b in rng.sample(blocks, min(limit_per_file, len(blocks))))
    return out


def apply_change(lines: list[str], first_line: int, start: int, end: int, new: list[str]) -> list[str]:
    """A document's lines after an outcome, replaced as a client replaces a range of lines."""
    return lines[:first_line + start] + new + lines[first_line + end:]


def blocks_of(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i]:
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j]:
            j += 1
        out.append((i, "\n".join(lines[i:j])))
        i = j
    return out


__all__ = ["generated_sentence", "generated_sentences", "real_blocks", "apply_change", "blocks_of", "Path"]
