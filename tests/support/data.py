"""The shared test data and the small helpers most tests use: where the
shared treebanks are (skipping with a clear reason when absent), writing a
file, CoNLL-U from spaced columns, the official scorer's raw counts (cached on
disk by ``oracle_cache``) and mkpred's predictions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared test data beside the checkout; "
                    "set ANNOSCORE_SHARED to point elsewhere)")
    return path


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
    from tests.support.oracle_cache import remembered

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
