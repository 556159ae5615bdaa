"""docs/ci.md's examples, run: every ``$ command`` of its console blocks in
a folder holding the files the page writes (``<!-- file: NAME -->`` before
a block), its output (stdout and stderr as a terminal shows them) equal to
the page's; the page's two spellings of a project file give the same
settings; its SARIF excerpt is what the SARIF log holds."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ci.md"
SHOWN_FOLDER = "/home/me/treebank"  # the folder the page's absolute paths name


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(comment before it, language, body) of every fenced block."""
    pattern = re.compile(r"(?:<!-- (.*?) -->\n)?```(\w*)\n(.*?)```", re.S)
    return [(m.group(1) or "", m.group(2), m.group(3)) for m in pattern.finditer(text)]


def test_every_command_of_the_page_prints_what_the_page_shows(tmp_path):
    pytest.importorskip("udtools", reason="the page's examples validate at level 5 with udtools' data (test extras)")
    folder = tmp_path / "treebank"
    folder.mkdir()
    page = blocks(PAGE.read_text(encoding="utf-8"))
    written = [m.group(1) for comment, _, body in page if (m := re.fullmatch(r"file: (\S+)", comment))
               for _ in [(folder / m.group(1)).write_text(body, encoding="utf-8")]]
    assert written == ["dev.conllu", "pyproject.toml"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("CI_PROJECT_DIR", None)
    ran = 0
    for _, language, body in page:
        if language != "console":
            continue
        status = 0
        for command, expected in re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n)*)", body, re.M):
            if command == "echo $?":
                actual = f"{status}\n"
            else:
                result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, timeout=300)
                status, actual = result.returncode, result.stdout.replace(str(folder), SHOWN_FOLDER)
            assert actual == expected, f"$ {command}"
            ran += 1
    assert ran >= 14
    # The SARIF excerpt is one result of the log the page writes.
    log = json.loads((folder / "annoscore.sarif").read_text(encoding="utf-8"))
    excerpt = next(json.loads(body) for _, language, body in page if language == "json")
    assert excerpt in log["runs"][0]["results"]


def test_the_two_spellings_of_the_project_file_are_the_same_settings(tmp_path):
    from annoscore.server.config import load_project

    text = PAGE.read_text(encoding="utf-8")
    settings = text[text.index("## Settings"):]
    own, pyproject = [body for _, language, body in blocks(settings) if language == "toml"]
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    (tmp_path / "a" / "annoscore.toml").write_text(own, encoding="utf-8")
    (tmp_path / "b" / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    a, b = load_project(tmp_path / "a"), load_project(tmp_path / "b")
    assert a == b and a[1] == [] and a[0].pairs and a[0].validation.exclude == ("misc-attr-typo",)
