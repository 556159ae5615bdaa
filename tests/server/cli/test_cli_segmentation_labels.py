"""``annoscore evaluate`` on segmentation and labels files: output, JSON contract, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.cli import run
from tests.support.data import shared_path, write


def one_clear_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------
# Segmentation
# --------------------------------------------------------------------------


@pytest.fixture
def seg(tmp_path):
    gold = write(tmp_path, "gold.txt", "a bc d\ne f g\nh i\n")
    pred = write(tmp_path, "pred.txt", "ab c d\ne f g\nh j\n")
    return pred, gold


def test_segmentation_table(capsys, seg):
    status, out, err = run(capsys, "evaluate", *seg)
    assert status == 0 and err == ""
    header = [cell.strip() for cell in out.splitlines()[0].split("|")]
    assert header == ["Metric", "Precision", "Recall", "F1", "Correct", "Gold", "Predicted",
                      "P 95% CI", "R 95% CI"]
    word = [cell.strip() for cell in next(l for l in out.splitlines() if l.startswith("Word")).split("|")]
    # line 1: d of a/bc/d; line 2: all three; line 3 left out
    assert word[1:7] == ["66.67", "66.67", "66.67", "4", "6", "6"]
    assert "Sentences: 2 scored, of 3 gold lines with words." in out
    assert "Predicted lines whose text is not gold's (left out of the scores): 1" in out
    assert "line 3: text differs from gold at character 2: 'hj' vs gold 'hi'" in out
    assert "Signature: annoscore:" in out and "format:space" in out and "pos:no" in out


def test_segmentation_json_contract(capsys, seg):
    status, out, _ = run(capsys, "evaluate", *seg, "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) >= {"metrics", "sentences", "mismatched", "signature"}
    assert set(data["metrics"]) == {"Word", "Boundary"}
    word = data["metrics"]["Word"]
    assert set(word) == {"precision", "recall", "f1", "correct", "gold_total", "system_total",
                         "precision_ci95", "recall_ci95"}
    assert (word["correct"], word["gold_total"], word["system_total"]) == (4, 6, 6)
    low, high = word["recall_ci95"]
    assert low < 4 / 6 < high
    assert data["sentences"] == 2
    assert data["mismatched"] == [{"line": 3, "gold_line": 3, "offset": 1, "column": 3,
                                   "text": "hj", "gold_text": "hi"}]
    sig = data["signature"]
    assert sig["format"] == "space" and sig["options"] == {"pos": False, "paired_by": "position"}
    assert set(sig["files"]) == {"pred", "gold"} and len(sig["files"]["gold"]["sha256"]) == 64


def test_a_mismatch_column_after_a_byte_order_mark(capsys, tmp_path):
    """The column is the one in the line as editors show it (without the mark)."""
    gold = write(tmp_path, "gold.txt", "h i\n")
    pred = write(tmp_path, "pred.txt", "\ufeffh j\n")
    status, out, _ = run(capsys, "evaluate", pred, gold, "--json")
    data = json.loads(out)
    assert status == 0
    assert data["mismatched"] == [{"line": 1, "gold_line": 1, "offset": 1, "column": 3,
                                   "text": "hj", "gold_text": "hi"}]
    assert data["file_problems"]["prediction"] == [{
        "code": "format-bom", "message": "a byte-order mark at the start of the file was ignored",
        "line": 1, "column": 1}]


def test_pos_adds_tagged_word(capsys, tmp_path):
    gold = write(tmp_path, "gold.tsv", "I/PRON\t \tran/VERB\n")
    pred = write(tmp_path, "pred.tsv", "I/PRON\t \tran/NOUN\n")
    status, out, _ = run(capsys, "evaluate", pred, gold, "--pos", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["metrics"]["TaggedWord"]["correct"] == 1
    assert data["signature"]["format"] == "tsv" and data["signature"]["options"]["pos"] is True


def test_repairing_by_text_is_said(capsys, tmp_path):
    gold = write(tmp_path, "gold.txt", "a b\nc d\ne f\n")
    pred = write(tmp_path, "pred.txt", "a b\ne f\n")
    status, out, _ = run(capsys, "evaluate", pred, gold)
    assert status == 0
    assert "Lines were paired by their text, not by position: the prediction has 2 lines and gold 3." in out
    assert "Gold lines without a predicted line (their words count against recall): 1" in out


def test_litsea_pair_through_the_cli(capsys):
    folder = shared_path("data", "litsea")
    status, out, _ = run(capsys, "evaluate", folder / "pred" / "korean_gsd_test.korean.pred.tsv",
                         folder / "eval" / "korean_gsd_test.tsv", "--json")
    assert status == 0
    word = json.loads(out)["metrics"]["Word"]
    assert f"{100 * word['f1']:.2f}" == "99.91"


@pytest.mark.parametrize("pred,gold,argv,status,needle", [
    ("a b\nx y\nc d\n", "a b\nc d\n", [], 1, "pred.txt:2: the prediction has 3 lines and gold has 2"),
    (b"a \xff b\n", "a b\n", [], 1, "pred.txt:1:3: not UTF-8"),
    (b"\xef\xbb\xbfa \xff b\n", "a b\n", [], 1, "pred.txt:1:3: not UTF-8"),  # a column after the BOM
    ("a b\n", b"a\nb\x80\n", [], 1, "gold.txt:2:2: not UTF-8"),
    ("", "a b\n", [], 1, "pred.txt: the file is empty"),
    (b"a\x00b", "a b\n", [], 1, "not a text file"),
    ("a b\n", "a b\n", ["--strict"], 2, "--strict applies to CoNLL-U"),
    ("a b\n", "a b\n", ["--jobs", "2"], 2, "--jobs applies to CoNLL-U"),
    ("a b\n", "a b\n", ["--metric", "Word"], 2, "--metric only applies with --save-errors"),
    ("a b\n", "a b\n", ["--save-errors", "{tmp}/e.json", "--metric", "TaggedWord"], 2, "needs --pos"),
    ("a b\n", "a b\n", ["--save-errors", "{tmp}/e.json", "--metric", "LAS"], 2, "--metric LAS"),
    ("a b\n", "a b\n", ["--save-errors", "{tmp}/missing/e.json"], 1, "cannot write"),
])
def test_bad_segmentation_input(capsys, tmp_path, pred, gold, argv, status, needle):
    for name, content in (("pred.txt", pred), ("gold.txt", gold)):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    got, out, err = run(capsys, "evaluate", tmp_path / "pred.txt", tmp_path / "gold.txt", *argv)
    assert got == status
    assert needle in one_clear_line(err)


def test_format_guess_must_agree_between_the_files(capsys, tmp_path):
    pred = write(tmp_path, "pred.txt", "a b\n")
    gold = write(tmp_path, "gold.tsv", "a\tb\n")
    status, _, err = run(capsys, "evaluate", pred, gold)
    assert status == 2 and "give --format" in one_clear_line(err)
    status, _, _ = run(capsys, "evaluate", pred, gold, "--format", "space")
    assert status == 0


def test_all_lines_mismatched_suggests_the_format(capsys, tmp_path):
    gold = write(tmp_path, "gold.tsv", "1\tNOUN\n2\tVERB\n")
    pred = write(tmp_path, "pred.tsv", "1\tVERB\n2\tVERB\n")
    status, out, _ = run(capsys, "evaluate", pred, gold)
    assert status == 0 and "labels files need --format labels" in out


def test_no_traceback_in_a_real_process(tmp_path):
    pred = write(tmp_path, "pred.txt", "a b\nx\nc d\n")
    gold = write(tmp_path, "gold.txt", "a b\nc d\n")
    done = subprocess.run([sys.executable, "-m", "annoscore", "evaluate", str(pred), str(gold)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert "pred.txt:2:" in one_clear_line(done.stderr)


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------


@pytest.fixture
def labels(tmp_path):
    gold = write(tmp_path, "gold.tsv", "s1\tce\ns2\til\ns3\tce\ns4\telle\ns5\tce\n")
    pred = write(tmp_path, "pred.tsv", "s1\tce\ns2\tce\ns3\tce\ns4\tils\ns9\tce\n")
    return pred, gold


def test_labels_table(capsys, labels):
    status, out, err = run(capsys, "evaluate", *labels, "--format", "labels")
    assert status == 0 and err == ""
    accuracy = [c.strip() for c in next(l for l in out.splitlines() if l.startswith("Accuracy")).split("|")]
    assert accuracy[1] == "40.00" and accuracy[3:5] == ["2", "5"]       # s1, s3 of 5
    assert accuracy[5] == "60.00 ('ce')" and accuracy[6] == "33.33"     # majority 3/5; 1/C, C = 3
    assert "Gold items without a prediction (counted as wrong): 1" in out and "(ID s5)" in out
    assert "Predicted items gold does not have (not scored): 1" in out and "(ID s9)" in out
    assert "'ils' x1 (first on line 4)" in out
    assert "Confusion matrix (rows: gold, columns: predicted" in out


def test_labels_json_contract(capsys, labels):
    status, out, _ = run(capsys, "evaluate", *labels, "--format", "labels", "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) >= {"metrics", "per_class", "confusion", "baselines", "missing", "signature"}
    accuracy = data["metrics"]["Accuracy"]
    assert set(accuracy) == {"value", "correct", "total", "ci95"}
    assert (accuracy["value"], accuracy["correct"], accuracy["total"]) == (0.4, 2, 5)
    assert accuracy["ci95"][0] < 0.4 < accuracy["ci95"][1]
    assert set(data["metrics"]["MacroRecall"]) == {"value"} and set(data["metrics"]["MacroF1"]) == {"value"}
    # ce recall 2/3, il 0, elle 0
    assert data["metrics"]["MacroRecall"]["value"] == round((2 / 3) / 3, 6)
    assert set(data["per_class"]) == {"ce", "il", "elle"}
    assert {"precision", "recall", "f1", "support"} <= set(data["per_class"]["ce"])
    assert data["per_class"]["ce"]["support"] == 3
    assert data["confusion"] == {"ce": {"ce": 2}, "il": {"ce": 1}, "elle": {"ils": 1}}
    assert data["baselines"] == {"majority": {"label": "ce", "accuracy": 0.6, "macro_recall": round(1 / 3, 6)},
                                 "uniform": round(1 / 3, 6)}
    assert data["missing"] == [{"missing_from": "prediction", "id": "s5", "line": 5},
                               {"missing_from": "gold", "id": "s9", "line": 5}]
    assert data["signature"]["format"] == "labels"


def test_labels_save_errors_and_compare(capsys, tmp_path, labels):
    errors_a = tmp_path / "a.json"
    assert run(capsys, "evaluate", *labels, "--format", "labels", "--save-errors", errors_a)[0] == 0
    saved = json.loads(errors_a.read_text())
    assert saved["outcomes"] == "10100" and saved["metric"] == "Accuracy"
    better = write(tmp_path, "better.tsv", "s1\tce\ns2\til\ns3\tce\ns4\telle\ns5\tce\n")
    errors_b = tmp_path / "b.json"
    assert run(capsys, "evaluate", better, labels[1], "--format", "labels", "--save-errors", errors_b)[0] == 0
    status, out, _ = run(capsys, "compare", errors_a, errors_b, "--json")
    assert status == 0
    data = json.loads(out)
    assert (data["only_a_wrong"], data["only_b_wrong"], data["both_right"]) == (3, 0, 2)
    assert data["p_value"] == 0.25  # 2 * (1/2)^3


@pytest.mark.parametrize("pred,gold,argv,status,needle", [
    ("a\tX\na\tY\n", "a\tX\n", [], 1, "pred.tsv:2:1: ID 'a' already used on line 1"),
    ("a\tX\n", "a\tX\nb\n", [], 1, "gold.tsv:2:1: no TAB"),
    ("X\n\nY\n", "X\nY\nZ\n", [], 1, "pred.tsv:2:1: blank line among items"),
    # Columns are those of the line without the byte-order mark, as editors show it.
    ("\ufeff a\tX\tY\n", "a\tX\n", [], 1, "pred.tsv:1:5: more than one TAB"),
    ("\ufeff  a\tX\n  a\tY\n", "a\tX\n", [], 1, "pred.tsv:2:3: ID 'a' already used on line 1"),
    ("a\tX\n", "a\tX\n", ["--pos"], 2, "--pos applies to segmentation"),
    ("a\tX\n", "a\tX\n", ["--calibration"], 2, "--calibration applies to CoNLL-U"),
    ("a\tX\n", "\n\n \n", [], 1, "gold.tsv: no items"),
])
def test_bad_labels_input(capsys, tmp_path, pred, gold, argv, status, needle):
    p = write(tmp_path, "pred.tsv", pred)
    g = write(tmp_path, "gold.tsv", gold)
    got, out, err = run(capsys, "evaluate", p, g, "--format", "labels", *argv)
    assert got == status and out == ""
    assert needle in one_clear_line(err)
