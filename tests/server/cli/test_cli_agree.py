"""``annoscore agree``: exit statuses, the JSON a tool reads, the places, the signature."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.pair_maker import make_gold_sentences, make_prediction, write
from annoscore.server.cli import main


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli-agree")
    gold = make_gold_sentences(23, 60)
    a = write(folder / "a.conllu", make_prediction(gold, 1, tokenization=0.1, merge=0.0, conf=False))
    b = write(folder / "b.conllu", make_prediction(gold, 2, tokenization=0.1, merge=0.0, conf=False))
    return a, b


def _json(capsys, *args):
    assert main(["agree", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_is_complete_and_symmetric(capsys, pair):
    a, b = pair
    ab = _json(capsys, a, b, "--samples", "200", "--places")
    ba = _json(capsys, b, a, "--samples", "200", "--places")
    for name in ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL", "HEAD+DEPREL", "DEPS"):
        entry = ab["variables"][name]
        assert set(entry) >= {"items", "pairable", "observed", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha",
                              "observed_ci95", "cohen_kappa_ci95", "fleiss_kappa_ci95", "krippendorff_alpha_ci95"}
        assert entry == ba["variables"][name], name
        low, high = entry["cohen_kappa_ci95"]
        assert low <= entry["cohen_kappa"] <= high
    assert ab["bootstrap"] == {"samples": 200, "seed": 12345, "resampled": "sentences",
                               "interval": "2.5th and 97.5th percentiles of the resampled coefficients"}
    assert "samples:200" in ab["signature"]["text"] and "seed:12345" in ab["signature"]["text"]
    assert ab["signature"]["files"]["a"]["sha256"] == ba["signature"]["files"]["b"]["sha256"]
    # Every place names both files' lines and values, and there are as many as counted.
    assert len(ab["places"]) == sum(ab["differences"].values()) > 0
    lines = {p: p.read_text(encoding="utf-8").split("\n") for p in (a, b)}
    column = {"UPOS": 3, "XPOS": 4, "LEMMA": 2, "FEATS": 5, "HEAD": 6, "DEPREL": 7, "DEPS": 8}
    for place in ab["places"][:200]:
        values = []
        for path, word, value in zip((a, b), place["words"], place["values"]):
            if word is None:
                continue
            cells = lines[path][word["line"] - 1].split("\t")
            assert cells[0] == word["id"] and cells[1] == word["form"]
            if place["column"] not in ("FEATS", "DEPS", "HEAD"):  # (canonical / as item numbers there)
                assert cells[column[place["column"]]] == value
            values.append(value)
        assert len(set(values)) > 1
    assert sorted(map(json.dumps, ab["places"])) != [] and len(ab["places"]) == len(ba["places"])


def test_places_as_text(capsys, pair):
    a, b = pair
    assert main(["agree", str(a), str(b), "--places", "--samples", "0"]) == 0
    out = capsys.readouterr().out.strip().split("\n")
    assert out and all(f"A {a}:" in line or "A (no such word)" in line for line in out)
    assert all(f"| B {b}:" in line or "B (no such word)" in line for line in out)


def test_the_seed_changes_the_interval_not_the_figures(capsys, pair):
    a, b = pair
    one = _json(capsys, a, b, "--samples", "100", "--seed", "1")["variables"]["UPOS"]
    two = _json(capsys, a, b, "--samples", "100", "--seed", "2")["variables"]["UPOS"]
    assert one["cohen_kappa"] == two["cohen_kappa"] and one["cohen_kappa_ci95"] != two["cohen_kappa_ci95"]
    same = _json(capsys, a, b, "--samples", "100", "--seed", "1", "--jobs", "2")["variables"]["UPOS"]
    assert same == one


@pytest.mark.parametrize("args,status,message", [
    (["{a}"], 2, "give two annotations"),
    (["{a}", "{a}", "--by", "nope"], 2, "--by nope"),
    (["{a}", "{a}", "--samples", "-1"], 2, "--samples"),
    (["{a}", "{a}", "--unit", "page"], 2, "invalid choice"),
    (["{a}", "{missing}"], 1, "no such file"),
    (["{a}", "{empty}"], 1, "empty"),
    (["{a}", "{other}"], 1, "no sentence is in two of the annotations"),
])
def test_exit_statuses(tmp_path, pair, args, status, message):
    a, _ = pair
    (tmp_path / "empty.conllu").write_text("")
    (tmp_path / "other.conllu").write_text("# sent_id = zz\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n")
    names = {"a": a, "missing": tmp_path / "missing.conllu", "empty": tmp_path / "empty.conllu",
             "other": tmp_path / "other.conllu"}
    done = subprocess.run([sys.executable, "-m", "annoscore", "agree", *[x.format(**names) for x in args]],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == status, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_the_table(capsys, pair):
    a, b = pair
    assert main(["agree", str(a), str(b), "--samples", "50"]) == 0
    out = capsys.readouterr().out
    for text in ("Cohen's kappa", "Fleiss' kappa", "Krippendorff's alpha", "Attachment agreement of A and B",
                 "By UPOS", "By relation", "Most frequent confusions of UPOS", "Signature: annoscore:"):
        assert text in out, text


def test_the_program_asks_for_one_blas_thread_unless_told_otherwise():
    """OpenBLAS's spinning threads cost agree's bootstrap 20x the CPU on a
    shared machine: the program sets one thread before numpy is loaded, and
    leaves a thread count the user set alone."""
    code = ("import os, sys\n"
            "from annoscore.server.cli import one_blas_thread, BLAS_THREADS\n"
            "assert 'numpy' not in sys.modules\n"
            "one_blas_thread()\n"
            "print([os.environ[name] for name in BLAS_THREADS])\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "['1', '1', '1']"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "OPENBLAS_NUM_THREADS": "2"}, check=True).stdout
    assert out.strip() == "['2', '1', '1']"
