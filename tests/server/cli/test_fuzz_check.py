"""The fuzz campaign of ``check --level 5 --lang L`` (scripts/fuzz_check.py),
small enough for CI: a few hundred mutated files, about twenty of them
compared with udvalidate.  A self-made corpus needs nothing but the
repository; the real treebanks run when ``../shared`` is there.  The
campaign's own parts are held too: runs are reproducible, every mutation
changes the text, and a fault, a bad exit status, output that is not JSON,
an ``internal-error`` or a difference from udvalidate is a failure with a
reproducer.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from scripts import fuzz_check  # the campaign itself, a script of the repository

ROOT = Path(__file__).resolve().parents[3]

BASE = ROOT / "tests" / "scorer" / "data" / "validation_base.conllu"


@pytest.fixture
def mini(tmp_path: Path) -> list:
    """A corpus of the tests' own sentences, under a UD file name (en)."""
    folder = tmp_path / "ud" / "UD_English-Mini"
    folder.mkdir(parents=True)
    text = BASE.read_text(encoding="utf-8").strip("\n") + "\n\n"
    (folder / "en_mini-ud-test.conllu").write_text(text * 6, encoding="utf-8")
    return fuzz_check.load_corpus(tmp_path / "ud")


def _assert_clean(counts, out: Path) -> None:
    written = sorted(p.name for p in out.glob("*.txt")) if out.is_dir() else []
    details = "\n".join((out / name).read_text(encoding="utf-8")[:1500] for name in written[:3])
    assert counts.failures == 0 and not written, f"{counts.report()}\n{details}"


def test_mini_corpus_campaign(mini, tmp_path):
    out = tmp_path / "failures"
    counts = fuzz_check.campaign(mini, seed=3, first=0, runs=150, parity=8, out=out,
                                 subprocess_every=50, low=2, high=12)
    _assert_clean(counts, out)
    assert counts.runs == 150 and counts.in_subprocess == 3
    assert counts.parity_compared + counts.parity_crashed == 8 and counts.parity_compared >= 4
    assert counts.parity_equal == counts.parity_compared
    assert set(counts.kinds) == {m.name for m in fuzz_check.MUTATIONS}
    assert set(counts.statuses) <= {0, 1, 2}


def test_real_treebanks_campaign(shared, tmp_path):
    data = shared("data", "ud")
    out = tmp_path / "failures"
    counts = fuzz_check.campaign(fuzz_check.load_corpus(data), seed=11, first=0, runs=150, parity=12,
                                 out=out, subprocess_every=75, low=5, high=30)
    _assert_clean(counts, out)
    assert counts.parity_compared + counts.parity_crashed == 12 and counts.parity_compared >= 6


def test_runs_are_reproducible(mini):
    one = fuzz_check.make_case(mini, 5, 17)
    assert fuzz_check.make_case(mini, 5, 17) == one
    others = {fuzz_check.make_case(mini, 5, i).data for i in range(20)}
    assert len(others) == 20  # (every run another file)
    assert fuzz_check.make_case(mini, 6, 17).data != one.data


def test_every_mutation_changes_the_text():
    lines = BASE.read_text(encoding="utf-8").split("\n")[:-1]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    for mutation in fuzz_check.MUTATIONS:
        changed = 0
        for seed in range(20):
            rng = random.Random(seed)
            if mutation.on_lines:
                copy = list(lines)
                mutation.on_lines(copy, rng)
                changed += copy != lines
            else:
                changed += mutation.on_bytes(data, rng) != data
        assert changed >= 8, f"{mutation.name} changed the text {changed} times in 20"


def test_what_counts_as_a_failure():
    ok = fuzz_check.Outcome(1, json.dumps({"files": [], "failing": 0}), "", 0.5)
    assert fuzz_check.problems_of(ok, 20)[0] == []
    cases = {
        "took more than": fuzz_check.Outcome(None, "", "", 21.0, timed_out=True),
        "escaped": fuzz_check.Outcome(None, "", "", 0.1, fault="Traceback (most recent call last):\n"),
        "traceback in its output": fuzz_check.Outcome(1, "{}", "Traceback (most recent call last):\n", 0.1),
        "exit status 3": fuzz_check.Outcome(3, "{}", "", 0.1),
        "not JSON": fuzz_check.Outcome(1, "{", "", 0.1),
        "internal-error": fuzz_check.Outcome(
            1, json.dumps({"files": [{"diagnostics": [{"code": "internal-error", "line": 1}]}]}), "", 0.1),
    }
    for what, outcome in cases.items():
        wrong, _ = fuzz_check.problems_of(outcome, 20)
        assert any(what in w for w in wrong), (what, wrong)


def test_a_fault_is_written_as_a_reproducer(mini, tmp_path, monkeypatch):
    """A check that raises: the campaign fails, and the reproducer's input
    is the mutated file, its text the command and the traceback."""
    from annoscore.server.cli import check

    def broken(args):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(check, "run", broken)
    out = tmp_path / "failures"
    counts = fuzz_check.campaign(mini, seed=1, first=4, runs=2, parity=0, out=out, subprocess_every=0)
    assert counts.failures == 2
    case = fuzz_check.make_case(mini, 1, 4)
    assert (out / "seed1-run4.conllu").read_bytes() == case.data
    note = (out / "seed1-run4.txt").read_text(encoding="utf-8")
    assert note.startswith("annoscore check --level 5 --lang en --json seed1-run4.conllu\n")
    assert "--seed 1 --first 4 --runs 1" in note and "RuntimeError: injected fault" in note


def test_a_difference_from_udvalidate_fails(mini, tmp_path, monkeypatch):
    real = fuzz_check.official

    def one_more(path, lang, time_limit=120):
        found = real(path, lang, time_limit)
        return found + Counter({(0, "invalid-line", "error"): 1}) if isinstance(found, Counter) else found

    monkeypatch.setattr(fuzz_check, "official", one_more)
    out = tmp_path / "failures"
    counts = fuzz_check.campaign(mini, seed=2, first=0, runs=3, parity=3, out=out, subprocess_every=0,
                                 low=2, high=4)
    assert counts.parity_compared + counts.parity_crashed == 3
    assert counts.failures == counts.parity_compared > 0
    assert "line 1 invalid-line error: udvalidate 1, annoscore 0" in \
        next(out.glob("*.txt")).read_text(encoding="utf-8")


def test_udvalidate_output_is_read(tmp_path):
    """The oracle's text output read back: an error at its line; a file
    it crashes on (invalid UTF-8) is a crash with the exception's name."""
    path = tmp_path / "x.conllu"
    text = BASE.read_text(encoding="utf-8").split("\n\n")[0] + "\n\n"
    # Line 5 (0-based 4, the first word) gets an odd ID.
    lines = text.split("\n")
    lines[4] = "01" + lines[4][1:]
    path.write_text("\n".join(lines), encoding="utf-8")
    found = fuzz_check.official(str(path), "en")
    assert found and (4, "invalid-word-id", "error") in found
    path.write_bytes(b"\xff" + path.read_bytes())
    crashed = fuzz_check.official(str(path), "en")
    assert isinstance(crashed, fuzz_check.Crashed) and crashed.reason.endswith("Error"), crashed


def test_command_line_without_data(tmp_path, capsys):
    assert fuzz_check.main(["--data", str(tmp_path / "none"), "--out", str(tmp_path / "o")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert fuzz_check.main(["--data", str(empty), "--out", str(tmp_path / "o")]) == 2


def test_command_line_counts(mini, tmp_path, capsys):
    data = tmp_path / "ud"
    status = fuzz_check.main(["--data", str(data), "--out", str(tmp_path / "o"), "--runs", "12",
                              "--parity", "2", "--sentences", "2", "6", "--subprocess-every", "0"])
    report = capsys.readouterr().out
    assert status == 0, report
    assert "runs 12 (0 in a subprocess)" in report and "failures 0" in report
    assert "parity: compared" in report

