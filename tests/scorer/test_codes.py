"""One registry of diagnostic codes (scorer/codes.py): what the server says,
what the docs' tables list (docs/guide) and what the editor clients know are held to it."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from annoscore.scorer.codes import CODES
from annoscore.scorer.validation.incident import TESTS

ROOT = Path(__file__).resolve().parents[2]


def problems_made_in_the_source() -> dict[str, set[str]]:
    """Each code a `Problem(...)` is made with in scorer/ and server/, with the severities it is made with."""
    found: dict[str, set[str]] = {}
    for path in list((ROOT / "scorer").rglob("*.py")) + list((ROOT / "server").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            if not (isinstance(node, ast.Call) and getattr(name, "id", getattr(name, "attr", None)) == "Problem"):
                continue
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                severities = {a.attr for a in node.args[1:] + [k.value for k in node.keywords]
                              if isinstance(a, ast.Attribute) and getattr(a.value, "id", None) == "Severity"}
                found.setdefault(node.args[0].value, set()).update(severities or {"ERROR"})
    return found


def test_every_code_the_source_makes_is_registered_with_its_severity():
    made = problems_made_in_the_source()
    assert len(made) > 30
    unknown = sorted(set(made) - set(CODES) - set(TESTS))
    assert not unknown, f"codes made but not in scorer/codes.py: {unknown}"
    for code, severities in made.items():
        if code in CODES:
            assert CODES[code].severity.name in severities, (code, severities)
    assert not set(CODES) - set(made) - {"format-binary"}, "registered codes nothing makes"  # (binary: a constant)


def readme_codes() -> set[str]:
    text = (ROOT / "docs" / "guide" / "language-server.md").read_text(encoding="utf-8")
    section = text[text.index("## Diagnostics"):text.index("## The live score")]  # (its own page: lsp-protocol.md)
    codes: set[str] = set()
    for row in section.split("\n"):
        if row.startswith("| `"):
            first = row.split("|")[1]
            codes |= set(re.findall(r"`([a-z0-9-]+)`", first))
            if "`format-…`" in first:  # the row of reader problems names each code in its text
                codes |= set(re.findall(r"`(format-[a-z-]+)`", row))
    return codes


def test_the_diagnostics_tables_list_every_code_and_no_other():
    listed = readme_codes()
    assert listed == set(CODES), (sorted(set(CODES) - listed), sorted(listed - set(CODES)))


def test_the_vs_code_extension_knows_every_code():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "write_codes.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    configuration = package["contributes"]["configuration"]
    configuration = configuration if isinstance(configuration, dict) else configuration[0]
    described = set(configuration["properties"]["annoscore.severities"]["properties"])
    assert described <= set(CODES), sorted(described - set(CODES))
    lua = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "editors" / "nvim").rglob("*.lua"))
    # Codes the plugin compares a diagnostic's code with (not its own names, such as edit operations).
    used = set(re.findall(r'code\s*==\s*"([a-z]+(?:-[a-z]+)+)"', lua))
    assert used <= set(CODES) | set(TESTS), sorted(used - set(CODES) - set(TESTS))


def test_the_validators_test_ids_are_registered_with_their_level_class_and_severity():
    from annoscore.scorer.codes import ALL, VALIDATION
    assert len(VALIDATION) == len(TESTS) == 143
    for test_id, (level, test_class, severity) in TESTS.items():
        assert VALIDATION[test_id].severity is severity and f"level {level}, {test_class}" in VALIDATION[test_id].meaning
    # The one id that is also ours is ours (a problem both find keeps annoscore's code).
    assert set(TESTS) & set(CODES) == {"multiple-roots"} and ALL["multiple-roots"] is CODES["multiple-roots"]
    assert set(ALL) == set(CODES) | set(TESTS)


def test_the_validation_guide_lists_every_test_id_with_its_level_class_and_severity():
    text = (ROOT / "docs" / "guide" / "validation.md").read_text(encoding="utf-8")
    section = text[text.index("## Test ids"):]
    listed: dict[str, tuple[int, str, str]] = {}
    for row in section.split("\n"):
        if row.startswith("| ") and row[2:3].isdigit():
            level, test_class, severity, ids = (cell.strip() for cell in row.strip("|").split("|"))
            for test_id in re.findall(r"`([a-z0-9-]+)`", ids):
                assert test_id not in listed, test_id
                listed[test_id] = (int(level), test_class, severity)
    expected = {t: (level, c, s.label) for t, (level, c, s) in TESTS.items()}
    assert listed == expected, (sorted(set(expected) - set(listed)), sorted(set(listed) - set(expected)),
                                sorted(t for t in listed if t in expected and listed[t] != expected[t]))


def test_the_twins_pair_registered_codes_with_test_ids():
    """A validator finding that is one of annoscore's problems keeps
    annoscore's code: both names of each pair must be registered."""
    from annoscore.server.engine.conllu.twins import SAME_DOCUMENT, SAME_LINE, SAME_SENTENCE
    for table in (SAME_LINE, SAME_SENTENCE, SAME_DOCUMENT):
        for code, test_ids in table.items():
            assert code in CODES, code
            assert set(test_ids) <= set(TESTS), (code, test_ids)
