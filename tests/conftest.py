"""Shared test helpers.

Tests that need the material in ``../shared`` (real treebanks, system
outputs, litsea files, mkpred.py) use the ``shared`` fixture, which skips
them with a clear reason when that folder is absent (a user's fresh clone).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# The test tiers (CONTRIBUTING.md): `scripts/test --fast` runs the unit and
# guard tests only (`-m "not slow"`); these modules are the slow tier, each for
# one reason: the official tools on whole treebanks (oracle), a language server
# process on the wire, a real editor, a build or an install.
SLOW_MODULES = (
    "tests/editors/*",                                              # real Neovim, real VS Code
    "tests/server/test_lsp*.py",                                    # the server on the wire
    "tests/scorer/test_*parity*.py", "tests/server/test_check_validation.py",  # oracles on treebanks
    "tests/server/test_release.py", "tests/server/test_no_compiler.py",        # builds and installs
    "tests/server/test_pre_commit_hook.py",
    "tests/server/test_fuzz_check.py",                              # the fuzz campaign, in small
)

# The cache of large documents' validation is off in the tests: a test of the helpers or of
# the validator must validate, not find last run's result.  The cache's own
# tests (tests/server/test_validation_cache.py) turn it on in a folder of theirs.
os.environ["ANNOSCORE_NO_CACHE"] = "1"

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared test data beside the checkout; "
                    "set ANNOSCORE_SHARED to point elsewhere)")
    return path


def pytest_configure(config):
    # The official tools' results, shared by the workers and kept between
    # runs (tests/oracle_cache.py); without the cache plugin, per process.
    import oracle_cache

    cache = getattr(config, "cache", None)
    oracle_cache.configure(cache.mkdir("annoscore-oracle") if cache is not None else None)


def pytest_collection_modifyitems(config, items):
    slow = pytest.mark.slow
    for item in items:
        where = Path(str(item.path)).relative_to(ROOT)
        if any(where.match(pattern) for pattern in SLOW_MODULES):
            item.add_marker(slow)


@pytest.fixture
def shared():
    return shared_path


def read_file(path):
    """A whole CoNLL-U file read into sentences (the file reader's problems too)."""
    from annoscore.scorer.conllu.reader import ConlluDocument, ConlluFileReader
    reader = ConlluFileReader(path)
    sentences = list(reader)
    return ConlluDocument(sentences, reader.problems)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def conllu(*sentences: str) -> str:
    """CoNLL-U text from sentences written with spaces between columns
    (``1 The the DET _ _ 2 det _ _``); comment lines pass through."""
    out = []
    for sentence in sentences:
        for line in sentence.strip("\n").split("\n"):
            line = line.strip()
            if line and not line.startswith("#"):
                parts = line.split()
                assert len(parts) == 10, line
                line = "\t".join(parts)
            out.append(line)
        out.append("")
    return "\n".join(out) + "\n"


def official_counts(gold: Path, system: Path) -> dict[str, tuple]:
    """Raw counts from udtools' copy of conll18_ud_eval.py (the test oracle),
    remembered on disk by both files' bytes and udtools' code (oracle_cache)."""
    from oracle_cache import remembered

    def run() -> dict[str, list]:
        from udtools import udeval

        g = udeval.load_conllu_file(str(gold))
        s = udeval.load_conllu_file(str(system))
        result = udeval.evaluate(g, s)
        return {name: [m.correct, m.gold_total, m.system_total, m.aligned_total] for name, m in result.items()}

    stored = remembered("udeval", [gold, system], [], run)
    return {name: tuple(counts) for name, counts in stored.items()}


def mkpred(gold: Path, out: Path, seed: int, *options: str) -> Path:
    tool = shared_path("tools", "mkpred.py")
    subprocess.run([sys.executable, str(tool), str(gold), str(out), "--seed", str(seed), *options],
                   check=True, capture_output=True)
    return out
