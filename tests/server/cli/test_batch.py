"""Many pairs at once (scorer/batch.py, ``evaluate PRED_DIR GOLD_DIR``): pairing
rules, per-pair results equal to one-pair evaluate, averages computed here
independently, seeds, parallel runs, and the shared treebanks as a set."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from annoscore.scorer.batch import PairingError, pair_directories, read_manifest
from annoscore.scorer.conllu.counts import METRICS, Counts, metric_columns
from annoscore.server.cli import main
from tests.support.treebank_maker import make_gold, make_prediction


def run_json(capsys, *argv) -> dict:
    capsys.readouterr()
    assert main(list(argv) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _touch(path: Path, text: str = "x\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_pairing_rules(tmp_path):
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    for name in ("UD_English-EWT/en_ewt-ud-test", "UD_English-EWT/en_ewt-ud-dev", "UD_English-EWT/en_ewt-ud-train",
                 "UD_French-GSD/fr_gsd-ud-test", "UD_German-GSD/de_gsd-ud-test", "other/plain"):
        _touch(gold / f"{name}.conllu")
    _touch(pred / "en_ewt-ud-test.conllu")            # the same name
    _touch(pred / "fr_gsd.UDPipe-Future.conllu")      # the code and a system suffix
    _touch(pred / "sub" / "plain.mine.conllu")        # a stem and a suffix, in a subfolder
    _touch(pred / "xx_none.conllu")                   # pairs with nothing
    pairing = pair_directories(pred, gold)
    got = {p.name: (Path(p.pred).name if p.pred else None) for p in pairing.pairs}
    assert got == {"en_ewt": "en_ewt-ud-test.conllu", "fr_gsd": "fr_gsd.UDPipe-Future.conllu",
                   "de_gsd": None, "plain": "plain.mine.conllu"}
    assert [Path(p).name for p in pairing.unpaired_predictions] == ["xx_none.conllu"]
    # Another split; the code alone then pairs with that split's file.
    dev = {p.name: p.pred for p in pair_directories(pred, gold, "dev").pairs}
    assert set(dev) == {"en_ewt", "plain"} and dev["en_ewt"] is None
    every = {p.name for p in pair_directories(pred, gold, "all").pairs}
    assert {"en_ewt-ud-test", "en_ewt-ud-dev", "en_ewt-ud-train", "fr_gsd-ud-test"} <= every
    # Two predictions for one gold file: refused, naming them.
    _touch(pred / "en_ewt.conllu")
    with pytest.raises(PairingError, match="2 predictions pair with gold .*en_ewt-ud-test"):
        pair_directories(pred, gold)


def test_manifest(tmp_path):
    _touch(tmp_path / "p" / "a.conllu")
    _touch(tmp_path / "g" / "a.conllu")
    manifest = _touch(tmp_path / "list.tsv", "# pairs\np/a.conllu\tg/a.conllu\tfirst\n\np/none.conllu g/a.conllu\n")
    pairing = read_manifest(manifest)
    assert [(p.name, p.pred is not None) for p in pairing.pairs] == [("first", True), ("a", False)]
    bad = _touch(tmp_path / "bad.tsv", "p/a.conllu\n")
    with pytest.raises(PairingError, match=r"bad.tsv:1:1: a manifest line is PRED GOLD \[NAME\]"):
        read_manifest(bad)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Four gold treebanks; predictions for three (one refused: a cycle)."""
    d = tmp_path_factory.mktemp("many")
    gold, pred = d / "gold", d / "pred"
    gold.mkdir()
    pred.mkdir()
    for k, name in enumerate(("aa_one", "bb_two", "cc_three", "dd_four")):
        g = make_gold(gold / f"{name}-ud-test.conllu", 100 + k, 20 + 10 * k)
        if name != "dd_four":
            make_prediction(g, pred / f"{name}-ud-test.conllu", 200 + k, noise=0.1 + 0.05 * k,
                            merge=0.05 * k, cycle=name == "bb_two")
    return pred, gold


def _f1(counts: Counts, metric: str) -> float:
    c, g, s = (counts.values[i] for i in metric_columns(metric))
    return 2 * c / (g + s) if g + s else 0.0


def test_each_pair_equals_one_pair_evaluate_and_averages_are_right(capsys, folders):
    pred, gold = folders
    report = run_json(capsys, "evaluate", str(pred), str(gold), "--jobs", "1")
    pairs = {p["name"]: p for p in report["pairs"]}
    assert list(pairs) == ["aa_one", "bb_two", "cc_three", "dd_four"]
    assert pairs["dd_four"]["status"] == "missing" and pairs["dd_four"]["pred"] is None
    for name in ("aa_one", "bb_two", "cc_three"):
        one = run_json(capsys, "evaluate", str(pred / f"{name}-ud-test.conllu"), str(gold / f"{name}-ud-test.conllu"))
        many = pairs[name]["result"]
        assert many["metrics"] == one["metrics"] and many["sentences"] == one["sentences"]
        assert many["signature"]["files"] == one["signature"]["files"]
        assert pairs[name]["refused"] == one["official_would_refuse"] == (name == "bb_two")
    # The averages, from the per-pair raw counts, computed here.
    per_pair = {name: pairs[name]["result"]["metrics"] for name in ("aa_one", "bb_two", "cc_three")}
    averages = report["averages"]
    for metric in METRICS:
        f1s = [2 * per_pair[n][metric]["correct"] / (per_pair[n][metric]["gold_total"] + per_pair[n][metric]["system_total"])
               if per_pair[n][metric]["gold_total"] + per_pair[n][metric]["system_total"] else 0.0 for n in per_pair]
        assert averages["macro"][metric] == pytest.approx(sum(f1s + [0.0]) / 4, abs=1e-6)  # dd_four: 0
        correct = sum(per_pair[n][metric]["correct"] for n in per_pair)
        gold_total = sum(per_pair[n][metric]["gold_total"] for n in per_pair)
        system_total = sum(per_pair[n][metric]["system_total"] for n in per_pair)
        micro = averages["micro"][metric]
        assert (micro["correct"], micro["gold_total"], micro["system_total"]) == (correct, gold_total, system_total)
    assert averages["missing"] == ["dd_four"] and averages["refused"] == ["bb_two"]
    # --shared-task: the refused pair counts as 0 too.
    shared = run_json(capsys, "evaluate", str(pred), str(gold), "--jobs", "1", "--shared-task")["averages"]
    las = [per_pair[n]["LAS"] for n in ("aa_one", "cc_three")]
    expected = sum(2 * m["correct"] / (m["gold_total"] + m["system_total"]) for m in las) / 4
    assert shared["macro"]["LAS"] == pytest.approx(expected, abs=1e-6)
    assert shared["micro"]["LAS"]["correct"] == sum(m["correct"] for m in las)


def test_two_processes_give_the_same_report(capsys, folders):
    pred, gold = folders
    one = run_json(capsys, "evaluate", str(pred), str(gold), "--jobs", "1")
    two = run_json(capsys, "evaluate", str(pred), str(gold), "--jobs", "2")
    assert one == two


def test_the_table_says_how_missing_and_refused_pairs_count(capsys, folders):
    pred, gold = folders
    capsys.readouterr()
    assert main(["evaluate", str(pred), str(gold), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "dd_four" in out and "missing: counts as 0" in out
    assert "Macro-average (4)" in out and "Micro-average (3)" in out
    assert "refused by the official scorer (scored)" in out
    assert "--shared-task gives them 0" in out
    assert out.rstrip().splitlines()[-1].startswith("Signature: annoscore:")


def test_seeds_mean_sd_min_max(capsys, tmp_path):
    gold = make_gold(tmp_path / "g.conllu", 1, 30)
    runs = [make_prediction(gold, tmp_path / f"seed{k}.conllu", k, noise=0.1 + 0.03 * k) for k in range(3)]
    report = run_json(capsys, "evaluate", "--system", f"sys={tmp_path}/seed*.conllu", str(gold), "--jobs", "1")
    summary = report["systems"]["sys"]["summary"]
    assert summary["runs"] == 3
    las = []
    for run in runs:
        one = run_json(capsys, "evaluate", str(run), str(gold))["metrics"]["LAS"]
        las.append(2 * one["correct"] / (one["gold_total"] + one["system_total"]))
    spread = summary["treebanks"]["g"]["LAS"]
    assert spread["mean"] == pytest.approx(statistics.mean(las), abs=1e-6)
    assert spread["sd"] == pytest.approx(statistics.stdev(las), abs=1e-6)
    assert (spread["min"], spread["max"]) == pytest.approx((min(las), max(las)), abs=1e-6)
    assert summary["macro"]["LAS"]["mean"] == pytest.approx(statistics.mean(las), abs=1e-6)


def test_usage_and_input_errors(capsys, tmp_path, folders):
    pred, gold = folders
    assert main(["evaluate", str(pred), str(gold), "--save-errors", str(tmp_path / "e.json")]) == 2
    assert main(["evaluate", "--system", "nonsense", str(gold)]) == 2
    assert main(["evaluate", "--system", f"x={tmp_path}/nothing*", str(gold)]) == 1
    assert main(["evaluate", str(pred / "aa_one-ud-test.conllu"), str(gold), "--shared-task"]) != 0
    assert main(["evaluate", str(tmp_path), str(gold)]) == 1  # nothing pairs
    err = capsys.readouterr().err
    assert "no prediction pairs with a gold file" in err and "Traceback" not in err


def test_an_unreadable_prediction_counts_as_0_and_the_rest_is_scored(capsys, tmp_path, folders):
    pred, gold = folders
    broken = tmp_path / "pred"
    broken.mkdir()
    for f in pred.iterdir():
        (broken / f.name).write_bytes(f.read_bytes())
    (broken / "cc_three-ud-test.conllu").write_bytes(b"\x1f\x8b\x08\x00 gzip, not text")
    report = run_json(capsys, "evaluate", str(broken), str(gold), "--jobs", "1")
    pairs = {p["name"]: p for p in report["pairs"]}
    assert pairs["cc_three"]["status"] == "unreadable" and "gzip" in pairs["cc_three"]["error"]
    assert pairs["aa_one"]["status"] == "scored"
    assert report["averages"]["unreadable"] == ["cc_three"]


def test_the_shared_treebanks_as_a_set(capsys, shared, tmp_path):
    """The shared dev and test files (mkpred predictions) as a small
    many-treebanks set: each pair's raw counts equal the official scorer's."""
    from tests.support.data import mkpred, official_counts

    ud = shared("data", "ud")
    gold_dir, pred_dir = tmp_path / "gold", tmp_path / "pred"
    gold_dir.mkdir()
    pred_dir.mkdir()
    chosen = ["UD_French-GSD/fr_gsd-ud-dev.conllu", "UD_French-GSD/fr_gsd-ud-test.conllu",
              "UD_German-GSD/de_gsd-ud-test.conllu", "UD_Korean-GSD/ko_gsd-ud-test.conllu"]
    for k, name in enumerate(chosen):
        source = ud / name
        (gold_dir / source.name).symlink_to(source)
        mkpred(source, pred_dir / source.name, k, "--label-noise", "0.05", "--tok-noise", "0.05")
    report = run_json(capsys, "evaluate", str(pred_dir), str(gold_dir), "--split", "all")
    assert len(report["pairs"]) == 4
    for pair in report["pairs"]:
        official = official_counts(Path(pair["gold"]), Path(pair["pred"]))
        for metric in ("Words", "UPOS", "LAS", "MLAS", "BLEX"):
            m = pair["result"]["metrics"][metric]
            assert (m["correct"], m["gold_total"], m["system_total"]) == official[metric][:3], (pair["name"], metric)


def test_seeds_table_notes_missing_unreadable_and_refused_runs(capsys, tmp_path, folders):
    pred, gold = folders
    runs = []
    for k in range(2):
        run = tmp_path / f"run{k}"
        run.mkdir()
        for f in pred.iterdir():
            (run / f.name).write_bytes(f.read_bytes())
        runs.append(run)
    (runs[1] / "aa_one-ud-test.conllu").write_bytes(b"\xff\xfe\x00\x00UTF-32, not UTF-8")
    capsys.readouterr()
    assert main(["evaluate", "--system", f"s={tmp_path}/run*", str(gold), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "System s: 2 runs; F1 mean ± sd (min-max)" in out
    assert "run0: missing dd_four (0); refused by the official scorer bb_two" in out
    assert "run1: missing dd_four (0); cannot be read aa_one (0); refused by the official scorer bb_two" in out


def test_real_shared_task_outputs_pair_by_name_and_equal_the_official_figures(capsys, shared):
    """The CoNLL 2018 submissions in ../shared (``en_ewt.UDPipe-Future.conllu``
    beside gold ``en_ewt.conllu``): paired by the suffix rule, every F1 equal
    to the official script's published table."""
    base = shared("data", "predicted", "conll2018")
    report = run_json(capsys, "evaluate", str(base / "pred"), str(base / "gold"))
    pairs = {p["name"]: p for p in report["pairs"]}
    assert set(pairs) == {"en_ewt", "fr_gsd"} and all(p["status"] == "scored" for p in pairs.values())
    for name, pair in pairs.items():
        expected = next((base / "expected").glob(f"{name}.*.results")).read_text(encoding="utf-8")
        for line in expected.splitlines()[2:]:
            cells = [c.strip() for c in line.split("|")]
            metric, f1 = cells[0], float(cells[3])
            assert round(100 * pair["result"]["metrics"][metric]["f1"], 2) == f1, (name, metric)


def test_every_figure_of_the_table_is_rounded_once_from_the_counts(capsys, folders):
    """18942 of 20071 Lemmas is 94.37497%: 94.37, not the 94.38 of rounding
    the JSON's 6-digit 0.94375 again (UD_Turkish-IMST, mkpred.py --seed 1)."""
    from annoscore.server.cli.evaluate_many import _text

    pred, gold = folders
    report = run_json(capsys, "evaluate", str(pred), str(gold), "--jobs", "1")
    lemmas = report["pairs"][0]["result"]["metrics"]["Lemmas"]
    lemmas.update(correct=18942, gold_total=20071, system_total=20071, f1=round(18942 / 20071, 6))
    assert f"{100 * lemmas['f1']:.2f}" == "94.38"  # what rounding twice shows
    table = _text(report, False).splitlines()
    header = [cell.strip() for cell in table[1].split("|")]
    row = [cell.strip() for cell in next(line for line in table if line.startswith("aa_one")).split("|")]
    assert row[header.index("Lemmas")] == f"{100 * 18942 / 20071:.2f}" == "94.37"
    # Every other figure of every row, from the counts, rounded once.
    metrics = {p["name"]: p["result"]["metrics"] for p in report["pairs"] if p["status"] == "scored"}
    for line in table:
        name = line.split("|")[0].strip()
        if name in metrics:
            cells = [cell.strip() for cell in line.split("|")]
            for metric in header[1:-1]:
                m = metrics[name][metric]
                assert cells[header.index(metric)] == f"{100 * 2 * m['correct'] / (m['gold_total'] + m['system_total']):.2f}"
