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
