"""Running ``annoscore``'s command line in the test's own process.

`run` calls the CLI's ``main`` as the shell would (every argument a string)
and returns its exit status with what it printed; ``capsys`` is the test's
pytest fixture, read (and so emptied) here.  The ``files`` fixture of
tests/server/cli/conftest.py writes a module's PRED and GOLD with it."""

from __future__ import annotations

from pathlib import Path

from annoscore.server.cli import main

from .data import write


def run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    """``annoscore ARGV...``: (exit status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def pred_and_gold(folder: Path, pred: str, gold: str) -> tuple[Path, Path]:
    """pred.conllu and gold.conllu in ``folder``."""
    return write(folder, "pred.conllu", pred), write(folder, "gold.conllu", gold)
