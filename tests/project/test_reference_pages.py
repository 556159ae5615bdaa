"""The generated reference pages (scripts/write_reference.py): one entry per
diagnostic code and validator test id from the registry, one section per
command with every option from the argument parsers, and never stale."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from annoscore.scorer.codes import CODES
from annoscore.scorer.validation.incident import TESTS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "write_reference.py"


def load_script():
    spec = importlib.util.spec_from_file_location("write_reference", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_pages_are_up_to_date():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_stale_page_fails_the_check(tmp_path, monkeypatch, capsys):
    script = load_script()
    page = tmp_path / "codes.md"
    page.write_text(script.codes_page().replace("### `cycle`", "### `cycle-old`"), encoding="utf-8")
    monkeypatch.setattr(script, "CODES_PAGE", page)
    monkeypatch.setattr(sys, "argv", ["write_reference.py", "--check"])
    assert script.main() == 1
    assert "codes.md is out of date" in capsys.readouterr().err


def test_every_code_and_test_id_has_its_own_entry():
    text = (ROOT / "docs" / "reference" / "codes.md").read_text(encoding="utf-8")
    own, validator = text.split("## The UD validator's test ids")
    assert re.findall(r"^### `([^`]+)`$", own, re.M) == list(CODES)
    ids = re.findall(r"^### `([^`]+)`", validator, re.M)
    assert ids == sorted(TESTS) and len(ids) == 143
    # Each entry says what it is: annoscore's meaning and severity; the validator's level, class and check.
    entry = own.split("### `cycle`")[1].split("###")[0]
    assert CODES["cycle"].meaning[1:] in entry and "Severity: error" in entry
    entry = validator.split("### `unknown-upos`")[1].split("###")[0]
    assert "Level 2, class MORPHO, severity error" in entry and "level2.check_cells" in entry
    assert "UPOS is one of" in entry  # the check's own explanation


def test_each_entry_has_its_why_example_and_fix_from_the_registry():
    """The page's entries carry the texts beside each code (scorer/codes.py) and test id
    (scorer/validation/explanations.py): a text changed there and not on the page fails the staleness
    check above; here, that each text there is on the page, in its own entry."""
    from annoscore.server.code_entries import _block as shown_block, all_entries, example_of

    text = (ROOT / "docs" / "reference" / "codes.md").read_text(encoding="utf-8")
    for entry in all_entries():
        on_page = entry.markdown
        assert on_page in text, entry.anchor
        example = example_of(entry)
        if entry.details["why"]:
            assert f"**Why it matters.** {entry.details['why']}" in on_page, entry.anchor
        if entry.details["fix"]:
            assert f"**How to fix it.** {entry.details['fix']}" in on_page, entry.anchor
        if example is not None:  # its file as a block, shown as written (a control character by its code point)
            assert shown_block(example.text) in on_page, entry.anchor
    cycle = text.split("### `cycle`")[1].split("###")[0]
    assert "**Why it matters.**" in cycle and "**How to fix it.**" in cycle
    assert "`annoscore check --level 0 example.conllu` reports `cycle`" in cycle and "```text" in cycle


def test_every_command_and_option_is_in_the_cli_page():
    from annoscore.server.cli import build_parser
    import argparse
    text = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert re.findall(r"^## `annoscore (\S+)`$", text, re.M) == list(commands)
    for name, sub in commands.items():
        section = text.split(f"## `annoscore {name}`")[1].split("\n## ")[0]
        for action in sub._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help") and action.help != argparse.SUPPRESS:
                    assert f"`{option}" in section, (name, option)
