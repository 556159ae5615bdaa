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
well under a second), which ``scripts/test`` runs before pytest; the test
never installs: it asks the script (``--check``) and skips, saying why, when
something is missing.  ANNOSCORE_E2E_CACHE moves the cache.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from annoscore.server.engine.conllu.unparsed_fold import FOLDED_IDS
from tests.support.vsix import ANNOSCORE, CHROMIUM, WAIT_MS, CodeServer, vscode_page

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
SETUP = ROOT / "scripts" / "e2e-vscode-setup"


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
    # held.conllu is paired with held.gold.conllu, which the project declares
    # a test split: no live score against it (issue 16).
    (folder / "held.gold.conllu").write_text(gold, encoding="utf-8")
    (folder / "held.conllu").write_text(pred, encoding="utf-8")
    (folder / "annoscore.toml").write_text('[splits]\ntest = ["held.gold.conllu"]\n', encoding="utf-8")
    return folder / "pred.conllu", pred


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle)


# --- tools -------------------------------------------------------------------------

@pytest.fixture(scope="session")
def tools() -> dict[str, str]:
    """Node 24 and code-server from the cache, installed before pytest by
    scripts/test (scripts/e2e-vscode-setup); the test only looks (--check)."""
    if not SETUP.exists():
        pytest.fail(f"{SETUP} is missing")
    done = subprocess.run(["bash", str(SETUP), "--check"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.skip("code-server or Chromium is not installed (scripts/test installs them before pytest, "
                    "or run bash scripts/e2e-vscode-setup): " + " / ".join(done.stderr.strip().splitlines()[-3:]))
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} after scripts/e2e-vscode-setup")
    return found


@pytest.fixture(scope="session")
def vsix(request, tmp_path_factory, tools) -> Path:
    """The .vsix built from this checkout, as a user builds it (README): once
    for every real-VS-Code module and worker, kept by its source's digest in
    pytest's cache folder (tests/support/vsix.py)."""
    from tests.support.vsix import built

    cache = getattr(request.config, "cache", None)
    return built(cache.mkdir("annoscore-vsix") if cache is not None else tmp_path_factory.mktemp("vsix"))


def expected_from_check(pred: Path) -> tuple[str, int]:
    """The status bar text and the Problems count the editor should show, from
    `annoscore check --json` (run in the workspace, which holds annoscore.toml)."""
    done = subprocess.run([str(ANNOSCORE), "check", pred.name, "--json"], capture_output=True, text=True, timeout=120,
                          cwd=pred.parent)
    report = json.loads(done.stdout)["files"][0]
    score = report["score"]
    metrics, counts = score["metrics"], score["counts"]
    parts = [f"{counts['unparsed']} unparsed" if counts["unparsed"] else "",
             f"{counts['refused']} refused" if counts["refused"] else "",
             f"{counts['lowConfidence']} low-conf" if counts["lowConfidence"] else ""]
    if score.get("testSplit"):
        figures = score["message"]
    else:
        figures = f"LAS {100 * metrics['LAS']['f1']:.2f} UAS {100 * metrics['UAS']['f1']:.2f}"
    groups = [figures, ", ".join(p for p in parts if p)]
    progress = score.get("progress")
    if progress and progress["annotated"] < progress["sentences"]:
        groups.append(f"{progress['annotated']}/{progress['sentences']} annotated")
    # The editor folds the validator's findings on an unparsed sentence's
    # HEADs under its one diagnostic (server/engine/conllu/unparsed_fold.py).
    folded = unparsed_lines(pred.read_text(encoding="utf-8"))
    problems = sum(1 for d in report["diagnostics"] if d["severity"] != "hint"
                   and not (d.get("test_id") in FOLDED_IDS and d["line"] - 1 in folded))
    return " | ".join(g for g in groups if g), problems


def unparsed_lines(text: str) -> set[int]:
    """The lines (0-based) of the sentences whose every HEAD is _."""
    out: set[int] = set()
    line = 0
    for block in text.split("\n\n"):
        rows = block.split("\n")
        words = [r.split("\t") for r in rows if r.count("\t") == 9 and r.split("\t")[0].isdigit()]
        if words and all(w[6] == "_" for w in words):
            out.update(range(line, line + len(rows)))
        line += len(rows) + 1
    return out


def test_the_annotator_view_in_a_real_vscode(tmp_path, tools, vsix):
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    pred_path, pred = write_workspace(workspace)
    status_text, problems_count = expected_from_check(pred_path)
    held_text, _ = expected_from_check(workspace / "held.conllu")
    assert held_text.startswith("test split: run annoscore evaluate --final"), held_text
    # Scrollbars drawn as in a desktop browser (Playwright hides them by default); clipboard
    # permissions: "Copy SVG" goes through the browser's clipboard.
    with vscode_page(tmp_path, tools, vsix, workspace, (1600, 1000),
                     launch={"ignore_default_args": ["--hide-scrollbars"]},
                     context={"permissions": ["clipboard-read", "clipboard-write"]}) as session:
        page, shots = session.page, session.shots
        run_scenario(page, session.server, pred, status_text, problems_count, shots)
        switch_theme(page, "Dark Modern")
        run_dark_theme(page, pred, shots)
        run_test_split(page, held_text, shots)


def open_file(page, name: str) -> None:
    page.keyboard.press("Control+P")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(name)
    page.wait_for_selector(f".quick-input-list .monaco-list-row[aria-label*='{name}']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f".tabs-container .tab.active[aria-label*='{name}']")


def score_item(page) -> list[str]:
    return [line.strip() for line in page.locator(".statusbar").inner_text().splitlines() if "LAS" in line or "test split" in line]


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
    # The row of that command (the first row may be another that matches the words, as fuzzy as it is).
    page.locator(f".quick-input-list .monaco-list-row[aria-label*='{title}']").first.click()


def renders(tree_frame) -> int:
    return int(tree_frame.locator("body").get_attribute("data-renders"))


def run_scenario(page, server: CodeServer, pred: str, status_text: str, problems_count: int, shots: Path) -> None:
    page.set_default_timeout(WAIT_MS)
    page.goto(server.url)
    page.wait_for_selector(".monaco-workbench")
    page.wait_for_selector(".statusbar")
    open_file(page, "pred.conllu")
    page.wait_for_selector(".editor-instance .monaco-editor")

    # The status bar: the same score and counts as `annoscore check`.
    page.wait_for_function("() => /LAS \\d/.test(document.querySelector('.statusbar').innerText)")
    assert score_item(page) == [status_text]
    page.locator(".statusbar").screenshot(path=str(shots / "0-status-bar.png"))

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
    # The light theme: a light page, the forms, tags and arcs readable on it.
    colours = tree_colours(tree)
    assert "vscode-light" in colours["theme"] and luminance(colours["background"]) > 0.8, colours
    for part in ("form", "upos", "arc", "wrong"):
        assert contrast(colours[part], colours["background"]) >= 3, (part, colours)
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

    # "Copy SVG" puts the standalone SVG of s2 on the clipboard; "Save SVG…" writes it beside the file.
    tree.locator("#copy").click()
    page.wait_for_function("() => document.querySelector('.statusbar').innerText.includes('SVG is on the clipboard')")
    check_saved_svg(page.evaluate("() => navigator.clipboard.readText()"), "s2", 6)
    saved = Path(server.workspace) / "s2.svg"
    tree.locator("#save").click()
    dialog = page.locator(".quick-input-widget input")
    dialog.wait_for()
    page.wait_for_function("() => document.querySelector('.quick-input-widget input').value.endsWith('/workspace/s2.svg')",
                           timeout=10_000)
    page.screenshot(path=str(shots / "5-save-dialog.png"))
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.statusbar').innerText.includes('saved ')")
    check_saved_svg(saved.read_text(encoding="utf-8"), "s2", 6)

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

    # A scrollbar under the sentence says it goes on.
    assert tree.locator("#tree").evaluate("box => box.offsetHeight - box.clientHeight") >= 5


def check_saved_svg(text: str, sent_id: str, arcs: int) -> None:
    """A standalone SVG: well-formed XML, styled inside, a white ground, one arc per word."""
    from xml.etree import ElementTree

    root = ElementTree.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("aria-label") == f"Dependency tree of sentence {sent_id}"
    assert root.find(f"{ns}style") is not None
    assert root.find(f"{ns}rect").get("fill") == "#ffffff"
    assert len([g for g in root.iter(f"{ns}g") if "arc" in (g.get("class") or "").split()]) == arcs


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black … 1 white) of an "rgb(r, g, b)" / "rgba(…)" colour."""
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def tree_colours(tree) -> dict[str, str]:
    """The computed colours of the page's background, a word's form and a wrong arc."""
    return tree.locator("body").evaluate("""body => {
        const css = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
        return {background: css('body', 'backgroundColor'), form: css('g.word text.form', 'fill'),
                upos: css('g.word text.upos', 'fill'), arc: css('g.arc:not(.differs-head) .arc-line', 'stroke'),
                wrong: css('g.arc.differs-head .arc-line', 'stroke'), theme: body.className};
    }""")


def switch_theme(page, theme: str) -> None:
    """Picks a colour theme as a user does (Preferences: Color Theme)."""
    run_command(page, "Preferences: Color Theme")
    page.keyboard.type(theme)
    page.wait_for_selector(f".quick-input-list .monaco-list-row[aria-label*='{theme}']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.monaco-workbench').classList.contains('vs-dark')")


def run_dark_theme(page, pred: str, shots: Path) -> None:
    """The tree of s1 in the dark theme: the page follows the theme, and the text stays readable."""
    tree = page.frame_locator("iframe.webview").frame_locator("iframe#active-frame")
    tree.locator("body.vscode-dark").wait_for()
    goto_line(page, line_of(pred, "# sent_id = s1") + 1)
    tree.locator("svg.annoscore-tree[aria-label='Dependency tree of sentence s1']").wait_for()
    colours = tree_colours(tree)
    assert luminance(colours["background"]) < 0.1, colours
    for part in ("form", "upos", "arc", "wrong"):
        assert contrast(colours[part], colours["background"]) >= 3, (part, colours)
    assert colours["wrong"] != colours["arc"]
    page.screenshot(path=str(shots / "6-tree-s1-dark.png"))


def run_test_split(page, held_text: str, shots: Path) -> None:
    """A prediction whose gold is a declared test split: the status bar shows the server's message, no figures."""
    open_file(page, "held.conllu")
    page.wait_for_function("() => document.querySelector('.statusbar').innerText.includes('test split')")
    assert score_item(page) == [held_text]
    assert not re.search(r"LAS \d", page.locator(".statusbar").inner_text())
    page.locator(".statusbar").screenshot(path=str(shots / "7-status-bar-test-split.png"))
