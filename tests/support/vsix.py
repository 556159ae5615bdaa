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


def source_digest() -> str:
    """The hash of every file of the extension's folder that git does not
    ignore (name and bytes): what ``vsce package`` builds from, with the lock
    file that fixes node_modules.  Any edit is a new digest, so a new build."""
    import hashlib

    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
                            cwd=EXTENSION, capture_output=True, timeout=60)
    if listed.returncode == 0:
        names = sorted(n.decode() for n in listed.stdout.split(b"\0") if n)
    else:  # not a git checkout: everything but what the build and npm write
        names = sorted(str(p.relative_to(EXTENSION)) for p in EXTENSION.rglob("*") if p.is_file()
                       and not {"node_modules", "dist", "out"} & set(p.relative_to(EXTENSION).parts)
                       and p.suffix != ".vsix")
    digest = hashlib.sha256()
    for name in names:
        path = EXTENSION / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def built(folder: Path) -> Path:
    """The .vsix of the extension as it is now, packaged once into ``folder``
    and kept under its source's digest: the real-VS-Code modules, and the
    pytest workers, share one build instead of packaging once each (30 s or
    more).  The packaging itself is tested by tests/editors/test_vscode_package.py."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"annoscore-{source_digest()[:16]}.vsix"
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists():
            partial = out.with_suffix(".partial.vsix")
            package(partial).check_returncode()
            partial.replace(out)
    return out
