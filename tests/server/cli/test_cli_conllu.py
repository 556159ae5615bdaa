"""``annoscore evaluate`` on CoNLL-U through the command line: output, options, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.cli import run
from tests.support.data import conllu, official_counts, write
from annoscore.scorer.conllu.repair import repaired_heads
from annoscore.scorer.conllu.reader import read_text
from annoscore.server.cli.demo import sample_path

GOLD = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ _\n2 cat cat NOUN NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _",
              "# sent_id = c\n1 Go go VERB VB _ 0 root _ _\n2 now now ADV RB _ 1 advmod _ _")
PRED = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ Conf=0.9\n2 cat cat VERB NN _ 0 root _ Conf=UPOS:0.3",
              "# sent_id = b\n1 It it PRON PRP _ 1 nsubj _ _\n2 sat sit VERB VBD _ 1 root _ _")


def test_table(capsys, files):
    status, out, err = run(capsys, "evaluate", str(files[0]), str(files[1]))
    assert status == 0 and err == ""
    assert out.splitlines()[0].split() == ["Metric", "|", "Precision", "|", "Recall", "|", "F1", "|", "AlignedAcc"]
    upos = next(line for line in out.splitlines() if line.startswith("UPOS"))
    assert upos.split("|")[1].strip() == "75.00"  # 3 of 4 predicted
    assert upos.split("|")[2].strip() == "50.00"  # 3 of 6 gold (sentence c is missing)
    assert "Gold sentences missing from the prediction (counted against recall): 1" in out
    assert "line 9 (c)" in out
    assert "The official scorer would refuse 1 sentence:" in out and "cycle" in out
    assert "Signature: annoscore:" in out and "gold:sha256=" in out


def test_json_contract(capsys, files):
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--json", "--predicted-only")
    assert status == 0
    data = json.loads(out)
    assert set(data["metrics"]) == {"Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags",
                                    "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS"}
    upos = data["metrics"]["UPOS"]
    assert (upos["correct"], upos["gold_total"], upos["system_total"], upos["aligned_total"]) == (3, 4, 4, 4)
    assert upos["precision"] == upos["recall"] == upos["f1"] == upos["aligned_accuracy"] == 0.75
    low, high = upos["precision_ci95"]
    assert low < 0.75 < high
    assert data["metrics"]["Tokens"]["aligned_accuracy"] is None
    assert data["sentences"]["missing"]["count"] == 1
    assert data["sentences"]["refused"]["first"][0]["sent_id"] == "b"
    assert {r["code"] for r in data["sentences"]["refused"]["first"][0]["reasons"]} == {"cycle", "no-root"}
    signature = data["signature"]
    assert signature["options"]["predicted_only"] is True
    assert len(signature["files"]["gold"]["sha256"]) == 64


def test_strict_adds_metrics(capsys, files):
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--json", "--strict")
    assert status == 0
    assert {"UFeatsAll", "AllTagsAll", "LASFull"} <= set(json.loads(out)["metrics"])


def test_calibration_and_threshold(capsys, files):
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--json", "--calibration",
                         "--threshold", "0.5")
    assert status == 0
    data = json.loads(out)
    assert data["threshold"]["below"] == 1 and data["threshold"]["below_accuracy"] == 0.0
    # Conf=0.9 on word 1 covers its six cells, all right; UPOS 0.3 of word 2 is wrong.
    assert data["threshold"]["above"] == 6 and data["threshold"]["above_accuracy"] == 1.0
    assert data["calibration"]["columns"]["UPOS"]["bins"][0]["cells"] == 1
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--calibration")
    assert status == 0
    assert "Expected calibration error" in out


def test_malformed_conf_is_a_problem_not_a_crash(capsys, tmp_path, files):
    pred = write(tmp_path, "p.conllu", PRED.replace("Conf=UPOS:0.3", "Conf=UPOS:high"))
    status, out, _ = run(capsys, "evaluate", str(pred), str(files[1]), "--calibration")
    assert status == 0
    assert "Malformed Conf values: 1" in out and "'high' is not a number" in out


def test_save_errors_list(capsys, tmp_path, files):
    errors = tmp_path / "errors.json"
    status, _, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--save-errors", str(errors))
    assert status == 0
    data = json.loads(errors.read_text())
    assert data["metric"] == "LAS" and data["items"] == 6  # every gold word, in gold order
    assert data["outcomes"] == "11" + "00" + "00"  # b: cycle; c: missing


@pytest.mark.parametrize("make,expected", [
    (lambda tmp: str(tmp / "nope.conllu"), "no such file"),
    (lambda tmp: str(tmp), "is a directory"),
    (lambda tmp: str(write(tmp, "empty.conllu", "")), "the file is empty"),
    (lambda tmp: str((tmp / "bin.conllu").write_bytes(b"\x00\x01") and tmp / "bin.conllu"), "not a text file"),
])
def test_unusable_input_exits_1_with_one_line(capsys, tmp_path, files, make, expected):
    status, out, err = run(capsys, "evaluate", make(tmp_path), str(files[1]))
    assert status == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and expected in err


def test_usage_errors_exit_2(capsys, files):
    status, _, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--threshold", "3")
    assert status == 2 and "--threshold" in err
    # GOLD missing: PRED and GOLD are optional now (folders, --manifest, --system), so evaluate says so itself.
    status, _, err = run(capsys, "evaluate", str(files[0]))
    assert status == 2 and "give PRED and GOLD" in err


def test_broken_lines_still_score(capsys, tmp_path, files):
    pred = write(tmp_path, "p.conllu", PRED.replace("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\tConf=0.9",
                                                      "1\tThe\tthe\tDET"))
    status, out, _ = run(capsys, "evaluate", str(pred), str(files[1]))
    assert status == 0 and "format-columns (line 2)" in out


def test_no_traceback_from_the_installed_command(tmp_path, files):
    done = subprocess.run([sys.executable, "-m", "annoscore", "evaluate", str(tmp_path / "x"), str(files[1])],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "no such file" in done.stderr


OFFICIAL_SCRIPT = "import sys\nfrom udtools.cli import main_eval\nsys.exit(main_eval())\n"


def test_official_run_beside_ours(capsys, tmp_path, files):
    script = write(tmp_path, "conll18_ud_eval.py", OFFICIAL_SCRIPT)
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--official", str(script),
                         "--json")
    assert status == 0
    data = json.loads(out)
    official = data["official"]
    assert official["error"] is None and official["sentences"] == 2 and official["repaired_sentences"] == 1
    # On the predicted sentences the official UPOS equals ours with --predicted-only.
    assert official["metrics"]["UPOS"]["f1"] == pytest.approx(0.75)


def test_official_run_equals_our_counts_on_repaired_trees(tmp_path):
    """After the repairs, the official script accepts the file, and our scorer
    gives the same counts on the repaired file."""
    from annoscore.scorer.conllu.repair import repaired_text
    pred = read_text(PRED)
    repaired = write(tmp_path, "repaired.conllu", "".join(repaired_text(s)[0] for s in pred.sentences))
    gold = write(tmp_path, "gold2.conllu", "".join(s.body + "\n\n" for s in read_text(GOLD).sentences[:2]))
    from annoscore.scorer.conllu.evaluate import evaluate_files
    result = evaluate_files(repaired, gold)
    official = official_counts(gold, repaired)
    for name, counts in official.items():
        score = result.counts.score(name)
        assert (score.correct, score.gold_total, score.system_total, score.aligned_total) == counts


def test_repairs():
    sentence = read_text(conllu("1 a a X _ _ _ _ _ _\n2 b b X _ _ _ _ _ _\n3 c c X _ _ 0 root _ _")).sentences[0]
    assert repaired_heads(sentence)[0] == [3, 3, 0]
    sentence = read_text(conllu("1 a a X _ _ _ _ _ _\n2 b b X _ _ 1 x _ _")).sentences[0]
    assert repaired_heads(sentence)[0] == [0, 1]
    sentence = read_text(conllu("1 a a X _ _ 0 root _ _\n2 b b X _ _ 0 root _ _\n3 c c X _ _ 3 x _ _")).sentences[0]
    heads, deprels, changed = repaired_heads(sentence)
    assert heads == [0, 1, 1] and deprels == ["root", "dep", "dep"] and changed == 2
    sentence = read_text(conllu("1 a a X _ _ 2 x _ _\n2 b b X _ _ 1 x _ _")).sentences[0]
    heads, deprels, _ = repaired_heads(sentence)
    assert heads == [0, 1] and deprels[0] == "root"


def test_demo_runs(capsys):
    status, out, _ = run(capsys, "demo")
    assert status == 0
    assert "Predicted sentences not parsed yet" in out and "cycle" in out
    assert sample_path("sample.conllu").endswith("sample.conllu")
