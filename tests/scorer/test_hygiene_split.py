"""The split maker: reproducible, stratified, grouped, conflicting duplicates dropped, leak-free."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

from annoscore.scorer.hygiene import read_items, rules_from
from annoscore.scorer.hygiene.items import ReadOptions
from annoscore.scorer.hygiene.split import SplitOptions, largest_remainder, make_split
from annoscore.server.cli import main

from tests.support.hygiene import conllu_block, conllu_file, distinct_texts

SPLITS = ("train", "dev", "test")


@pytest.mark.parametrize("n", [0, 1, 2, 7, 10, 99, 1001])
@pytest.mark.parametrize("ratios", [(0.8, 0.1, 0.1), (0.7, 0.2, 0.1), (0.34, 0.33, 0.33), (0.9, 0.1, 0.0)])
def test_largest_remainder_parts_add_up_within_one_of_the_ideal(n, ratios):
    parts = largest_remainder(n, ratios)
    assert sum(parts) == n
    assert all(abs(p - Fraction(r).limit_denominator(10 ** 9) * n) < 1 for p, r in zip(parts, ratios))


def _labelled(seed: int, n: int = 600) -> tuple[list[tuple[str, str]], dict]:
    """Rows (text, label) with skewed labels, exact copies, near copies
    (another number) and copies with another label; and what was planted."""
    rng = random.Random(seed)
    texts = distinct_texts(seed, n)
    labels = ["common"] * 50 + ["mid"] * 25 + ["rare"] * 8 + ["tiny"] * 2
    rows = [(t, rng.choice(labels)) for t in texts]
    planted = {"copies": [], "near": [], "conflicts": []}
    for k in range(0, 60, 3):      # exact copies, another case
        rows.append((texts[k].upper(), rows[k][1]))
        planted["copies"].append(texts[k])
    for k in range(100, 130, 3):   # near copies: the same words, other numbers
        rows[k] = (f"{texts[k]} 12", rows[k][1])
        rows.append((f"{texts[k]} 345", rows[k][1]))
        planted["near"].append(texts[k])
    for k in range(200, 210):      # conflicting copies
        other = "mid" if rows[k][1] != "mid" else "common"
        rows.append((texts[k], other))
        planted["conflicts"].append(texts[k])
    rng.shuffle(rows)
    return rows, planted


def _write_csv(path, rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["text", "label"])
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def _read_csv(path):
    return [tuple(r) for r in list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))[1:]]


def test_a_labelled_split_is_stratified_grouped_and_leak_free(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows, planted = _labelled(5)
    _write_csv(tmp_path / "data.csv", rows)
    assert main(["split", "data.csv", "--out", "out", "--by-label"]) == 0
    assert "Stratified: every label within" in capsys.readouterr().out
    report = json.loads((tmp_path / "out" / "split_report.json").read_text())
    where = {split: _read_csv(tmp_path / "out" / f"{split}.csv") for split in SPLITS}
    split_of: dict[str, set[str]] = {}
    for split, items in where.items():
        for text, _ in items:
            split_of.setdefault(text.casefold().split(" 12")[0].split(" 345")[0], set()).add(split)
    # Conflicting duplicates are gone, every copy; the report lists them.
    conflicts = {t.casefold() for t in planted["conflicts"]}
    assert not conflicts & split_of.keys()
    dropped = report["dropped"]["conflicting_duplicates"]
    assert dropped["texts"] == 10 and dropped["items"] == 20
    assert {d["text"].casefold() for d in dropped["first"]} == conflicts
    # Exact and near copies are in one split.
    for text in planted["copies"] + planted["near"]:
        assert len(split_of[text.casefold()]) == 1
    # Every label within one item of its ideal share in every split.
    kept = [r for r in rows if r[0].casefold() not in conflicts]
    for label, n in Counter(label for _, label in kept).items():
        for split, ratio in zip(SPLITS, (0.8, 0.1, 0.1)):
            count = sum(1 for _, lab in where[split] if lab == label)
            assert abs(count - ratio * n) <= 1, (label, split, count, ratio * n)
            assert report["per_label"][label][split]["items"] == count
    assert sum(len(v) for v in where.values()) == len(kept)
    # The leak check with the same rules finds nothing in the outputs.
    assert main(["leaks", "out/train.csv", "out/dev.csv", "out/test.csv"]) == 0
    assert report["input"]["sha256"] == read_items("data.csv").sha256
    assert report["splits"]["test"]["file"] == "test.csv" and len(report["splits"]["test"]["sha256"]) == 64


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("ratios", [(0.8, 0.1, 0.1), (0.6, 0.2, 0.2), (0.5, 0.5, 0.0)])
def test_stratification_without_groups_is_within_one_of_the_ideal(tmp_path, seed, ratios):
    rng = random.Random(seed)
    texts = distinct_texts(seed + 100, rng.randint(50, 400))
    labels = [rng.choice("aaaaaaabbbccd") for _ in texts]
    (tmp_path / "d.tsv").write_text("".join(f"{t}\t{lab}\n" for t, lab in zip(texts, labels)))
    items = read_items(str(tmp_path / "d.tsv"), ReadOptions("labels"))
    normalization, near = rules_from("nfc,casefold,space", "digits")
    result = make_split(items, normalization, near, SplitOptions(ratios, seed, by_label=True))
    for label in set(labels):
        n = labels.count(label)
        for split, ratio in zip(SPLITS, ratios):
            count = sum(1 for k, s in enumerate(result.split_of) if s == split and labels[k] == label)
            assert abs(count - ratio * n) <= 1 and count == result.targets[label][split]


def _run_split(cwd, args):
    return subprocess.run([sys.executable, "-m", "annoscore", "split", *args], cwd=cwd,
                          capture_output=True, text=True)


def test_the_same_input_and_seed_give_byte_identical_files_across_processes(tmp_path):
    rows, _ = _labelled(9)
    _write_csv(tmp_path / "data.csv", rows)
    for out in ("one", "two"):
        assert _run_split(tmp_path, ["data.csv", "--out", out, "--by-label", "--seed", "7"]).returncode == 0
    assert _run_split(tmp_path, ["data.csv", "--out", "other", "--by-label", "--seed", "8"]).returncode == 0
    for name in ("train.csv", "dev.csv", "test.csv", "split_report.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert (tmp_path / "one" / "test.csv").read_bytes() != (tmp_path / "other" / "test.csv").read_bytes()
    # Run again into the same folder: nothing differs, so nothing is refused.
    assert _run_split(tmp_path, ["data.csv", "--out", "one", "--by-label", "--seed", "7"]).returncode == 0
    refused = _run_split(tmp_path, ["data.csv", "--out", "one", "--by-label", "--seed", "8"])
    assert refused.returncode == 2 and "exists with other content" in refused.stderr
    assert (tmp_path / "one" / "test.csv").read_bytes() == (tmp_path / "two" / "test.csv").read_bytes()
    assert _run_split(tmp_path, ["data.csv", "--out", "one", "--by-label", "--seed", "8",
                                 "--overwrite"]).returncode == 0
    assert (tmp_path / "one" / "test.csv").read_bytes() == (tmp_path / "other" / "test.csv").read_bytes()


def test_conllu_documents_stay_whole_and_blocks_are_copied_as_they_were(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(4)
    texts = distinct_texts(4, 300)
    blocks, document_of = [], {}
    k = 0
    for doc in range(40):
        for s in range(rng.randint(3, 12)):
            if k >= len(texts):
                break
            blocks.append(conllu_block(f"doc{doc}-s{s}", texts[k], newdoc=s == 0))
            document_of[f"doc{doc}-s{s}"] = doc
            k += 1
    blocks.append(conllu_block("copy-1", texts[0]))  # a copy of doc 0's first sentence, in no document
    (tmp_path / "all.conllu").write_text(conllu_file(blocks))
    assert main(["split", "all.conllu", "--out", "out", "--group-by", "newdoc"]) == 0
    split_of = {}
    written = []
    for split in SPLITS:
        for block in (tmp_path / "out" / f"{split}.conllu").read_text().split("\n\n"):
            if block.strip():
                written.append(block.strip("\n") + "\n")
                sent_id = block.split("# sent_id = ")[1].split("\n")[0]
                split_of[sent_id] = split
    assert sorted(written) == sorted(blocks)
    for doc in set(document_of.values()):
        assert len({split_of[s] for s, d in document_of.items() if d == doc}) == 1
    assert split_of["copy-1"] == split_of["doc0-s0"]
    assert main(["leaks", "out/train.conllu", "out/dev.conllu", "out/test.conllu"]) == 0


@pytest.mark.parametrize("args, status, message", [
    (["all.conllu", "--out", "o", "--by-label"], 2, "--by-label needs labelled items"),
    (["d.tsv", "--format", "labels", "--out", "o", "--group-by", "newdoc"], 2, "--group-by newdoc applies to CoNLL-U"),
    (["d.tsv", "--format", "labels", "--out", "o", "--ratios", "0.8,0.3,0.1"], 2, "adding up to 1"),
    (["d.tsv", "--format", "labels", "--out", "o", "--ratios", "0,0.5,0.5"], 2, "train needs a share"),
    (["bad.tsv", "--format", "labels", "--out", "o"], 1, "bad.tsv:2:1: 1 TAB-separated fields"),
])
def test_refusals(tmp_path, capsys, monkeypatch, args, status, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "all.conllu").write_text(conllu_file([conllu_block("a", "Ka lo.")]))
    (tmp_path / "d.tsv").write_text("Ka lo.\tA\n")
    (tmp_path / "bad.tsv").write_text("Ka lo.\tA\nno tab here\n")
    assert main(["split", *args]) == status
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_ewt_train_split_by_documents_then_checked(shared, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    train = str(shared("data", "ud", "UD_English-EWT", "en_ewt-ud-train.conllu"))
    assert main(["split", train, "--out", "out", "--group-by", "newdoc"]) == 0
    report = json.loads((tmp_path / "out" / "split_report.json").read_text())
    total = report["input"]["sentences"] - report["dropped"]["conflicting_duplicates"]["sentences"]
    counts = [report["splits"][s]["sentences"] for s in SPLITS]
    assert sum(counts) == total
    assert all(abs(c - r * total) <= 1 for c, r in zip(counts, (0.8, 0.1, 0.1)))
    assert main(["leaks", "out/train.conllu", "out/dev.conllu", "out/test.conllu"]) == 0
    assert "No leaks" in capsys.readouterr().out
