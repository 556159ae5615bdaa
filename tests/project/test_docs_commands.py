"""Every ``annoscore …`` command the README and docs/*.md show, run: a
wrong example (a usage error, a traceback, a file that is not shipped)
fails here rather than for a reader.

Commands are the ``$ `` lines of untagged and ``console`` blocks and the
lines starting with ``annoscore`` of ``sh`` blocks.  Each runs in process
(`server.cli.main`) in a fresh folder holding the bundled demo files
(``sample.conllu``, ``sample.gold.conllu``, from server/demo) and the files
the page writes (``<!-- file: NAME -->`` before a block, as docs/ci.md
has).  Expected: exit 0 or 1 (a check with findings), or the status a
following ``$ echo $?`` shows; every file-like argument present.

An HTML comment right before a block marks it (invisible on the page):

- ``<!-- docs-test: skip REASON -->``: not run (placeholder names such as
  ``pred/ gold/``, a command that runs until stopped); reported as a skip.
- ``<!-- docs-test: needs PATH -->``: needs PATH of the shared data
  (``../shared``, or ANNOSCORE_SHARED): run in a folder beside which
  ``../shared`` is that data, skipped with that reason when it is absent.
- ``<!-- docs-test: mkdir NAME -->``: an empty folder NAME is made first.
- ``<!-- docs-test: output -->``: besides the status, every line the block
  shows under a command (``...`` elides lines) is printed, in that order.

docs/ci.md is left to tests/project/test_ci_docs.py, which compares each
command's whole output.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from annoscore.server.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "server" / "demo"
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "ci.md")]
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))
# The demo files, and under the names the pages' generic examples use.
DEMO_FILES = {"sample.conllu": "sample.conllu", "sample.gold.conllu": "sample.gold.conllu",
              "pred.conllu": "sample.conllu", "gold.conllu": "sample.gold.conllu",
              "a.conllu": "sample.conllu", "b.conllu": "sample.gold.conllu",
              "A.conllu": "sample.conllu", "B.conllu": "sample.gold.conllu"}
# Commands that serve until stopped: shown, never run.
LONG_RUNNING = {"lsp", "watch"}
FILE_LIKE = re.compile(r"[^=*?]*(\.(conllu|conll|txt|tsv|csv|json|gz)|/)$")
FENCE = re.compile(r"( *)```(\w*)\s*")


@dataclass
class Command:
    page: str
    line: int
    text: str
    expected: set[int] = field(default_factory=lambda: {0, 1})
    shown: list[str] = field(default_factory=list)
    marks: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: $ {self.text}"


def _marks(comments: str) -> dict[str, str]:
    found = {}
    for comment in re.findall(r"<!-- (.*?) -->", comments):
        if m := re.fullmatch(r"docs-test: (\w+)\s*(.*)", comment):
            found[m.group(1)] = m.group(2)
    return found


def blocks(text: str) -> list[tuple[str, str, str, int]]:
    """(the comments right before it, language, body, first line) of each
    fenced block, indented ones (in lists) too."""
    lines = text.split("\n")
    found, i = [], 0
    while i < len(lines):
        m = FENCE.fullmatch(lines[i])
        if not m:
            i += 1
            continue
        indent, language, start = m.group(1), m.group(2), i + 1
        comments = []
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("<!--"):
            comments.insert(0, lines[j].strip())
            j -= 1
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            i += 1
        body = "".join(line[len(indent):] + "\n" for line in lines[start:i])
        found.append(("\n".join(comments), language, body, start + 1))
        i += 1
    return found


def commands() -> list[Command]:
    found: list[Command] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        files: dict[str, str] = {}
        for comments, language, body, start in blocks(text):
            if f := re.search(r"<!-- file: (\S+) -->", comments):
                files[f.group(1)] = body
                continue
            marks = _marks(comments)
            lines = body.splitlines()
            if language in ("sh", "bash", "shell"):
                found += [Command(str(page.relative_to(ROOT)), start + i, line.strip(), marks=marks, files=dict(files))
                          for i, line in enumerate(lines) if _is_annoscore(line.strip())]
            elif language in ("", "console"):
                last: Command | None = None
                for i, line in enumerate(lines):
                    if line.startswith("$ "):
                        if line == "$ echo $?" and last is not None and i + 1 < len(lines):
                            last.expected = {int(lines[i + 1])}
                            last = None
                        elif _is_annoscore(line[2:]):
                            last = Command(str(page.relative_to(ROOT)), start + i, line[2:], marks=marks, files=dict(files))
                            found.append(last)
                        else:
                            last = None
                    elif last is not None:
                        last.shown.append(line)
    return found


def _is_annoscore(line: str) -> bool:
    words = line.split()
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        words = words[1:]
    return bool(words) and words[0] == "annoscore"


ALL = commands()


def test_the_pages_show_commands_to_run() -> None:
    # The parser finds the pages' commands (a change of markup must not make this test vacuous).
    assert len(ALL) >= 60
    assert any(c.text.startswith("annoscore check --lang en --ignore") for c in ALL)


@pytest.mark.parametrize("command", ALL, ids=str)
def test_shown_command_runs(command: Command, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    if "skip" in command.marks:
        pytest.skip(f"{command}: marked docs-test: skip {command.marks['skip']}")
    words = shlex.split(command.text, comments=True)
    while re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        name, value = words.pop(0).split("=", 1)
        monkeypatch.setenv(name, value)
    argv, redirect = words[1:], None
    if ">" in argv:
        argv, redirect = argv[:argv.index(">")], argv[argv.index(">") + 1]
    if argv and argv[0] in LONG_RUNNING:
        pytest.skip(f"{command}: `annoscore {argv[0]}` runs until stopped")
    work = tmp_path / "work"
    work.mkdir()
    if "needs" in command.marks:
        need = SHARED / command.marks["needs"]
        if not need.exists():
            pytest.skip(f"{command}: needs the shared data {need} (absent; set ANNOSCORE_SHARED)")
        (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    for name, demo in DEMO_FILES.items():
        shutil.copy(DEMO / demo, work / name)
    for name, body in command.files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(body, encoding="utf-8")
    if "mkdir" in command.marks:
        (work / command.marks["mkdir"]).mkdir()
    monkeypatch.chdir(work)
    missing = [w for w in argv if not w.startswith("-") and FILE_LIKE.fullmatch(w) and not os.path.exists(w)
               and w != redirect]
    assert not missing, f"{command}: names {missing}, which the demo files do not hold (mark the block)"
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse: a usage error
        status = stop.code if isinstance(stop.code, int) else 2
    out = capsys.readouterr()
    if redirect:
        Path(redirect).write_text(out.out, encoding="utf-8")
    assert status in command.expected, f"{command}: exit {status}\n{out.err[-2000:]}"
    assert "no such file" not in out.err, f"{command}: names a file the demo files do not hold (mark the block)"
    if "output" in command.marks:
        printed = (out.out + out.err).splitlines()
        at = 0
        for shown in (s for s in command.shown if s != "..."):
            assert shown in printed[at:], f"{command}: does not print {shown!r}\n{out.out}{out.err}"
            at = printed.index(shown, at) + 1
