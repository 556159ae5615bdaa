"""``annoscore check`` (exit codes, output) and ``annoscore watch`` (events on changes)."""

from __future__ import annotations

import json
from contextlib import contextmanager
import signal
import subprocess
import sys
import time

import pytest

from tests.support.lsp import PRED, cell, line_of, workspace
from annoscore.server.cli import main

COMMAND = [sys.executable, "-m", "annoscore"]


def test_check_exit_codes(tmp_path, monkeypatch, capsys):
    pred, gold = workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "x.conllu"]) == 1  # cycles, text mismatch, ...
    out = capsys.readouterr().out
    assert "x.conllu:" in out and " error cycle " in out
    line = next(l for l in out.splitlines() if " cycle " in l)
    path, row, column, rest = line.split(":", 3)
    head_line, head_start, _ = cell(PRED, line_of(PRED, "2\tb\tb\tX\t_\t_\t3\tdep\t_\t_"), 6)
    assert (int(row), int(column)) == (head_line + 1, head_start + 1)  # the HEAD cell, 1-based
    clean = tmp_path / "clean.conllu"
    clean.write_text("# sent_id = c1\n# text = a\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    assert main(["check", "clean.conllu"]) == 0
    # Valid UD matters too: without its # text, the validator's missing-text fails the check.
    clean.write_text("# sent_id = c1\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    assert main(["check", "clean.conllu"]) == 1
    assert "clean.conllu:2:1: error missing-text " in capsys.readouterr().out
    assert main(["check", "clean.conllu", "--level", "0"]) == 0
    assert main(["check", "x.conllu", "--fail-on", "error", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["failing"] > 0 and data["files"][0]["score"]["format"] == "conllu"
    assert main(["check", "nope.conllu"]) == 1
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["check"])
    assert stop.value.code == 2


def test_check_names_the_line_of_a_bad_project_file(tmp_path, monkeypatch, capsys):
    workspace(tmp_path)
    (tmp_path / "annoscore.toml").write_text('# our pairs\nthreshold = "high"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["check", "x.conllu"]) == 1
    err = capsys.readouterr().err
    assert "annoscore check: annoscore.toml: threshold" in err and "(line 2)" in err


def test_check_with_explicit_gold(tmp_path, monkeypatch, capsys):
    pred, gold = workspace(tmp_path)
    other = tmp_path / "other.conllu"
    other.write_text(PRED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "other.conllu", "--gold", "x.gold.conllu", "--json"]) == 1  # its cycles, ...
    data = json.loads(capsys.readouterr().out)
    assert data["files"][0]["score"]["metrics"]["LAS"]["f1"] > 0
    assert main(["check", "other.conllu", "--json"]) == 1  # no gold: still its cycles
    assert json.loads(capsys.readouterr().out)["files"][0]["score"]["metrics"] == {}


def test_check_columns_after_a_byte_order_mark(tmp_path, monkeypatch, capsys):
    """check reads the file from disk, mark and all; its columns are those of
    the line as an editor shows it, without the mark."""
    (tmp_path / "annoscore.toml").write_text('[[pair]]\nfiles = "p.lab"\ngold = "g.lab"\nformat = "labels"\n')
    (tmp_path / "p.lab").write_text("\ufeff a\t Y\n  a\tX\n", encoding="utf-8")
    (tmp_path / "g.lab").write_text("a\tX\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "p.lab"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "p.lab:1:1: warning format-bom a byte-order mark at the start of the file was ignored",
        "p.lab:1:5: warning label-mismatch gold has 'X'",
        "p.lab:1:5: warning unknown-label gold never uses the label 'Y'",
        "p.lab:2:3: error format-duplicate-id ID 'a' already used on line 1",
        "p.lab:2:3: warning extra-item no gold item has ID 'a'",
    ]


def _read_events(process, count, timeout=30):
    events = []
    deadline = time.time() + timeout
    while len(events) < count and time.time() < deadline:
        line = process.stdout.readline()
        if line:
            events.append(json.loads(line))
    return events


def _event_for(process, path, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = process.stdout.readline()
        if line and json.loads(line)["path"] == path:
            return json.loads(line)
    raise AssertionError(f"no event for {path}")


@contextmanager
def watching(folder):
    """``annoscore watch FOLDER --json`` running; stopped with Ctrl-C after,
    which must end it cleanly."""
    # Ctrl-C as in a terminal: a suite run in the background of a script
    # inherits SIGINT ignored, and Python keeps it so in the child.
    process = subprocess.Popen(COMMAND + ["watch", str(folder), "--json"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=folder,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        finally:
            process.kill()
    assert process.returncode == 0
    assert "Traceback" not in process.stderr.read()


def test_watch_reports_changes_and_stops_on_ctrl_c(tmp_path):
    pred, gold = workspace(tmp_path)
    with watching(tmp_path) as process:
        start = _read_events(process, 2)
        by_path = {e["path"]: e for e in start}
        assert by_path["x.conllu"]["event"] == "start"
        assert "cycle" in {d["code"] for d in by_path["x.conllu"]["added"]}
        las = by_path["x.conllu"]["score"]["metrics"]["LAS"]["f1"]
        time.sleep(1.0)  # let the watcher settle
        # A parser rewrites the prediction: the cycle of s2 is gone.
        pred.write_text(PRED.replace("2\tb\tb\tX\t_\t_\t3\tdep", "2\tb\tb\tX\t_\t_\t1\tdep"), encoding="utf-8")
        change = _event_for(process, "x.conllu")
        assert change["event"] == "change"
        assert {d["code"] for d in change["removed"]} == {"cycle"}
        # A tree again: the UD validator now reads the sentence on, to its missing # text.
        first_word = line_of(PRED, "# sent_id = s2") + 1
        assert [(d["code"], d["line"]) for d in change["added"]] == [("missing-text", first_word + 1)]
        assert change["score"]["metrics"]["LAS"]["f1"] > las
        # The gold changes: the prediction is rescored.
        gold.write_text(gold.read_text().replace("2\tcat\tcat\tNOUN", "2\tcat\tcat\tVERB"), encoding="utf-8")
        event = _event_for(process, "x.conllu")
        assert event["score"]["metrics"]["UPOS"]["f1"] > change["score"]["metrics"]["UPOS"]["f1"]


def test_a_changed_project_file_is_read_again(tmp_path):
    from annoscore.server.config import Settings
    from annoscore.server.daemon import DiskWorkspace
    pred, gold = workspace(tmp_path)
    other = tmp_path / "other.conllu"
    other.write_text(PRED, encoding="utf-8")
    disk = DiskWorkspace(str(tmp_path))
    assert disk.add(str(other)) and not disk.add(str(tmp_path / "notes.txt"))
    disk.rescore([str(other)])
    assert disk.score(str(other))["gold"] is None
    low = disk.score(str(other))["counts"]["lowConfidence"]
    config = tmp_path / "annoscore.toml"
    config.write_text('threshold = 0.01\n[[pair]]\nfiles = "other.conllu"\ngold = "x.gold.conllu"\n')
    assert str(other) in disk.changed([str(config)])
    score = disk.score(str(other))
    assert score["gold"] == str(gold) and score["metrics"]["LAS"]["f1"] > 0
    assert score["counts"]["lowConfidence"] < low  # the new threshold
    config.write_text('threshold = "high"\n')
    assert str(other) in disk.changed([str(config)])
    assert [p.line for p in disk.config_problems] == [0] and "threshold" in disk.config_problems[0].message
    assert disk.config_problems[0].text().endswith("(line 1)")
    assert disk.score(str(other))["gold"] is None and disk.engine.settings.threshold == Settings().threshold


def test_watch_reads_a_changed_project_file(tmp_path):
    workspace(tmp_path)
    other = tmp_path / "other.conllu"
    other.write_text(PRED, encoding="utf-8")
    with watching(tmp_path) as process:
        assert _event_for(process, "other.conllu")["score"]["metrics"] == {}
        time.sleep(1.0)  # let the watcher settle
        # A pair for it, and for a file watch has not read yet (not CoNLL-U by name).
        (tmp_path / "sys.out").write_text(PRED, encoding="utf-8")
        (tmp_path / "annoscore.toml").write_text(
            '[[pair]]\nfiles = "other.conllu"\ngold = "x.gold.conllu"\n'
            '[[pair]]\nfiles = "sys.out"\ngold = "x.gold.conllu"\nformat = "conllu"\n')
        seen = {}
        deadline = time.time() + 30
        while set(seen) != {"other.conllu", "sys.out"} and time.time() < deadline:
            event = json.loads(process.stdout.readline())
            if event["path"] in ("other.conllu", "sys.out"):
                seen[event["path"]] = event
        assert seen["other.conllu"]["score"]["metrics"]["LAS"]["f1"] > 0
        assert seen["sys.out"]["score"]["metrics"]["LAS"]["f1"] == seen["other.conllu"]["score"]["metrics"]["LAS"]["f1"]


def test_a_deleted_gold_file_rescores_what_was_scored_against_it(tmp_path):
    from annoscore.server.daemon import DiskWorkspace
    pred, gold = workspace(tmp_path)
    disk = DiskWorkspace(str(tmp_path))
    for path in (pred, gold):
        assert disk.add(str(path))
    disk.rescore([str(pred), str(gold)])
    assert disk.score(str(pred))["gold"] == str(gold)
    gold.unlink()
    assert str(pred) in disk.changed([str(gold)])
    score = disk.score(str(pred))
    assert score["gold"] is None and not score["metrics"]


def test_check_names_why_a_file_cannot_be_read(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    import gzip
    (tmp_path / "binary.conllu").write_bytes(b"1\ta\x00\n")
    (tmp_path / "packed.conllu").write_bytes(gzip.compress(b"1\ta\n"))
    (tmp_path / "notes.md").write_text("# hello\n", encoding="utf-8")
    assert main(["check", "packed.conllu"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("packed.conllu:1:1: error format-binary this file is gzip-compressed")
    assert "packed.conllu: not scored: not a text file" in err
    # A NUL in text is noted, and the text checked as it is (issue 25, item 6).
    assert main(["check", "binary.conllu"]) == 1
    out, err = capsys.readouterr()
    assert "binary.conllu:1:4: information format-binary a NUL byte" in out
    assert "format-columns" in out and "not scored" not in err
    assert main(["check", "notes.md"]) == 1
    assert "notes.md: annoscore does not read this file" in capsys.readouterr().err
    assert main(["check", "notes.md", "--gold", "binary.conllu"]) == 1
    assert "binary.conllu:1:4: a NUL byte: this is not a text file" in capsys.readouterr().err
