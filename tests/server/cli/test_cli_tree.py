"""``annoscore tree``: a sentence's text tree on the command line."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import run
from tests.support.data import conllu, write
from annoscore.server.cli import main

GOLD = conllu("# sent_id = a\n# text = The cat\n1 The the DET DT _ 2 det _ _\n2 cat cat NOUN NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")
PRED = conllu("# sent_id = a\n# text = The cat\n1 The the DET DT _ 2 det _ _\n2 cat cat VERB NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 obj _ _\n2 sat sit VERB VBD _ 0 root _ _")


@pytest.fixture
def pred(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "x.gold.conllu", GOLD)  # found as its gold, as the server finds it
    return write(tmp_path, "x.conllu", PRED)


def test_a_sentence_by_its_sent_id_with_gold(capsys, pred):
    status, out, err = run(capsys, "tree", str(pred), "--sent-id", "b")
    assert status == 0 and err == ""
    assert out == ("b · It sat · UAS 2/2 LAS 1/2\n"
                   "╭─── root\n"
                   "│ ╭► 1 It  PRON obj  ✗ gold: DEPREL nsubj\n"
                   "╰►┴─ 2 sat VERB root\n")


def test_a_sentence_by_a_line_and_every_sentence(capsys, pred):
    _, by_line, _ = run(capsys, "tree", str(pred), "--line", "4")  # "2 cat ...", from 1
    assert by_line.split("\n")[0] == "a · The cat · UAS 2/2 LAS 2/2" and "✗ gold: UPOS NOUN" in by_line
    _, every, _ = run(capsys, "tree", str(pred))
    _, b, _ = run(capsys, "tree", str(pred), "--sent-id", "b")
    assert every == by_line + "\n" + b


def test_gold_from_the_command_line(capsys, pred, tmp_path):
    other = write(tmp_path, "other.conllu", PRED)  # itself as gold: nothing differs
    _, out, _ = run(capsys, "tree", str(pred), "--sent-id", "b", "--gold", str(other))
    assert "✗" not in out and "UAS 2/2 LAS 2/2" in out


def test_json_is_the_request_s_payload(capsys, pred):
    _, out, _ = run(capsys, "tree", str(pred), "--json")
    payloads = [json.loads(line) for line in out.splitlines()]
    assert [p["sentId"] for p in payloads] == ["a", "b"]
    assert payloads[1]["gold"]["path"] == "x.gold.conllu"
    assert payloads[1]["gold"]["words"][0]["differs"] == ["deprel"]


def test_what_is_not_there_is_one_line_and_status_1(capsys, pred, tmp_path):
    for argv, said in [(["--sent-id", "zz"], "x.conllu: no sentence has the sent_id 'zz'"),
                       (["--line", "5"], "x.conllu:5: no sentence there"),  # the blank line after a
                       (["--line", "900"], "x.conllu:900: no sentence there")]:
        status, out, err = run(capsys, "tree", str(pred), *argv)
        assert (status, out) == (1, "") and err == f"annoscore tree: {said}\n", argv
    write(tmp_path, "notes.md", "hello\n")
    status, _, err = run(capsys, "tree", str(tmp_path / "notes.md"))
    assert status == 1 and "not a CoNLL-U file" in err
    status, _, err = run(capsys, "tree", str(tmp_path / "missing.conllu"))
    assert status == 1 and "no such file" in err


def test_both_ways_of_choosing_is_a_usage_error(capsys, pred):
    with pytest.raises(SystemExit) as stopped:
        main(["tree", str(pred), "--line", "1", "--sent-id", "a"])
    assert stopped.value.code == 2
    assert run(capsys, "tree", str(pred), "--line", "0")[0] == 2
