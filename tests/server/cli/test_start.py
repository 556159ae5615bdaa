"""What starting annoscore costs: ``--version`` and ``--help`` import no
command module and not numpy; a command imports its own module only; a
small evaluate or check imports neither numpy nor (evaluate) the validator,
and a small evaluate nothing else it does not use (helper processes, the
ledger of final runs, the breakdowns, temporary folders): what a
10-sentence evaluate imports is what makes it as quick to start as udeval.
``--version`` says which plain lane is active.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.pair_maker import make_pair
from annoscore.server.cli.commands import SUMMARIES, module_name

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
from annoscore.server.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exit:
    status = exit.code
print(f"status {status or 0}")
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported(*argv: str, env: dict | None = None) -> tuple[set[str], str]:
    """The modules loaded by ``annoscore ARGV`` (in a fresh interpreter), and its stdout
    (with the exit status on a last line of its own)."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=120)
    return set(json.loads(done.stderr.strip().split("\n")[-1])), done.stdout


COMMAND_MODULES = {module_name(name) for name in SUMMARIES}


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_import_no_command(argv):
    modules, out = imported(*argv)
    assert not modules & COMMAND_MODULES
    assert "numpy" not in modules
    assert not any(m.startswith("annoscore.scorer.validation") for m in modules)
    if argv == ["--help"]:
        for name, summary in SUMMARIES.items():  # every command still listed
            assert name in out and summary.split()[0] in out


def test_a_command_imports_only_its_own_module():
    modules, out = imported("evaluate", "--help")
    assert modules & COMMAND_MODULES == {module_name("evaluate")}
    assert "--jobs" in out  # its options are all there


def test_version_names_the_lane():
    from annoscore.scorer.conllu import lane

    _, out = imported("--version")
    assert ("plain lane: compiled" in out) == (lane._plain is not None)
    _, forced = imported("--version", env={"ANNOSCORE_NO_EXTENSION": "1"})
    assert "plain lane: python (ANNOSCORE_NO_EXTENSION is set)" in forced


# Both plain lanes: the compiled one when it is built, and the Python one
# (what an install without a C compiler runs).
LANES = pytest.mark.parametrize("lane_env", [{}, {"ANNOSCORE_NO_EXTENSION": "1"}], ids=["built", "python"])


@LANES
def test_small_evaluate_and_check_need_no_numpy(tmp_path, lane_env):
    system, gold = make_pair(tmp_path, 4, n=10)
    modules, out = imported("evaluate", str(system), str(gold), "--jobs", "1", env=lane_env)
    assert "LAS" in out
    assert "numpy" not in modules
    assert not any(m.startswith("annoscore.scorer.validation") for m in modules)
    modules, out = imported("check", str(gold), env=lane_env)
    assert out.split("\n")[-2] in ("status 0", "status 1")  # it ran: no problems, or some
    assert "numpy" not in modules


# What a small evaluate has no use for, and the cost of each at start.
NOT_FOR_A_SMALL_EVALUATE = [
    "multiprocessing",  # helper processes: only for a pair of 16 MiB or more (server.processes)
    "threading",        # (so is the thread that hashes beside the helpers)
    "annoscore.server.parallel",
    "annoscore.server.ledger",  # final runs: only when a project declares the gold a test split
    "annoscore.server.config",  # (project files: only when there is one)
    "annoscore.scorer.conllu.breakdown",  # only with --breakdown or --confusions
    "annoscore.server.official",  # only with --official
    "tempfile",         # only to copy standard input
    "numpy",
]


@LANES
@pytest.mark.parametrize("json_output", [False, True])
def test_a_small_evaluate_imports_nothing_it_does_not_use(tmp_path, json_output, lane_env):
    system, gold = make_pair(tmp_path, 4, n=10)
    modules, out = imported("evaluate", str(system), str(gold), *(["--json"] if json_output else []), env=lane_env)
    assert out.split("\n")[-2] == "status 0" and "LAS" in out
    assert [m for m in NOT_FOR_A_SMALL_EVALUATE if m in modules] == []
    assert not any(m.startswith("annoscore.scorer.validation") for m in modules)


def test_a_run_builds_no_other_commands_parser_but_help_lists_them():
    """``annoscore evaluate …`` parses with evaluate's parser alone; a wrong
    command name, or ``--help`` before the command, still lists them all."""
    from annoscore.server.cli import build_parser

    alone = build_parser(["evaluate", "a", "b"])
    actions = [a for a in alone._actions if a.dest == "command"][0]
    assert list(actions.choices) == ["evaluate"]
    for argv in (["--help", "evaluate"], ["evaluat"], []):
        every = build_parser(argv)
        actions = [a for a in every._actions if a.dest == "command"][0]
        assert list(actions.choices) == list(SUMMARIES)
    _, out = imported("evaluat")
    assert out.split("\n")[-2] == "status 2"


def test_every_summary_is_its_commands_help():
    """The table `--help` lists is what each command's own parser says."""
    import argparse

    from annoscore.server.cli import build_parser

    parser = build_parser(None)
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)][0]
    shown = {choice.dest: choice.help for choice in actions._choices_actions}
    assert shown == SUMMARIES
