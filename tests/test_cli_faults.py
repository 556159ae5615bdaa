"""The command-line faults of issue 15, each with the behaviour that fixes it.

Every test here failed before its fix; the issue's item number is in the
test's name or docstring.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import conllu, write
from server.cli import main

COMMAND = [sys.executable, "-m", "server.cli"]

GOLD = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ _\n2 cat cat NOUN NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")
PRED = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ _\n2 cat cat VERB NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def files(tmp_path):
    return write(tmp_path, "pred.conllu", PRED), write(tmp_path, "gold.conllu", GOLD)


# --- 15: demo --json prints only JSON ----------------------------------------------


def test_15_demo_json_is_only_json(capsys):
    status, out, err = run(capsys, "demo", "--json")
    assert status == 0
    data = json.loads(out)  # the whole of stdout parses
    assert data["metrics"]["LAS"]["gold_total"] > 0
    assert err.startswith("$ annoscore evaluate ")  # what it ran, where it does not get in the way


def test_15_demo_text_still_shows_the_command(capsys):
    status, out, _ = run(capsys, "demo")
    assert status == 0 and out.startswith("$ annoscore evaluate ")


# --- 10: every message quotes at most a short excerpt ------------------------------

LONG = "x" * 100_000
MESSAGE_LIMIT = 300  # characters: a message with its excerpts, a path and a line number


def _messages(data):
    """Every "message" string anywhere in a JSON value."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "message" and isinstance(value, str):
                yield value
            else:
                yield from _messages(value)
    elif isinstance(data, list):
        for value in data:
            yield from _messages(value)


def _long_conllu() -> tuple[str, str]:
    """A prediction with user text of 100,000 characters in every place a
    message quotes one, and its gold."""
    rows = [
        f"# sent_id = {LONG}\n1 a a X _ _ 0 root _ _",                               # the sentence's name
        f"# sent_id = s2\n1 {LONG} a X _ _ 0 root _ _",                              # a text mismatch
        f"# sent_id = s3\n1 a a X _ _ {LONG} root _ _",                              # HEAD
        f"# sent_id = s4\n1 a a X _ _ 0 root {LONG} _",                              # DEPS
        f"# sent_id = s5\n1 a a X _ _ 0 root _ Conf={LONG}",                         # Conf
        f"# sent_id = s6\n1 a {LONG} X _ _ 0 root _ Conf=LEMMA:0.1",                 # low confidence
        f"# sent_id = s7\n1 a a X _ _ 0 root _ _\n1.{LONG} a a X _ _ _ _ 0:root _",  # an empty node's ID
        f"# sent_id = s8\n1-{LONG} ab _ _ _ _ _ _ _ _\n1 a a X _ _ 0 root _ _",      # a multiword range
        f"# sent_id = s9\n{LONG} a a X _ _ 0 root _ _",                              # a word ID
    ]
    pred = conllu(*rows) + LONG + "\n\n"                                                # a line of one column
    gold = conllu(f"# sent_id = {LONG}\n1 a a X _ _ 0 root _ _",
                  *(f"# sent_id = s{k}\n1 a a X _ _ 0 root _ _" for k in range(2, 10)))
    return pred, gold


def test_10_conllu_messages_are_short(capsys, tmp_path, monkeypatch):
    pred_text, gold_text = _long_conllu()
    pred = write(tmp_path, "p.conllu", pred_text)
    gold = write(tmp_path, "p.gold.conllu", gold_text)
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "check", "p.conllu", "--json", "--threshold", "0.5")
    messages = list(_messages(json.loads(out)))
    codes = {d["code"] for f in json.loads(out)["files"] for d in f["diagnostics"]}
    assert {"format-id", "format-head", "format-deps", "format-conf", "low-confidence",
            "text-mismatch", "format-columns"} <= codes
    assert status == 1 and messages and max(map(len, messages)) < MESSAGE_LIMIT
    assert any("(100,000 characters)" in m for m in messages)
    for argv in ([], ["--json"]):
        status, out, err = run(capsys, "evaluate", str(pred), str(gold), "--threshold", "0.5", *argv)
        assert status == 0
        lines = list(_messages(json.loads(out))) if argv else out.splitlines()
        assert lines and max(map(len, lines)) < MESSAGE_LIMIT, max(lines, key=len)[:200]


def test_10_segmentation_and_labels_messages_are_short(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "s.txt", f"a {LONG}b\nc d\n")
    write(tmp_path, "s.gold.txt", f"a {LONG} b\nc d\n")
    write(tmp_path, "t.txt", f"a/NOUN b/{LONG}\n")
    write(tmp_path, "t.gold.txt", "a/NOUN b/NOUN\n")
    (tmp_path / "annoscore.toml").write_text(
        '[[pair]]\nfiles = "l.tsv"\ngold = "l.gold.tsv"\nformat = "labels"\n'
        '[[pair]]\nfiles = "t.txt"\ngold = "t.gold.txt"\npos = true\n')
    write(tmp_path, "l.tsv", f"{LONG}\t{LONG}y\n{LONG}\tz\nb\t{LONG}y\n")
    write(tmp_path, "l.gold.tsv", f"{LONG}\t{LONG}\nb\tz\n")
    status, out, _ = run(capsys, "check", "s.txt", "t.txt", "l.tsv", "--json")
    data = json.loads(out)
    codes = {d["code"] for f in data["files"] for d in f["diagnostics"]}
    assert {"segmentation-mismatch", "format-unknown-tag", "label-mismatch", "format-duplicate-id",
            "unknown-label"} <= codes
    messages = list(_messages(data))
    assert max(map(len, messages)) < MESSAGE_LIMIT
    for argv in (["s.txt", "s.gold.txt"], ["t.txt", "t.gold.txt", "--pos"],
                 ["l.tsv", "l.gold.tsv", "--format", "labels"]):
        status, out, err = run(capsys, "evaluate", *argv)
        assert max(map(len, (out + err).splitlines())) < MESSAGE_LIMIT, argv


def test_10_the_excerpt_helper():
    from scorer.excerpt import excerpt, quoted
    assert quoted("abc") == "'abc'"
    assert quoted("a" * 50, 4) == "'aaaa…' (50 characters)"
    assert excerpt("a\tb\x00c\x1b[2J\udce9") == "a\\tb\\x00c\\x1b[2J\\xE9"
    assert excerpt("a\u00a0b\u200cc") == "a\u00a0b\u200cc"  # no-break space, ZWNJ: part of words
