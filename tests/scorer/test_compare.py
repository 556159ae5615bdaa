"""``annoscore compare A B``: McNemar's exact test on two --save-errors lists."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import run
from tests.support.data import write
from annoscore.scorer.outcomes import OutcomeList

GOLD_SHA = "ab" * 32


def save(path, outcomes: str, gold_sha=GOLD_SHA, metric="Word", fmt="space", system="sys"):
    OutcomeList(format=fmt, metric=metric, gold_path="gold.txt", gold_sha256=gold_sha,
                system_path=system, system_sha256=system * 8, outcomes=outcomes).save(path)
    return str(path)


@pytest.fixture
def example(tmp_path):
    # both right 712, both wrong 41, only A wrong 75, only B wrong 56 (the example),
    # in a scrambled order, plus items neither list scores
    pairs = ["11"] * 712 + ["00"] * 41 + ["01"] * 75 + ["10"] * 56 + ["--"] * 9
    order = sorted(range(len(pairs)), key=lambda i: (i * 7919) % len(pairs))
    a = "".join(pairs[i][0] for i in order)
    b = "".join(pairs[i][1] for i in order)
    return save(tmp_path / "a.json", a, system="A"), save(tmp_path / "b.json", b, system="B")


def test_example_table(capsys, example):
    status, out, err = run(capsys, "compare", *example)
    assert status == 0 and err == ""
    assert "712 (both right)" in out and "41 (both wrong)" in out
    assert "75 (only A wrong, b)" in out and "56 (only B wrong, c)" in out
    assert "p = 0.1155" in out
    assert "not significant at 0.05" in out
    assert "Skipped 9 items neither list scores." in out
    assert "Signature: annoscore:" in out


def test_example_json(capsys, example):
    status, out, _ = run(capsys, "compare", *example, "--json")
    assert status == 0
    data = json.loads(out)
    assert {k: data[k] for k in ("both_right", "both_wrong", "only_a_wrong", "only_b_wrong")} == {
        "both_right": 712, "both_wrong": 41, "only_a_wrong": 75, "only_b_wrong": 56}
    assert round(data["p_value"], 4) == 0.1155 and data["significant"] is False
    assert data["not_scored"] == 9 and data["compared"] == 884


def test_alpha_changes_the_verdict(capsys, example):
    status, out, _ = run(capsys, "compare", *example, "--json", "--alpha", "0.2")
    assert status == 0  # significant or not, the comparison ran
    assert json.loads(out)["significant"] is True
    status, out, _ = run(capsys, "compare", *example, "--alpha", "0.2")
    assert status == 0
    assert "significant at 0.2" in out and "B makes fewer errors" in out


def test_items_scored_in_one_list_only_are_left_out_and_counted(capsys, tmp_path):
    a = save(tmp_path / "a.json", "1-00", system="A")
    b = save(tmp_path / "b.json", "10-1", system="B")
    status, out, _ = run(capsys, "compare", a, b, "--json")
    assert status == 0
    data = json.loads(out)
    assert (data["both_right"], data["only_a_wrong"]) == (1, 1)
    assert data["scored_in_one_list_only"] == {"a": 1, "b": 1}


@pytest.mark.parametrize("change,message", [
    ({"gold_sha": "cd" * 32}, "different gold files"),
    ({"outcomes": "1" * 10}, "A has 893 items and B has 10"),
    ({"metric": "TaggedWord"}, "A is for Word and B for TaggedWord"),
    ({"fmt": "tsv"}, "A is a space list and B a tsv list"),
])
def test_lists_that_do_not_match_are_refused(capsys, tmp_path, example, change, message):
    outcomes = change.pop("outcomes", "1" * 893)
    other = save(tmp_path / "other.json", outcomes, **change)
    status, out, err = run(capsys, "compare", example[0], other)
    assert status == 1 and out == ""
    assert "cannot be compared" in err and message in err
    assert len(err.strip().splitlines()) == 1


def test_bad_files_and_options(capsys, tmp_path, example):
    status, _, err = run(capsys, "compare", example[0], str(write(tmp_path, "x.json", "{not json")))
    assert status == 1 and "not an outcome list" in err and "Traceback" not in err
    status, _, err = run(capsys, "compare", example[0], str(tmp_path / "absent.json"))
    assert status == 1 and "no such file" in err
    status, _, err = run(capsys, "compare", *example, "--alpha", "1.5")
    assert status == 2 and "--alpha" in err


def test_end_to_end_two_segmenters(capsys, tmp_path):
    gold = write(tmp_path, "gold.txt", "a bc d\ne f g\n")
    one = write(tmp_path, "one.txt", "a bc d\ne fg\n")    # gets a, bc, d, e: 4 of 6
    two = write(tmp_path, "two.txt", "ab c d\ne f g\n")   # gets d, e, f, g: 4 of 6
    lists = []
    for name, pred in (("one", one), ("two", two)):
        path = str(tmp_path / f"{name}.errors.json")
        status, _, _ = run(capsys, "evaluate", str(pred), str(gold), "--save-errors", path)
        assert status == 0
        lists.append(path)
    saved = json.loads(open(lists[0]).read())
    assert saved["outcomes"] == "111100" and saved["metric"] == "Word" and saved["format"] == "space"
    status, out, _ = run(capsys, "compare", *lists, "--json")
    assert status == 0
    data = json.loads(out)
    assert (data["both_right"], data["both_wrong"], data["only_a_wrong"], data["only_b_wrong"]) == (2, 0, 2, 2)
    assert data["p_value"] == 1.0
