"""``annoscore explain``: a code's entry in the terminal, the same as the reference page's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.cli import run

from annoscore.scorer.codes import CODES, VALIDATION
from annoscore.server.code_entries import all_entries, terminal_text

CODES_PAGE = Path(__file__).resolve().parents[3] / "docs" / "reference" / "codes.md"


def page_entry(heading: str) -> str:
    """The entry under ``### heading`` on the committed docs/reference/codes.md, up to the next heading."""
    text = CODES_PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^### {re.escape(heading)}\n.*?(?=^##|\Z)", text, re.S | re.M)
    assert match, heading
    return match.group(0).rstrip("\n") + "\n"


@pytest.mark.parametrize("code, heading", [
    ("cycle", "`cycle`"),                         # annoscore's
    ("gold-diff", "`gold-diff`"),                 # with its quick fix
    ("unknown-upos", "`unknown-upos`"),           # a validator id with its explanation (a quoted docstring)
    ("leaf-mark-case", "`leaf-mark-case`"),
])
def test_the_text_is_the_pages_entry(capsys, code, heading):
    status, out, err = run(capsys, "explain", code)
    assert status == 0 and err == ""
    assert out == terminal_text(page_entry(heading))
    assert "`" not in out and "### " not in out and "](" not in out  # plain text, not Markdown


def test_the_terminal_text_of_an_entry():
    text = terminal_text("### `x`\n\n- Checked by: [`a.b`](https://h/a.py), see [`y`](#y)\n\n> One.\n>\n> Two.\n")
    assert text == "x\n\n- Checked by: a.b <https://h/a.py>, see y\n\n    One.\n\n    Two.\n"


def test_an_id_of_both_registries_shows_both_entries(capsys):
    status, out, err = run(capsys, "explain", "multiple-roots")
    assert status == 0
    assert out == terminal_text(page_entry("`multiple-roots`")) + "\n" + \
        terminal_text(page_entry("`multiple-roots` (validator)"))


def test_every_registry_code_explains(capsys):
    for code in [*CODES, *VALIDATION]:
        status, out, err = run(capsys, "explain", code)
        assert status == 0 and err == "" and out.startswith(code), code


def test_several_codes_at_once(capsys):
    status, out, _ = run(capsys, "explain", "cycle", "no-root")
    assert status == 0 and out == terminal_text(page_entry("`cycle`")) + "\n" + terminal_text(page_entry("`no-root`"))


def test_an_unknown_code_exits_2_with_the_nearest(capsys):
    status, out, err = run(capsys, "explain", "cycel")
    assert status == 2 and out == ""
    assert "unknown code 'cycel'" in err and "did you mean cycle" in err
    status, _, err = run(capsys, "explain", "unknown-upso")
    assert status == 2 and "unknown-upos" in err
    status, _, err = run(capsys, "explain", "zzzzzzzz")
    assert status == 2 and "did you mean" not in err and "--all" in err


def test_nothing_to_explain_is_a_wrong_command_line(capsys):
    assert run(capsys, "explain")[0] == 2
    assert run(capsys, "explain", "cycle", "--all")[0] == 2


def test_json(capsys):
    status, out, _ = run(capsys, "explain", "multiple-roots", "unknown-upos", "--output-format", "json")
    assert status == 0
    found = json.loads(out)
    assert [(e["code"], e["kind"], e["anchor"]) for e in found] == [
        ("multiple-roots", "annoscore", "multiple-roots"),
        ("multiple-roots", "validator", "multiple-roots-validator"),
        ("unknown-upos", "validator", "unknown-upos")]
    assert found[0]["severity"] == "error" and found[0]["quick_fix"] is False and found[0]["files"] == ["conllu"]
    assert found[0]["markdown"] == page_entry("`multiple-roots`")
    upos = found[2]
    assert upos["level"] == 2 and upos["class"] == "MORPHO" and upos["reachable"] is True
    assert upos["checked_by"] and upos["explanation"] and upos["markdown"] == page_entry("`unknown-upos`")


def test_all_lists_every_entry_with_a_summary(capsys):
    status, out, _ = run(capsys, "explain", "--all")
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(all_entries()) == len(CODES) + len(VALIDATION)
    assert lines[0].split()[0] == "unparsed" and "not parsed yet" in lines[0]
    assert any(line.startswith("multiple-roots (validator)") for line in lines)
    status, out, _ = run(capsys, "explain", "--all", "--output-format", "json")
    listed = json.loads(out)
    assert [e["code"] for e in listed] == [e.code for e in all_entries()]
    assert all(e["summary"] and "markdown" not in e for e in listed)


def test_every_anchor_is_a_heading_of_the_page():
    from tests.project.test_docs_site import anchors

    page = anchors(CODES_PAGE)
    assert all(e.anchor in page for e in all_entries())


def test_codes_the_editor_fixes_say_so():
    """Renumbering, line ends and did-you-mean are quick fixes too, not only the engine's."""
    from annoscore.server.code_entries import entries_for

    for code in ("ids-out-of-sequence", "non-unix-newline", "unknown-upos", "format-spaces"):
        assert all(entry.quick_fix for entry in entries_for(code)), code


def test_the_entry_says_why_it_matters_shows_an_example_and_how_to_fix_it(capsys):
    status, out, _ = run(capsys, "explain", "cycle")
    assert status == 0
    plain = lambda text: text.replace("`", "")  # noqa: E731 (code spans are plain in the terminal)
    assert f"Why it matters. {plain(CODES['cycle'].why)}" in out
    assert f"How to fix it. {plain(CODES['cycle'].fix)}" in out
    assert "annoscore check --level 0 example.conllu reports cycle" in out
    # the example's file, indented and as it is (TABs between the columns)
    assert "\n    " + "\t".join("3 . . PUNCT _ _ 1 punct _ _".split()) + "\n" in out
    status, out, _ = run(capsys, "explain", "format-spaces")
    assert "annoscore fix --select format-spaces makes it in files" in out  # the fix the command line makes


def test_json_has_the_why_the_fix_and_the_example_with_its_command(capsys):
    status, out, _ = run(capsys, "explain", "cycle", "gold-diff", "--output-format", "json")
    cycle, gold_diff = json.loads(out)
    assert cycle["why"] == CODES["cycle"].why and cycle["fix"] == CODES["cycle"].fix
    assert cycle["example"]["command"] == ["annoscore", "check", "--level", "0", "example.conllu"]
    assert cycle["example"]["text"] == CODES["cycle"].example.text and cycle["example"]["editor"] is None
    assert gold_diff["example"]["command"] is None and gold_diff["example"]["editor"] == {"gold_diff": True}
    assert gold_diff["example"]["gold"] == CODES["gold-diff"].example.gold
    status, out, _ = run(capsys, "explain", "internal-error", "--output-format", "json")
    assert json.loads(out)[0]["example"] is None  # no input reaches it: no example, said so by null


def test_a_validator_entrys_example_names_its_level_and_language(capsys):
    from annoscore.scorer.validation.rules import RULES

    status, out, _ = run(capsys, "explain", "feature-unknown", "unknown-upos", "--output-format", "json")
    feature, upos = json.loads(out)
    assert feature["example"]["command"] == ["annoscore", "check", "--level", "4", "--lang", "en", "example.conllu"]
    assert upos["example"]["command"] == ["annoscore", "check", "--level", "2", "example.conllu"]
    assert upos["why"] == RULES["unknown-upos"].why and upos["fix"] == RULES["unknown-upos"].fix
    status, out, _ = run(capsys, "explain", "unknown-upos")
    assert "annoscore check --level 2 example.conllu reports unknown-upos" in out and "How to fix it." in out
