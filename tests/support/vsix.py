"""The VS Code extension for the tests that need one: its .vsix built as a
user builds it (``vsce package``), and a real VS Code to run it in
(code-server + Chromium + Playwright, see tests/editors/test_vscode_e2e.py).

The build writes ``editors/vscode/dist``, so two pytest workers packaging at
once take turns (a file lock).  `vscode_page` is the one session set-up of
the real-VS-Code tests: code-server with the .vsix installed serving the
test's workspace, Chromium, a page on it, and a screenshot of what the page
showed when the test failed."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
ANNOSCORE = Path(sys.executable).parent / "annoscore"
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 60_000


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CodeServer:
    """code-server with the .vsix installed, serving `workspace` on a loopback port."""

    def __init__(self, tools: dict[str, str], vsix: Path, home: Path, workspace: Path) -> None:
        self.env = {**os.environ, "PATH": f"{Path(tools['NODE']).parent}:{os.environ.get('PATH', '')}"}
        self.binary = tools["CODE_SERVER"]
        self.extensions = home / "extensions"
        self.user_data = home / "user-data"
        self.workspace = workspace
        self.log_path = home / "code-server.log"
        (self.user_data / "User").mkdir(parents=True)
        (self.user_data / "User" / "settings.json").write_text(json.dumps({
            "security.workspace.trust.enabled": False,
            "workbench.startupEditor": "none",
            "chat.disableAIFeatures": True,
            "workbench.tips.enabled": False,
            "extensions.ignoreRecommendations": True,
            "telemetry.telemetryLevel": "off",
            "update.mode": "none",
            "workbench.secondarySideBar.defaultVisibility": "hidden",
            "annoscore.server.command": [str(ANNOSCORE), "lsp"],
        }), encoding="utf-8")
        installed = subprocess.run(
            [self.binary, "--install-extension", str(vsix), "--extensions-dir", str(self.extensions),
             "--user-data-dir", str(self.user_data)],
            env=self.env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert installed.returncode == 0 and "annoscore" in installed.stdout, installed.stdout + installed.stderr
        self.port = free_port()
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [self.binary, "--auth", "none", "--bind-addr", f"127.0.0.1:{self.port}", "--disable-telemetry",
             "--disable-update-check", "--user-data-dir", str(self.user_data), "--extensions-dir", str(self.extensions),
             str(workspace)],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"code-server exited: {self.log_path.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"code-server did not listen on {self.port}: {self.log_path.read_text()[-2000:]}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={self.workspace}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@dataclass
class VSCodeSession:
    """What a real-VS-Code test drives: the page, the code-server it shows, the screenshots' folder."""

    page: Any
    server: CodeServer
    shots: Path


@contextmanager
def vscode_page(tmp_path: Path, tools: dict[str, str], vsix: Path, workspace: Path,
                viewport: tuple[int, int] = (1400, 700), launch: dict[str, Any] | None = None,
                context: dict[str, Any] | None = None) -> Iterator[VSCodeSession]:
    """A page of a real VS Code on ``workspace``: code-server with ``vsix``
    installed (its home in ``tmp_path / "code-server"``), Chromium launched
    with ``launch`` (beyond the executable and ``--no-sandbox``), a browser
    context of ``viewport`` with ``context``'s options.  When the body
    fails, the page's screenshot goes to ``shots / "failure.png"``; the
    browser and code-server are stopped whatever happens, and the
    screenshots' folder (``tmp_path / "screenshots"``) is printed.  Skips
    when Playwright (the test extra) is not installed."""
    playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra) is not installed")
    shots = tmp_path / "screenshots"
    shots.mkdir()
    server = CodeServer(tools, vsix, tmp_path / "code-server", workspace)
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], **(launch or {}))
            try:
                page = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                           **(context or {})).new_page()
                try:
                    yield VSCodeSession(page, server, shots)
                except Exception:
                    page.screenshot(path=str(shots / "failure.png"))  # what the page showed when it failed
                    raise
            finally:
                browser.close()
    finally:
        server.stop()
        print(f"screenshots in {shots}")
