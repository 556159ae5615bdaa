"""`official_would_refuse` says what udeval (udtools 0.2.9) does with the pair
as given, whatever annoscore's options; a file no sentence of which is
CoNLL-U is refused with one line naming the file, line and column."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.data import mkpred, read_file, shared_path
from tests.support.oracle_cache import remembered
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files

# An oracle test (tests/support/tiers.py): the official tools on real treebanks.
pytestmark = pytest.mark.oracle


def official_refuses(gold: Path, system: Path) -> bool:
    """Whether udeval raises on the pair (remembered on disk by the files'
    bytes, like every oracle run: tests/support/oracle_cache.py)."""
    def compute() -> bool:
        from udtools import udeval
        try:
            udeval.evaluate(udeval.load_conllu_file(str(gold)), udeval.load_conllu_file(str(system)))
        except udeval.UDError:
            return True
        return False
    return remembered("udeval-refuses", [gold, system], [], compute)


def _reordered(gold: Path, out: Path) -> Path:
    """Gold with its second and third sentences swapped."""
    bodies = [s.body for s in read_file(gold).sentences]
    bodies[1], bodies[2] = bodies[2], bodies[1]
    out.write_text("".join(b + "\n\n" for b in bodies), encoding="utf-8")
    return out


PREDICTIONS = [
    ("copy", []),
    ("labels", ["--label-noise", "0.1"]),
    ("tokens", ["--tok-noise", "0.3"]),
    ("merged", ["--merge-sents", "0.2"]),
    ("drop-1%", ["--drop", "0.01"]),
    ("unparsed-1", ["--unparsed", "1"]),
    ("refused-1", ["--refuse", "1"]),
]
OPTIONS = [ConlluOptions(), ConlluOptions(predicted_only=True), ConlluOptions(annotated_only=True)]


@pytest.mark.parametrize("kind,args", PREDICTIONS, ids=[p[0] for p in PREDICTIONS])
def test_flag_is_what_udeval_does(kind, args, tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    system = mkpred(gold, tmp_path / "pred.conllu", 1, *args)
    expected = official_refuses(gold, system)
    assert expected == (kind not in ("copy", "labels", "tokens", "merged"))  # the oracle itself
    for options in OPTIONS:
        assert evaluate_files(system, gold, options).official_would_refuse == expected, options
        assert evaluate_files(system, gold, options, bulk=False).official_would_refuse == expected, options


def test_another_order_is_refused(tmp_path):
    """Pairing by sent_id scores a prediction in another order; udeval
    compares the running texts and refuses it."""
    gold = shared_path("data", "ud", "UD_French-GSD", "fr_gsd-ud-test.conllu")
    system = _reordered(gold, tmp_path / "pred.conllu")
    assert official_refuses(gold, system)
    result = evaluate_files(system, gold)
    assert result.missing.count == result.unmatched.count == 0  # scored in full ...
    assert result.official_would_refuse                           # ... but not as the official scorer would


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "annoscore", *args], capture_output=True, text=True,
                          cwd=cwd, env={"PYTHONPATH": str(Path(__file__).resolve().parents[2]),
                                        "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("text,what", [
    ("hello world\n\n", "1 tab-separated columns"),
    ("a\tb\tc\nd\te\tf\n\nmore words here\n\n", "3 tab-separated columns"),
])
@pytest.mark.parametrize("side", ["pred", "gold"])
def test_a_file_that_is_not_conllu_is_refused(text, what, side, tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    bad = tmp_path / "g.conllu"
    bad.write_text(text, encoding="utf-8")
    assert official_refuses(gold, bad) and official_refuses(bad, gold)
    pair = [str(bad), str(gold)] if side == "pred" else [str(gold), str(bad)]
    for extra in ([], ["--json"]):
        run = _cli("evaluate", *pair, *extra, cwd=tmp_path)
        assert run.returncode == 1, run.stdout[:500]
        assert run.stdout == ""
        line = run.stderr.strip()
        assert line.count("\n") == 0
        assert line.startswith(f"annoscore evaluate: {bad}:1:1: not CoNLL-U: no sentence of this file could be read")
        assert what in line


def test_a_file_with_one_readable_sentence_is_scored(tmp_path):
    """Only a file with no readable sentence at all is refused: a damaged
    line in a real file is a problem of its sentence, and scoring goes on."""
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    bodies = [s.body for s in read_file(gold).sentences]
    system = tmp_path / "pred.conllu"
    system.write_text("hello world\n\n" + "".join(b + "\n\n" for b in bodies), encoding="utf-8")
    run = _cli("evaluate", str(system), str(gold), "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["official_would_refuse"] is True


def test_many_pairs_name_the_file_that_is_not_conllu(tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    (tmp_path / "pred").mkdir()
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred" / "en.conllu").write_text("hello world\n\n", encoding="utf-8")
    (tmp_path / "gold" / "en.conllu").write_bytes(gold.read_bytes())
    run = _cli("evaluate", "pred", "gold", "--json", cwd=tmp_path)
    assert "not CoNLL-U: no sentence of this file could be read" in run.stdout + run.stderr


def test_compare_names_the_file_that_is_not_conllu(tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    bad = tmp_path / "g.conllu"
    bad.write_text("hello world\n\n", encoding="utf-8")
    for a, b, g in ((bad, gold, gold), (gold, gold, bad)):
        run = _cli("compare", str(a), str(b), "--gold", str(g), cwd=tmp_path)
        assert run.returncode == 1 and run.stdout == ""
        assert f"{bad}:1:1: not CoNLL-U: no sentence of this file could be read" in run.stderr


@pytest.mark.parametrize("kind", ["copy", "reordered", "unparsed-1"])
def test_the_flag_survives_scoring_in_parts(kind, tmp_path):
    from annoscore.server.parallel import evaluate_in_parallel

    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    if kind == "copy":
        system = gold
    elif kind == "reordered":
        bodies = [s.body for s in read_file(gold).sentences]
        bodies[1500], bodies[1501] = bodies[1501], bodies[1500]  # in a later part than the first
        system = tmp_path / "pred.conllu"
        system.write_text("".join(b + "\n\n" for b in bodies), encoding="utf-8")
    else:  # (a prediction missing sentences is not scored in parts: no cut pairs its two files)
        system = mkpred(gold, tmp_path / "pred.conllu", 2, "--unparsed", "1")
    result = evaluate_in_parallel(str(system), str(gold), ConlluOptions(), 2, min_bytes=1, min_part_bytes=50_000)
    assert result is not None  # (really in parts)
    assert result.official_would_refuse == official_refuses(gold, system) == (kind != "copy")
