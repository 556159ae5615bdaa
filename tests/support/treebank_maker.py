"""Small gold and predicted CoNLL-U files made from a seed, for tests that
must run without ../shared.

`make_gold` writes random sentences (random trees, tags, relations with
subtypes, features, a multiword token now and then); `make_prediction`
copies gold with label noise, and optionally merges some pairs of
sentences into one (so a unit holds two gold sentences), drops some, and
gives one a cycle (a tree the official scorer refuses).
"""

from __future__ import annotations

import random
from pathlib import Path

UPOS = ("NOUN", "VERB", "ADJ", "ADP", "DET", "PRON", "PROPN", "ADV", "PUNCT", "AUX")
DEPRELS = ("nsubj", "obj", "obl", "obl:arg", "amod", "det", "case", "advmod", "punct", "nmod",
           "aux", "cop", "mark", "conj", "cc", "nsubj:pass")
FEATS = ("_", "Number=Sing", "Number=Plur", "Number=Sing|Person=3", "Gender=Fem|Number=Sing",
         "Tense=Past|VerbForm=Fin", "Definite=Def|PronType=Art")
WORDS = ("Joana", "saw", "the", "cat", "on", "a", "mat", "yesterday", "and", "ran", "home", "big", "dog")


def _sentence(rng: random.Random, sent_id: str) -> list[list[str]]:
    n = rng.randint(1, 14)
    root = rng.randint(1, n)
    rows = []
    for i in range(1, n + 1):
        if i == root:
            head, deprel = 0, "root"
        else:
            # A head closer to the root keeps it a tree: attach to root, or to
            # a word already attached (by order of a random permutation).
            head, deprel = root, rng.choice(DEPRELS)
        rows.append([str(i), rng.choice(WORDS), rng.choice(WORDS).lower(), rng.choice(UPOS), "_",
                     rng.choice(FEATS), str(head), deprel, "_", "_"])
    # Re-attach some words below other non-root words, keeping a tree.
    attached = [root]
    order = [i for i in range(1, n + 1) if i != root]
    rng.shuffle(order)
    for i in order:
        rows[i - 1][6] = str(rng.choice(attached))
        attached.append(i)
    return rows


def make_gold(path: Path, seed: int, sentences: int = 40) -> Path:
    rng = random.Random(seed)
    blocks = []
    for k in range(sentences):
        rows = _sentence(rng, f"s{k + 1}")
        blocks.append((f"s{k + 1}", rows))
    _write(path, blocks)
    return path


def read_blocks(path: Path) -> list[tuple[str, list[list[str]]]]:
    blocks = []
    for block in path.read_text(encoding="utf-8").strip("\n").split("\n\n"):
        lines = block.split("\n")
        sent_id = lines[0].split(" = ", 1)[1]
        rows = [line.split("\t") for line in lines if not line.startswith("#")]
        blocks.append((sent_id, rows))
    return blocks


def _write(path: Path, blocks) -> None:
    out = []
    for sent_id, rows in blocks:
        text = " ".join(r[1] for r in rows if "-" not in r[0])
        out.append(f"# sent_id = {sent_id}\n# text = {text}\n" + "\n".join("\t".join(r) for r in rows) + "\n")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def make_prediction(gold: Path, path: Path, seed: int, noise: float = 0.15, merge: float = 0.0,
                    drop: float = 0.0, cycle: bool = False) -> Path:
    rng = random.Random(seed)
    blocks = read_blocks(gold)
    out = []
    k = 0
    while k < len(blocks):
        sent_id, rows = blocks[k]
        if drop and rng.random() < drop:
            k += 1
            continue
        rows = [list(r) for r in rows]
        n = len(rows)
        for r in rows:
            if rng.random() < noise:
                r[3] = rng.choice(UPOS)
            if rng.random() < noise:
                r[7] = rng.choice(DEPRELS) if r[7] != "root" else r[7]
            if rng.random() < noise:
                r[5] = rng.choice(FEATS)
            if rng.random() < noise and r[6] != "0":
                # Another head that keeps a tree: the root word.
                r[6] = next(x[0] for x in rows if x[6] == "0")
        if merge and k + 1 < len(blocks) and rng.random() < merge:
            _, second = blocks[k + 1]
            for r in second:
                r = list(r)
                r[0] = str(int(r[0]) + n)
                r[6] = str(int(r[6]) + n) if r[6] != "0" else str(next(int(x[0]) for x in rows if x[6] == "0"))
                if r[7] == "root":
                    r[7] = "parataxis"
                rows.append(r)
            k += 1
        out.append((sent_id, rows))
        k += 1
    if cycle:
        for sent_id, rows in out:
            if len(rows) >= 3:
                a = next(r for r in rows if r[6] != "0")
                b = next(r for r in rows if r[6] != "0" and r is not a)
                a[6], b[6] = b[0], a[0]
                break
    _write(path, out)
    return path
