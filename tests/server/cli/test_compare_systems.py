"""``annoscore compare A B --gold GOLD``: paired tests on two predictions (one
treebank or folders of them), beside the saved-list form."""

from __future__ import annotations

import json

import pytest

from annoscore.server.cli import main
from tests.support.treebank_maker import make_gold, make_prediction


def run_json(capsys, *argv) -> dict:
    capsys.readouterr()
    assert main(list(argv) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _f1(metric: dict) -> float:
    total = metric["gold_total"] + metric["system_total"]
    return 2 * metric["correct"] / total if total else 0.0


@pytest.fixture(scope="module")
def one(tmp_path_factory):
    d = tmp_path_factory.mktemp("cmp")
    gold = make_gold(d / "gold.conllu", 1, 60)
    a = make_prediction(gold, d / "a.conllu", 2, noise=0.12, merge=0.05)
    b = make_prediction(gold, d / "b.conllu", 3, noise=0.2)
    return a, b, gold


def test_bootstrap_and_permutation_on_one_treebank(capsys, one):
    a, b, gold = one
    report = run_json(capsys, "compare", str(a), str(b), "--gold", str(gold), "--metric", "LAS,MLAS",
                      "--samples", "2000", "--seed", "4")
    ea = run_json(capsys, "evaluate", str(a), str(gold))["metrics"]
    eb = run_json(capsys, "evaluate", str(b), str(gold))["metrics"]
    for metric in ("LAS", "MLAS"):
        r = report["metrics"][metric]
        assert r["a"] == pytest.approx(_f1(ea[metric]), abs=1e-6)
        assert r["b"] == pytest.approx(_f1(eb[metric]), abs=1e-6)
        assert r["ci95"][0] <= r["difference"] <= r["ci95"][1]
        assert 0 < r["p_value"] <= 1 and r["significant"] == (r["p_value"] < 0.05)
    options = report["signature"]["options"]
    assert (options["test"], options["samples"], options["seed"]) == ("bootstrap", 2000, 4)
    assert "test:bootstrap|samples:2000|seed:4" in report["signature"]["text"]
    assert set(report["signature"]["files"]) == {"a", "b", "gold"}
    again = run_json(capsys, "compare", str(a), str(b), "--gold", str(gold), "--metric", "LAS,MLAS",
                     "--samples", "2000", "--seed", "4")
    assert again["metrics"] == report["metrics"]
    permutation = run_json(capsys, "compare", str(a), str(b), "--gold", str(gold), "--test", "permutation",
                           "--samples", "500")
    assert "ci95" not in permutation["metrics"]["LAS"] and permutation["seed"] == 12345
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--gold", str(gold), "--samples", "500"]) == 0
    out = capsys.readouterr().out
    assert "Paired bootstrap, 500 samples, seed 12345" in out and "95% CI of A-B" in out


def test_mcnemar_equals_the_saved_lists(capsys, one, tmp_path):
    a, b, gold = one
    report = run_json(capsys, "compare", str(a), str(b), "--gold", str(gold), "--test", "mcnemar")
    la, lb = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["evaluate", str(a), str(gold), "--save-errors", str(la)]) == 0
    assert main(["evaluate", str(b), str(gold), "--save-errors", str(lb)]) == 0
    saved = run_json(capsys, "compare", str(la), str(lb))
    r = report["metrics"]["LAS"]
    assert (r["only_a_wrong"], r["only_b_wrong"], r["both_right"], r["both_wrong"]) == (
        saved["only_a_wrong"], saved["only_b_wrong"], saved["both_right"], saved["both_wrong"])
    assert r["p_value"] == saved["p_value"]
    assert "samples" not in report["signature"]["options"]


def test_folders_macro_average_and_left_out_treebanks(capsys, tmp_path):
    gold_dir, a_dir, b_dir = tmp_path / "gold", tmp_path / "a", tmp_path / "b"
    for d in (gold_dir, a_dir, b_dir):
        d.mkdir()
    for k, name in enumerate(("xx_one", "yy_two", "zz_three")):
        g = make_gold(gold_dir / f"{name}-ud-test.conllu", 10 + k, 25)
        make_prediction(g, a_dir / f"{name}-ud-test.conllu", 20 + k, noise=0.1)
        if name != "zz_three":
            make_prediction(g, b_dir / f"{name}.other.conllu", 30 + k, noise=0.2)
    report = run_json(capsys, "compare", str(a_dir), str(b_dir), "--gold", str(gold_dir), "--samples", "300",
                      "--jobs", "1")
    assert report["left_out"] == ["zz_three"] and report["averaged"] == "macro"
    assert [t["name"] for t in report["treebanks"]] == ["xx_one", "yy_two"]
    f1s = []
    for t in report["treebanks"]:
        ea = run_json(capsys, "evaluate", t["a"], t["gold"])["metrics"]["LAS"]
        eb = run_json(capsys, "evaluate", t["b"], t["gold"])["metrics"]["LAS"]
        f1s.append((_f1(ea), _f1(eb)))
    r = report["metrics"]["LAS"]
    assert r["a"] == pytest.approx(sum(x for x, _ in f1s) / 2, abs=1e-6)
    assert r["b"] == pytest.approx(sum(y for _, y in f1s) / 2, abs=1e-6)
    assert report["signature"]["options"]["treebanks"] == 2
    two = run_json(capsys, "compare", str(a_dir), str(b_dir), "--gold", str(gold_dir), "--samples", "300",
                   "--jobs", "2")
    assert two["metrics"] == report["metrics"]


def test_usage_errors(capsys, one, tmp_path):
    a, b, gold = one
    assert main(["compare", str(a), str(b), "--samples", "10"]) == 2            # saved lists take no --samples
    assert main(["compare", str(a), str(b), "--gold", str(gold), "--test", "mcnemar", "--seed", "1"]) == 2
    assert main(["compare", str(a), str(b), "--gold", str(gold), "--metric", "Nonsense"]) == 2
    assert main(["compare", str(a), str(b), "--gold", str(gold), "--test", "mcnemar", "--metric", "ELAS"]) == 2
    assert main(["compare", str(a), str(b), "--gold", str(gold), "--samples", "0"]) == 2
    assert main(["compare", str(a), str(tmp_path), "--gold", str(gold)]) == 2
    assert main(["compare", str(a), str(tmp_path / "none.conllu"), "--gold", str(gold)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "no such file" in err


def test_the_python_api_returns_what_json_prints(capsys, one, tmp_path):
    from annoscore.scorer import compare_conllu, evaluate_conllu, evaluate_many, evaluate_systems

    a, b, gold = one
    assert evaluate_conllu(a, gold, breakdown=["upos"], confusions=2) == run_json(
        capsys, "evaluate", str(a), str(gold), "--breakdown", "upos", "--confusions", "2")
    assert compare_conllu(a, b, gold, metrics=["LAS", "BLEX"], samples=300, seed=2) == run_json(
        capsys, "compare", str(a), str(b), "--gold", str(gold), "--metric", "LAS,BLEX", "--samples", "300",
        "--seed", "2")
    pred_dir, gold_dir = tmp_path / "p", tmp_path / "g"
    pred_dir.mkdir()
    gold_dir.mkdir()
    (pred_dir / "t.conllu").write_bytes(a.read_bytes())
    (gold_dir / "t.conllu").write_bytes(gold.read_bytes())
    assert evaluate_many(pred_dir, gold_dir) == run_json(capsys, "evaluate", str(pred_dir), str(gold_dir))
    assert evaluate_systems({"s": [a, b]}, gold) == run_json(
        capsys, "evaluate", "--system", f"s={a}", "--system", f"s={b}", str(gold), "--jobs", "1")


def test_an_unreadable_prediction_in_a_process_is_one_clear_line(capsys, tmp_path):
    gold_dir, a_dir, b_dir = tmp_path / "gold", tmp_path / "a", tmp_path / "b"
    for d in (gold_dir, a_dir, b_dir):
        d.mkdir()
    for k, name in enumerate(("xx_one", "yy_two")):
        g = make_gold(gold_dir / f"{name}-ud-test.conllu", k, 10)
        make_prediction(g, a_dir / f"{name}-ud-test.conllu", 10 + k)
        make_prediction(g, b_dir / f"{name}-ud-test.conllu", 20 + k)
    (a_dir / "yy_two-ud-test.conllu").write_bytes(b"\x1f\x8b\x08\x00 not text")
    capsys.readouterr()
    assert main(["compare", str(a_dir), str(b_dir), "--gold", str(gold_dir), "--jobs", "2"]) == 1
    err = capsys.readouterr().err
    assert "yy_two-ud-test.conllu:1:1: this file is gzip-compressed" in err and "Traceback" not in err
