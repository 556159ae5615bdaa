"""``annoscore leaks``: exit status, the report, where splits come from, bad input."""

from __future__ import annotations

import json
import os

import pytest

from annoscore.server.cli import main

from tests.support.hygiene import conllu_block, conllu_file, distinct_texts, first_lines
from annoscore.scorer.excerpt import quoted


@pytest.fixture
def splits(tmp_path, monkeypatch):
    """train/dev/test files in a project folder (the current folder), dev 2 = train 4."""
    monkeypatch.chdir(tmp_path)
    texts = distinct_texts(11, 30)
    train = [conllu_block(f"t{k}", t) for k, t in enumerate(texts[:20])]
    dev = [conllu_block(f"d{k}", t) for k, t in enumerate(texts[20:25])]
    test = [conllu_block(f"e{k}", t) for k, t in enumerate(texts[25:])]
    dev[2] = conllu_block("d2", texts[4])
    for name, blocks in (("a-train.conllu", train), ("a-dev.conllu", dev), ("a-test.conllu", test)):
        (tmp_path / name).write_text(conllu_file(blocks))
    return tmp_path, texts


def test_exit_1_and_both_places_named(splits, capsys):
    _, texts = splits
    assert main(["leaks", "a-train.conllu", "a-dev.conllu", "a-test.conllu"]) == 1
    out = capsys.readouterr().out
    assert "dev in train: 1 exact" in out
    line = first_lines((splits[0] / "a-dev.conllu").read_text())[2]
    assert f"  exact     a-dev.conllu:{line} [d2] {quoted(texts[4])}" in out
    assert "  also      a-train.conllu:" in out and "[t4]" in out
    assert "Leaks: 1 item of a later split found in an earlier one (1 exact)." in out


def test_exit_0_when_clean_and_json_shape(splits, capsys):
    assert main(["leaks", "a-train.conllu", "a-test.conllu"]) == 0
    assert "No leaks" in capsys.readouterr().out
    assert main(["leaks", "a-train.conllu", "a-dev.conllu", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["counts"] == {"dev in train": {"exact": 1, "near": 0, "conflict": 0},
                             "within train": {"conflict": 0}, "within dev": {"conflict": 0}}
    (finding,) = out["findings"]
    line = first_lines((splits[0] / "a-dev.conllu").read_text())[2]
    assert finding["kind"] == "exact" and finding["later"]["line"] == line and finding["later"]["id"] == "d2"
    assert finding["earlier"]["id"] == "t4" and finding["earlier"]["file"] == "a-train.conllu"
    assert out["rules"] == {"normalize": "nfc,casefold,space", "near": "digits", "min_words": 0}


def test_split_options_and_the_project_file(splits, capsys):
    tmp_path, _ = splits
    os.rename("a-dev.conllu", "first.conllu")
    assert main(["leaks", "a-train.conllu", "first.conllu"]) == 2
    assert "first.conllu: cannot tell its split from its name" in capsys.readouterr().err
    assert main(["leaks", "a-train.conllu", "--dev", "first.conllu"]) == 1
    capsys.readouterr()
    (tmp_path / "annoscore.toml").write_text('[splits]\ntrain = "a-train.*"\ndev = ["first.conllu"]\n'
                                             'near = "none"\n')
    assert main(["leaks", "a-train.conllu", "first.conllu"]) == 1
    capsys.readouterr()
    assert main(["leaks", "--json"]) == 1  # no files: those [splits] declares
    out = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["split"]) for f in out["files"]] == [("a-train.conllu", "train"), ("first.conllu", "dev")]
    assert out["rules"]["near"] == "none"


@pytest.mark.parametrize("args, message", [
    (["a-train.conllu", "--dev", "a-train.conllu"], "a-train.conllu is given twice (train and dev)"),
    (["missing-dev.conllu"], "missing-dev.conllu: no such file"),
    (["a-train.conllu", "--near", "digits,colour"], "--near: unknown rule 'colour'"),
    (["a-train.conllu", "--normalize", "nfd"], "--normalize: unknown normalization step 'nfd'"),
    (["a-train.conllu", "--test", "b.tsv"], "the files are of different formats"),
    (["a-train.conllu", "--test", "zip-test.conllu"], "zip-test.conllu:1:1: this file is gzip-compressed"),
    ([], "no files to check"),
    (["--train", "b.tsv", "--test", "only-labels-test.tsv", "--format", "labels"],
     "only-labels-test.tsv:1:1: no column 2 for the label"),
])
def test_no_check_possible_is_exit_2(splits, capsys, args, message):
    tmp_path, _ = splits
    (tmp_path / "b.tsv").write_text("a text\tA\n")
    (tmp_path / "zip-test.conllu").write_bytes(b"\x1f\x8b\x08\x00" + bytes(40))
    (tmp_path / "only-labels-test.tsv").write_text("A\nB\n")
    assert main(["leaks", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().split("\n")) == 1


def test_bad_lines_are_reported_and_the_rest_checked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.tsv").write_text("One text here.\tA\nbroken line without tab\nTwo texts.\tB\n")
    (tmp_path / "test.tsv").write_text("two TEXTS.\tB\n")
    assert main(["leaks", "train.tsv", "test.tsv", "--format", "labels"]) == 1
    captured = capsys.readouterr()
    assert "train.tsv:2:1: error: 1 TAB-separated fields where the first row has 2" in captured.err
    assert "test.tsv:1 'two TEXTS.'" in captured.out and "train.tsv:3 'Two texts.'" in captured.out
