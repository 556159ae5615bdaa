"""``annoscore fix`` over real treebanks with faults put in by hand: shuffled
FEATS, a wrong ``# text``, CR LF line ends, a word inserted without
renumbering.  Fixing the faulty file gives the text fixing the clean one
gives, and ``check`` then shows none of the faults' codes and nothing the
clean file did not show."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from tests.support.data import shared_path
from annoscore.server.cli import main
from annoscore.server.engine.ud_fixes import text_from_forms

SENTENCES = 60


def shuffled_feats(line: str, rng: random.Random) -> str:
    cols = line.split("\t")
    feats = cols[5].split("|")
    if len(feats) < 2:
        return line
    while True:
        rng.shuffle(feats)
        if "|".join(feats) != cols[5]:
            cols[5] = "|".join(feats)
            return "\t".join(cols)


def _ehead_map(deps: str, shift) -> str | None:
    if deps == "_":
        return deps
    items = []
    for item in deps.split("|"):
        head, _, rel = item.partition(":")
        if not head.isdigit():
            return None
        moved = shift(int(head))
        if moved is None:
            return None
        items.append(f"{moved}:{rel}")
    return "|".join(items)


def inserted_by_hand(block: str) -> str | None:
    """The sentence as an annotator leaves it who inserts one of its words by
    hand, without renumbering, into the sentence without it (# text as it
    was before): a leaf, not in a multiword token, whose FORM differs from
    the next word's.  None when no word of the sentence will do."""
    lines = block.split("\n")
    rows = [k for k, l in enumerate(lines) if l and not l.startswith("#")]
    cols = {k: lines[k].split("\t") for k in rows}
    if any("." in cols[k][0] for k in rows):
        return None  # (empty nodes: left out here)
    words = [k for k in rows if cols[k][0].isdigit()]
    ranges = [tuple(map(int, cols[k][0].split("-"))) for k in rows if "-" in cols[k][0]]
    heads = {cols[k][6] for k in words} | {item.partition(":")[0] for k in words if cols[k][8] != "_"
                                            for item in cols[k][8].split("|")}
    for at, k in enumerate(words[:-1]):
        p = int(cols[k][0])
        following = words[at + 1]
        if str(p) in heads or cols[k][6] == "0" or cols[k][1] == cols[following][1] or \
                any(a <= p <= b for a, b in ranges):
            continue

        def shift(h: int) -> int | None:
            return h - 1 if h > p else h

        old = []
        for j, line in enumerate(lines):
            if j == k or j not in cols:
                old.append(line)
                continue
            c = list(cols[j])
            if "-" in c[0]:
                a, b = map(int, c[0].split("-"))
                c[0] = f"{shift(a)}-{shift(b)}"
            else:
                c[0] = str(shift(int(c[0])))
                if c[6].isdigit():
                    c[6] = str(shift(int(c[6])))
                deps = _ehead_map(c[8], shift)
                if deps is None:
                    break
                c[8] = deps
            old.append("\t".join(c))
        else:
            new = list(cols[k])
            if new[6].isdigit():
                new[6] = str(shift(int(new[6])))
            deps = _ehead_map(new[8], shift)
            if deps is None:
                continue
            new[8] = deps
            old[k] = "\t".join(new)
            before = text_from_forms([l for j, l in enumerate(old) if j != k])
            texts = [j for j, l in enumerate(old) if l.startswith("# text =")]
            if before is None or len(texts) != 1:
                continue
            old[texts[0]] = f"# text = {before}"
            return "\n".join(old)
    return None


def check(path: Path, capsys) -> Counter:
    capsys.readouterr()
    main(["check", "--output-format", "json", str(path)])
    (checked,) = json.loads(capsys.readouterr().out)["files"]
    return Counter((d["code"], d["line"], d["message"]) for d in checked["diagnostics"])


def fixed(path: Path, text: str, capsys) -> str:
    path.write_text(text, encoding="utf-8", newline="")
    main(["fix", str(path)])
    capsys.readouterr()
    return path.read_bytes().decode("utf-8")


def test_fix_mends_the_faults_put_into_real_treebanks(tmp_path: Path, capsys):
    files = sorted(shared_path("data", "ud").glob("*/*.conllu"))
    assert files
    rng = random.Random(27)
    inserted = 0
    for source in files:
        blocks = [b for b in source.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        chosen = [b.strip("\n") for b in rng.sample(blocks, min(SENTENCES, len(blocks)))]
        clean = "\n\n".join(chosen) + "\n\n"
        faulty_blocks = []
        insertion = False
        for n, block in enumerate(chosen):
            lines = block.split("\n")
            if n % 3 == 0:
                lines = [shuffled_feats(l, rng) if l[:1].isdigit() else l for l in lines]
            if n % 4 == 1:
                lines = [l + " x" if l.startswith("# text =") else l for l in lines]
            block = "\n".join(lines)
            if not insertion and n % 2 == 0:
                by_hand = inserted_by_hand(block)
                if by_hand is not None:
                    block, insertion = by_hand, True
            faulty_blocks.append(block)
        inserted += insertion
        faulty = ("\n\n".join(faulty_blocks) + "\n\n").replace("\n", "\r\n")
        assert faulty != clean
        path = tmp_path / source.name  # (its UD name: the language's levels 4-5)
        path.write_text(clean, encoding="utf-8")
        before = check(path, capsys)
        from_clean = fixed(path, clean, capsys)
        from_faulty = fixed(path, faulty, capsys)
        assert from_faulty == from_clean, source.name
        after = check(path, capsys)
        assert not after - before, (source.name, after - before)  # nothing new
        faults = {"unsorted-features", "text-form-mismatch", "non-unix-newline", "ids-out-of-sequence",
                  "word-id-sequence", "format-id-order"}
        assert not {code for code, _, _ in after} & faults - {code for code, _, _ in before}, source.name
        main(["fix", str(path)])
        assert path.read_bytes().decode("utf-8") == from_clean  # idempotent
    assert inserted == len(files)  # each treebank had a word inserted by hand
