"""Building the VS Code extension's .vsix as a user does (``vsce package``),
for the tests that need one.  The build writes ``editors/vscode/dist``, so
two pytest workers packaging at once take turns (a file lock)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"


def package(out: Path) -> subprocess.CompletedProcess:
    """``vsce package --no-dependencies -o OUT`` (``npm ci`` first when the
    extension's node_modules are not there); returns the finished process."""
    if shutil.which("npm") is None:
        pytest.fail("npm is needed to build the extension")
    with open(EXTENSION / ".package.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (EXTENSION / "node_modules" / ".package-lock.json").exists():
            subprocess.run(["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
                           cwd=EXTENSION, check=True, timeout=900, stdin=subprocess.DEVNULL)
        return subprocess.run([str(EXTENSION / "node_modules" / ".bin" / "vsce"), "package", "--no-dependencies",
                               "-o", str(out)], cwd=EXTENSION, timeout=600, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
