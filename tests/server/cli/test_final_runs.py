"""A test split is used once: evaluate refuses a declared test gold without --final, records a
final run in .annoscore/final-runs.json, refuses a second one unless --overwrite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from annoscore.server.cli import main

DEMO = Path(__file__).resolve().parents[3] / "server" / "demo"
LEDGER = Path(".annoscore") / "final-runs.json"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "gold").mkdir()
    (tmp_path / "out").mkdir()
    shutil.copy(DEMO / "sample.gold.conllu", tmp_path / "gold" / "test.conllu")
    shutil.copy(DEMO / "sample.gold.conllu", tmp_path / "gold" / "dev.conllu")
    (tmp_path / "gold" / "dev.conllu").write_text((tmp_path / "gold" / "dev.conllu").read_text() + "\n")
    shutil.copy(DEMO / "sample.conllu", tmp_path / "out" / "sys.conllu")
    (tmp_path / "annoscore.toml").write_text('[splits]\ndev = "gold/dev.*"\ntest = ["gold/test.conllu"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _runs(root):
    path = root / LEDGER
    return json.loads(path.read_text())["runs"] if path.exists() else []


def test_refused_without_final_in_one_line(project, capsys):
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.strip().split("\n")
    assert line.startswith("annoscore evaluate: gold/test.conllu is a test split ([splits] test in ")
    assert "add --final when yours are made" in line
    assert _runs(project) == []
    # dev is not refused, and needs no --final
    assert main(["evaluate", "out/sys.conllu", "gold/dev.conllu"]) == 0
    assert "final:" not in capsys.readouterr().out


def test_a_final_run_is_recorded_once_then_refused_then_overwritten(project, capsys):
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["signature"]["options"]["final"] is True and "|final:yes|" in out["signature"]["text"]
    assert "final run of out/sys.conllu on gold/test.conllu recorded" in captured.err
    (run,) = _runs(project)
    assert run["system"] == "out/sys.conllu" and run["gold"]["path"] == "gold/test.conllu"
    assert run["gold"]["sha256"] == out["signature"]["files"]["gold"]["sha256"]
    assert run["pred"]["sha256"] == out["signature"]["files"]["pred"]["sha256"]
    assert run["signature"] == out["signature"]["text"] and run["overwrite"] is False and run["time"]

    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.strip().split("\n")
    assert "was already scored for the system 'out/sys.conllu' with --final" in line
    assert "give --overwrite to score it again" in line
    assert len(_runs(project)) == 1

    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final", "--overwrite"]) == 0
    assert "final:yes" in capsys.readouterr().out
    assert [r["overwrite"] for r in _runs(project)] == [False, True]


def test_another_system_gets_its_own_run(project, capsys):
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final"]) == 0
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final", "--system", "parser-v2"]) == 0
    assert [r["system"] for r in _runs(project)] == ["out/sys.conllu", "parser-v2"]
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final", "--system", "parser-v2"]) == 2


def test_the_test_gold_under_another_name_or_on_stdin_is_still_the_test_split(project, capsys, monkeypatch):
    shutil.copy(project / "gold" / "test.conllu", project / "copy.conllu")
    assert main(["evaluate", "out/sys.conllu", "copy.conllu"]) == 2
    assert "copy.conllu is a test split" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", open(project / "gold" / "test.conllu"))
    assert main(["evaluate", "out/sys.conllu", "-"]) == 2
    assert "<stdin> is a test split" in capsys.readouterr().err
    # Run from elsewhere: the gold file's own project declares it.
    monkeypatch.chdir(project / "out")
    assert main(["evaluate", "sys.conllu", "../gold/test.conllu"]) == 2


@pytest.mark.parametrize("args, message", [
    (["gold/dev.conllu", "--final"], "--final is for a declared test split, and gold/dev.conllu is not one"),
    (["gold/dev.conllu", "--overwrite"], "--overwrite goes with --final"),
    (["gold/dev.conllu", "--system", "x"], "--system NAME goes with --final"),
])
def test_final_options_out_of_place(project, capsys, args, message):
    assert main(["evaluate", "out/sys.conllu", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_broken_ledger_is_never_replaced(project, capsys):
    (project / ".annoscore").mkdir()
    (project / LEDGER).write_text("{not json")
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final"]) == 2
    assert "not a ledger of final runs" in capsys.readouterr().err
    assert (project / LEDGER).read_text() == "{not json"


def test_an_unwritable_ledger_shows_no_result(project, capsys, monkeypatch):
    (project / ".annoscore").write_text("a file where the folder should be")
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final"]) == 2
    assert ".annoscore is not a folder" in capsys.readouterr().err
    (project / ".annoscore").unlink()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("annoscore.server.ledger.tempfile.mkstemp", full)  # scored, then the ledger cannot be written
    assert main(["evaluate", "out/sys.conllu", "gold/test.conllu", "--final"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "the final run was not recorded, so its result is not shown" in captured.err
    assert _runs(project) == []


def test_labels_and_segmentation_test_splits_too(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "annoscore.toml").write_text('[splits]\ntest = "*-test.*"\n')
    (tmp_path / "items-test.tsv").write_text("a\tX\nb\tY\n")
    (tmp_path / "pred.tsv").write_text("a\tX\nb\tX\n")
    (tmp_path / "seg-test.txt").write_text("a b\n")
    (tmp_path / "seg.txt").write_text("a b\n")
    assert main(["evaluate", "pred.tsv", "items-test.tsv", "--format", "labels"]) == 2
    assert main(["evaluate", "pred.tsv", "items-test.tsv", "--format", "labels", "--final"]) == 0
    assert main(["evaluate", "seg.txt", "seg-test.txt"]) == 2
    assert main(["evaluate", "seg.txt", "seg-test.txt", "--final"]) == 0
    assert capsys.readouterr().out.count("final:yes") == 2
    assert [r["format"] for r in _runs(tmp_path)] == ["labels", "space"]


@pytest.fixture
def treebanks(tmp_path, monkeypatch):
    """Two treebanks, folders of predictions and of gold paired by name,
    the gold test files declared a test split."""
    for folder in ("gold", "pred", "seed1", "seed2"):
        (tmp_path / folder).mkdir()
    for name in ("en_a-ud", "fr_b-ud"):
        for split in ("dev", "test"):
            gold = tmp_path / "gold" / f"{name}-{split}.conllu"
            # each its own content: a test file's content is its test split under any name
            gold.write_text(f"# about = {name}-{split}\n" + (DEMO / "sample.gold.conllu").read_text())
            for folder in ("pred", "seed1", "seed2"):
                shutil.copy(DEMO / "sample.conllu", tmp_path / folder / f"{name}-{split}.conllu")
    (tmp_path / "annoscore.toml").write_text('[splits]\ntest = ["gold/*-test.conllu"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_many_pairs_on_test_splits_are_refused_without_final(treebanks, capsys):
    assert main(["evaluate", "pred", "gold"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.strip().split("\n")
    assert "gold/en_a-ud-test.conllu is a test split" in line and "(and 1 more of the pairs)" in line
    assert _runs(treebanks) == []
    # the dev files are not a test split: scored without --final, and --final is refused for them
    assert main(["evaluate", "pred", "gold", "--split", "dev", "--jobs", "1"]) == 0
    assert "en_a-ud" in capsys.readouterr().out
    assert main(["evaluate", "pred", "gold", "--split", "dev", "--final"]) == 2
    assert "none of these gold files is one" in capsys.readouterr().err


def test_many_pairs_final_run_records_each_pair_once(treebanks, capsys):
    assert main(["evaluate", "pred", "gold", "--final", "--json", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    signatures = [p["result"]["signature"] for p in report["pairs"]]
    assert [s["options"]["final"] for s in signatures] == [True, True]
    runs = _runs(treebanks)
    assert sorted(r["gold"]["path"] for r in runs) == ["gold/en_a-ud-test.conllu", "gold/fr_b-ud-test.conllu"]
    assert {r["system"] for r in runs} == {"pred/en_a-ud-test.conllu", "pred/fr_b-ud-test.conllu"}
    assert sorted(r["signature"] for r in runs) == sorted(s["text"] for s in signatures)
    assert captured.err.count("recorded in") == 2
    # a second look is refused whole: nothing scored, nothing recorded
    assert main(["evaluate", "pred", "gold", "--final"]) == 2
    assert "was already scored" in capsys.readouterr().err
    assert len(_runs(treebanks)) == 2
    assert main(["evaluate", "pred", "gold", "--final", "--overwrite", "--jobs", "1"]) == 0
    assert [r["overwrite"] for r in _runs(treebanks)] == [False, False, True, True]


def test_runs_of_a_system_are_one_look_per_seed(treebanks, capsys):
    assert main(["evaluate", "--system", "parser=seed*", "gold"]) == 2
    assert "is a test split" in capsys.readouterr().err
    assert main(["evaluate", "--system", "parser=seed*", "gold", "--final", "--jobs", "1"]) == 0
    capsys.readouterr()
    systems = sorted({r["system"] for r in _runs(treebanks)})
    assert systems == ["parser:seed1", "parser:seed2"]
    assert len(_runs(treebanks)) == 4
    assert main(["evaluate", "--system", "parser=seed1", "gold", "--final"]) == 2
    assert "already scored for the system 'parser:seed1'" in capsys.readouterr().err
