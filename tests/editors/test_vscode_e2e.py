"""The VS Code extension in a real VS Code: code-server + Chromium + Playwright.

VS Code's desktop build cannot be downloaded here; code-server is the same
workbench served to a browser, with a real extension host in Node.  The test
builds the .vsix from this checkout (``vsce package``), installs it into a
fresh extensions folder, starts code-server on a free loopback port with the
server command pointing at this Python environment's ``annoscore lsp``, and
drives Debian's Chromium with Playwright as an annotator would: open a
prediction that has gold beside it, read the status bar and the Problems
panel, run "annoscore: Show Tree", look into the webview's SVG, move the
cursor, click a word.  Screenshots go to the test's temporary folder.

What it expects comes from elsewhere, never from the extension: the score
and the diagnostics from ``annoscore check --json`` on the same files (the
Problems panel lists what is not a hint), the arcs from the files' own HEADs.

Why pytest with Python Playwright rather than a node test: the test needs
this Python environment (the server, ``annoscore check`` as the oracle), the
``tmp_path`` and skip machinery the other real-editor tests use
(tests/editors/test_nvim.py), and it runs in the same ``pytest`` step of
``bash scripts/test``; Playwright for Python drives a browser it did not
download (``executable_path``), as Debian's Chromium must be.

code-server, its Node 24 and Chromium are installed once into a cache outside
the repository by ``scripts/e2e-vscode-setup`` (idempotent; a warm run takes
well under a second); the test runs it and skips, saying why, only when that
install fails.  ANNOSCORE_E2E_CACHE moves the cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
SETUP = ROOT / "scripts" / "e2e-vscode-setup"
ANNOSCORE = Path(sys.executable).parent / "annoscore"
CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 60_000


# --- the files an annotator opens ------------------------------------------------

def _row(i: int, form: str, upos: str, head: int | str, deprel: str, misc: str = "_") -> list[str]:
    return [str(i), form, form.lower(), upos, "_", "_", str(head), deprel, "_", misc]


def _block(sent_id: str, rows: list[list[str]]) -> str:
    text = " ".join(r[1] for r in rows)
    return "\n".join([f"# sent_id = {sent_id}", f"# text = {text}", *("\t".join(r) for r in rows)]) + "\n\n"


# s1: UD's non-projective example (gold's nmod issue ← hearing crosses the
# root's arcs); the prediction attaches "issue" and "today" wrongly, "today"
# to "hearing" over "is" (a non-projective arc of the prediction).  s2: Hebrew,
# one relation wrong, one word of low confidence.  s3: not parsed.  s4: a cycle.
GOLD_SENTENCES = {
    "s1": [_row(1, "A", "DET", 2, "det"), _row(2, "hearing", "NOUN", 4, "nsubj:pass"), _row(3, "is", "AUX", 4, "aux:pass"),
           _row(4, "scheduled", "VERB", 0, "root"), _row(5, "on", "ADP", 7, "case"), _row(6, "the", "DET", 7, "det"),
           _row(7, "issue", "NOUN", 2, "nmod"), _row(8, "today", "NOUN", 4, "obl:tmod"), _row(9, ".", "PUNCT", 4, "punct")],
    "s2": [_row(1, "הילד", "NOUN", 2, "nsubj"), _row(2, "אכל", "VERB", 0, "root"), _row(3, "את", "ADP", 5, "case"),
           _row(4, "ה", "DET", 5, "det"), _row(5, "תפוח", "NOUN", 2, "obj"), _row(6, ".", "PUNCT", 2, "punct")],
    "s3": [_row(1, "Hello", "INTJ", 0, "root"), _row(2, "world", "NOUN", 1, "vocative")],
    "s4": [_row(1, "Trees", "NOUN", 2, "nsubj"), _row(2, "grow", "VERB", 0, "root"), _row(3, "slowly", "ADV", 2, "advmod")],
    # s5: 60 words (each on the next, the last the root), wider than the view.
    "s5": [_row(i, f"word{i}", "X", i + 1 if i < 60 else 0, "dep" if i < 60 else "root") for i in range(1, 61)],
}


def _predicted() -> dict[str, list[list[str]]]:
    pred = {sid: [list(r) for r in rows] for sid, rows in GOLD_SENTENCES.items()}
    pred["s1"][6][6:8] = ["4", "obl"]          # issue: HEAD 4 (gold 2)
    pred["s1"][7][6] = "2"                     # today: HEAD 2 (gold 4), over "is"
    pred["s1"][1][9] = "Conf=HEAD:0.41"
    pred["s2"][2][7] = "mark"                  # את: the relation alone differs
    pred["s2"][2][9] = "Conf=0.55"
    for row in pred["s3"]:
        row[6:8] = ["_", "_"]
    pred["s4"][1][6:8] = ["3", "dep"]           # grow ↔ slowly: a cycle, no root
    return pred


def write_workspace(folder: Path) -> tuple[Path, str]:
    gold = "".join(_block(sid, rows) for sid, rows in GOLD_SENTENCES.items())
    pred = "".join(_block(sid, rows) for sid, rows in _predicted().items())
    (folder / "pred.gold.conllu").write_text(gold, encoding="utf-8")
    (folder / "pred.conllu").write_text(pred, encoding="utf-8")
    return folder / "pred.conllu", pred


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle)


# --- tools -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tools() -> dict[str, str]:
    """Node 24 and code-server from the cache (installed by the setup script once)."""
    if not SETUP.exists():
        pytest.fail(f"{SETUP} is missing")
    try:
        done = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True, timeout=3600, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.skip("installing code-server and Chromium took over an hour (scripts/e2e-vscode-setup)")
    if done.returncode != 0:
        pytest.skip("code-server or Chromium could not be installed (scripts/e2e-vscode-setup): "
                    + " / ".join(done.stderr.strip().splitlines()[-3:]))
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} after scripts/e2e-vscode-setup")
    return found


@pytest.fixture(scope="module")
def vsix(tmp_path_factory, tools) -> Path:
    """The .vsix built from this checkout, as a user builds it (README)."""
    if shutil.which("npm") is None:
        pytest.fail("npm is needed to build the extension")
    if not (EXTENSION / "node_modules" / ".package-lock.json").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=EXTENSION, check=True,
                       timeout=900, stdin=subprocess.DEVNULL)
    out = tmp_path_factory.mktemp("vsix") / "annoscore.vsix"
    subprocess.run([str(EXTENSION / "node_modules" / ".bin" / "vsce"), "package", "--no-dependencies", "-o", str(out)],
                   cwd=EXTENSION, check=True, timeout=600, capture_output=True, stdin=subprocess.DEVNULL)
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


def expected_from_check(pred: Path) -> tuple[str, int]:
    """The status bar text and the Problems count the editor should show, from `annoscore check --json`."""
    done = subprocess.run([str(ANNOSCORE), "check", str(pred), "--json"], capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)["files"][0]
    metrics, counts = report["score"]["metrics"], report["score"]["counts"]
    parts = [f"{counts['unparsed']} unparsed" if counts["unparsed"] else "",
             f"{counts['refused']} refused" if counts["refused"] else "",
             f"{counts['lowConfidence']} low-conf" if counts["lowConfidence"] else ""]
    text = f"LAS {100 * metrics['LAS']['f1']:.2f} UAS {100 * metrics['UAS']['f1']:.2f} | " + ", ".join(p for p in parts if p)
    problems = sum(1 for d in report["diagnostics"] if d["severity"] != "hint")
    return text, problems


def test_the_annotator_view_in_a_real_vscode(tmp_path, tools, vsix):
    playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra) is not installed")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    pred_path, pred = write_workspace(workspace)
    status_text, problems_count = expected_from_check(pred_path)
    shots = tmp_path / "screenshots"
    shots.mkdir()
    server = CodeServer(tools, vsix, tmp_path / "code-server", workspace)
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1600, "height": 1000})
                run_scenario(page, server, pred, status_text, problems_count, shots)
            finally:
                browser.close()
    finally:
        server.stop()
        print(f"screenshots in {shots}")


def goto_line(page, line: int) -> None:
    """Ctrl+G: the cursor to a line (1-based, as VS Code counts)."""
    page.keyboard.press("Control+G")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(str(line))
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.statusbar').innerText.includes('Ln {line},')")


def run_command(page, title: str) -> None:
    page.keyboard.press("Control+Shift+P")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(title)
    page.wait_for_selector(f".quick-input-list .monaco-list-row[aria-label*='{title}']")
    page.keyboard.press("Enter")


def renders(tree_frame) -> int:
    return int(tree_frame.locator("body").get_attribute("data-renders"))


def run_scenario(page, server: CodeServer, pred: str, status_text: str, problems_count: int, shots: Path) -> None:
    page.set_default_timeout(WAIT_MS)
    page.goto(server.url)
    page.wait_for_selector(".monaco-workbench")
    page.wait_for_selector(".statusbar")
    page.keyboard.press("Control+P")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type("pred.conllu")
    page.wait_for_selector(".quick-input-list .monaco-list-row")
    page.keyboard.press("Enter")
    page.wait_for_selector(".editor-instance .monaco-editor")

    # The status bar: the same score and counts as `annoscore check`.
    status = page.locator(".statusbar")
    page.wait_for_function("() => /LAS \\d/.test(document.querySelector('.statusbar').innerText)")
    score_item = [line.strip() for line in status.inner_text().splitlines() if "LAS" in line]
    assert score_item == [status_text]

    # The Problems panel lists the diagnostics that are not hints.
    page.keyboard.press("Control+Shift+M")
    badge = page.locator(".markers-panel .monaco-tl-row .monaco-count-badge").first
    badge.wait_for()
    page.wait_for_function(f"() => document.querySelector('.markers-panel .monaco-tl-row .monaco-count-badge').innerText.trim() === '{problems_count}'")
    page.screenshot(path=str(shots / "1-status-and-problems.png"))
    page.keyboard.press("Control+Shift+M")  # closes the panel again

    # The tree of s1, beside the editor.
    s1_word = line_of(pred, "2\thearing\thearing\tNOUN\t_\t_\t4\tnsubj:pass\t_\tConf=HEAD:0.41")
    goto_line(page, s1_word + 1)
    run_command(page, "annoscore: Show Tree")
    tree = page.frame_locator("iframe.webview").frame_locator("iframe#active-frame")
    svg = tree.locator("svg.annoscore-tree")
    svg.wait_for()
    assert svg.get_attribute("aria-label") == "Dependency tree of sentence s1"
    words = svg.locator("g.word")
    assert words.count() == 9
    assert svg.locator("g.arc").count() == 9, "one arc per word (the root's from the top)"
    assert svg.locator("g.arc.root-arc").count() == 1
    differing = sorted(svg.locator("g.arc.differs-head").evaluate_all("gs => gs.map(g => g.dataset.id)"))
    assert differing == ["7", "8"], "issue and today hang from other heads than gold's"
    assert sorted(svg.locator("g.gold-arc").evaluate_all("gs => gs.map(g => g.dataset.id)")) == ["7", "8"]
    assert svg.locator("g.arc.nonprojective").evaluate_all("gs => gs.map(g => g.dataset.id)") == ["8"]
    assert svg.locator("g.word.problem-warning").evaluate_all("gs => gs.map(g => g.dataset.id)") == ["2"]
    assert tree.locator("#summary").inner_text().startswith("s1 · 9 words · UAS 7/9 LAS 7/9")
    assert renders(tree) == 1
    assert svg.locator("g.word.cursor").get_attribute("data-line") == str(s1_word)
    page.screenshot(path=str(shots / "2-tree-s1.png"))

    # Moving within the sentence marks another word and draws nothing new.
    # (Show Tree keeps the focus in the editor.)
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    page.wait_for_function(f"() => document.querySelector('.statusbar').innerText.includes('Ln {s1_word + 4},')")
    tree.locator(f"g.word.cursor[data-line='{s1_word + 3}']").wait_for()
    page.wait_for_timeout(500)
    assert renders(tree) == 1

    # To another sentence: one render, right to left.
    s2_word = line_of(pred, "3\tאת\tאת\tADP\t_\t_\t5\tmark\t_\tConf=0.55")
    goto_line(page, s2_word + 1)
    page.wait_for_function("() => true")
    svg.and_(tree.locator("[aria-label='Dependency tree of sentence s2']")).wait_for()
    page.wait_for_timeout(500)
    assert renders(tree) == 2
    assert svg.get_attribute("data-direction") == "rtl"
    assert svg.locator("g.arc").count() == 6
    assert svg.locator("g.arc.differs-label").evaluate_all("gs => gs.map(g => g.dataset.id)") == ["3"]
    xs = svg.locator("g.word text.form").evaluate_all("ts => ts.map(t => t.getBBox().x)")
    assert xs == sorted(xs, reverse=True), "word 1 rightmost"
    page.screenshot(path=str(shots / "3-tree-s2-rtl.png"))

    # Clicking a word puts the editor's cursor on its line.
    target = svg.locator("g.word[data-id='5']")
    target_line = int(target.get_attribute("data-line"))
    target.click()
    page.wait_for_function(f"() => document.querySelector('.statusbar').innerText.includes('Ln {target_line + 1},')")
    page.screenshot(path=str(shots / "4-after-click.png"))

    # Hovering a word highlights its line in the editor (a whole-line decoration on that line), leaving clears it.
    decorated_lines = """() => {
        const tops = [...document.querySelectorAll('.view-overlays div[class*="ced-"]')].map(d => d.getBoundingClientRect().top);
        return [...document.querySelectorAll('.margin-view-overlays .line-numbers')]
            .filter(n => tops.some(top => Math.abs(n.getBoundingClientRect().top - top) < 2)).map(n => Number(n.innerText) - 1);
    }"""
    page.mouse.move(5, 500)
    page.wait_for_function(f"() => ({decorated_lines})().length === 0")
    hovered = svg.locator("g.word[data-id='1']")
    hovered_line = int(hovered.get_attribute("data-line"))
    hovered.hover()
    page.wait_for_function(f"() => JSON.stringify(({decorated_lines})()) === '[{hovered_line}]'")
    page.mouse.move(5, 500)
    page.wait_for_function(f"() => ({decorated_lines})().length === 0")

    # A 60-word sentence scrolls sideways, one arc per word.
    s5_line = line_of(pred, "# sent_id = s5")
    goto_line(page, s5_line + 1)
    svg.and_(tree.locator("[aria-label='Dependency tree of sentence s5']")).wait_for()
    assert svg.locator("g.arc").count() == 60
    assert tree.locator("#tree").evaluate("box => box.scrollWidth > box.clientWidth + 1000")
    page.screenshot(path=str(shots / "5-sixty-words.png"))
