"""The pre-commit hook (.pre-commit-hooks.yaml), tried as a user would:
``pre-commit try-repo`` of this repository on a small git repository with a
broken CoNLL-U file, a clean one and files the hook must not look at.

pre-commit builds the hook's environment itself (``language: python``: a
virtualenv and ``pip install .`` of this repository), so this needs PyPI
(or pip's cache) and takes a minute; the environment goes to a temporary
PRE_COMMIT_HOME, used by both runs (``--ref HEAD``: the committed hook).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BROKEN = ("# sent_id = 1\n# text = It sat\n"
          "1\tIt\tit\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n"
          "2\tsat\tsit\tVERB\tVBD\t_\t2\troot\t_\t_\n\n")  # word 2 is its own head: no root, a cycle
CLEAN = BROKEN.replace("\t2\troot\t", "\t0\troot\t")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"})


def try_repo(repo: Path, home: Path, *files: str) -> subprocess.CompletedProcess:
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("needs pre-commit (the test extras)")
    return subprocess.run([pre_commit, "try-repo", str(ROOT), "annoscore-check", "--ref", "HEAD", "--verbose",
                           "--files", *files], cwd=repo, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"})


def test_the_hook_blocks_a_broken_file_and_passes_a_clean_one(tmp_path):
    if not (ROOT / ".git").exists():
        pytest.skip("needs this repository's git history (try-repo clones it)")
    repo, home = tmp_path / "treebank", tmp_path / "pre-commit-home"
    repo.mkdir()
    (repo / "broken.conllu").write_text(BROKEN, encoding="utf-8")
    (repo / "clean.conllu").write_text(CLEAN, encoding="utf-8")
    (repo / "notes.md").write_text("not CoNLL-U\n", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    result = try_repo(repo, home, "broken.conllu", "clean.conllu", "notes.md")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "annoscore check" in out and "Failed" in out
    assert "broken.conllu:4:22: error cycle word 2 is its own head" in out
    assert "broken.conllu:3:1: error no-root" in out
    assert "clean.conllu: no gold" in out and "clean.conllu:" not in out.replace("clean.conllu: no gold", "")
    assert "notes.md" not in out  # not a file the hook looks at
    # The clean file alone passes (the environment built above is reused).
    result = try_repo(repo, home, "clean.conllu")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout
