"""Structural edits in a real VS Code (code-server + Chromium + Playwright, as
test_vscode_e2e), as an annotator makes them from the command palette: insert
a word (its FORM typed in the input box), reattach it with the "Attach to…"
quick pick, split and join a sentence, renumber after a line typed in by
hand (the quick fix on the ids-out-of-sequence error, then the command); each undone with one Ctrl+Z, which must give back the exact text before.
The text is read back from the file after Ctrl+S (VS Code's own buffer, as
saved).  One code-server session for all of it; screenshots go to the test's
temporary folder (the quick pick's is looked at by whoever changes it)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.editors.test_vscode_agreement_e2e import open_file
from tests.editors.test_vscode_e2e import goto_line, run_command, tools, vsix  # noqa: F401
from tests.support.vsix import WAIT_MS, vscode_page


def _w(*cells: str) -> str:
    return "\t".join(cells)


TEXT = "\n".join([
    "# sent_id = a", "# text = Ali demir aldı",
    _w("1", "Ali", "Ali", "PROPN", "_", "_", "3", "nsubj", "_", "_"),
    _w("2", "demir", "demir", "NOUN", "_", "_", "3", "obj", "_", "_"),
    _w("3", "aldı", "al", "VERB", "_", "_", "0", "root", "_", "_"),
    "",
    "# sent_id = b", "# text = Bu iyi",
    _w("1", "Bu", "bu", "PRON", "_", "_", "2", "nsubj", "_", "_"),
    _w("2", "iyi", "iyi", "ADJ", "_", "_", "0", "root", "_", "_"),
    "", ""])

# No completion popups: a Tab or Enter typed by the test must not accept a suggestion.
WORKSPACE_SETTINGS = ('{"editor.quickSuggestions": {"other": false, "comments": false, "strings": false},'
                      ' "editor.suggestOnTriggerCharacters": false, "editor.wordBasedSuggestions": "off",'
                      ' "editor.acceptSuggestionOnEnter": "off", "editor.tabCompletion": "off",'
                      ' "files.autoSave": "off"}')


def saved_text(page, path: Path, until, what: str, timeout: float = 30.0) -> str:
    """Ctrl+S until the file's text satisfies ``until`` (the edit is applied
    asynchronously); the last text read, for the assertion that follows."""
    deadline = time.monotonic() + timeout
    text = path.read_text(encoding="utf-8")
    while time.monotonic() < deadline:
        page.keyboard.press("Control+S")
        time.sleep(0.25)
        text = path.read_text(encoding="utf-8")
        if until(text):
            return text
    raise AssertionError(f"{what}: the file never got there; it reads\n{text}")


def changed(page, path: Path, before: str, what: str) -> str:
    return saved_text(page, path, lambda t: t != before, what)


def undo_to(page, path: Path, expected: str, what: str) -> None:
    """One Ctrl+Z gives back exactly ``expected``."""
    page.keyboard.press("Control+Z")
    text = saved_text(page, path, lambda t: t == expected, f"one Ctrl+Z after {what}")
    assert text == expected


def wait_for_input(page, words: str) -> None:
    page.wait_for_function("(w) => { const q = document.querySelector('.quick-input-widget');"
                           " return q !== null && q.style.display !== 'none' && q.innerText.includes(w); }",
                           arg=words, timeout=WAIT_MS)


def test_structural_edits_in_a_real_vscode(tmp_path, tools, vsix):  # noqa: F811
    workspace = tmp_path / "workspace"
    (workspace / "a").mkdir(parents=True)
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(WORKSPACE_SETTINGS, encoding="utf-8")
    path = workspace / "a" / "t.conllu"
    path.write_text(TEXT, encoding="utf-8")
    with vscode_page(tmp_path, tools, vsix, workspace, (1400, 700)) as session:
        session.page.set_default_timeout(WAIT_MS)
        run_steps(session.page, session.server.url, path, session.shots)


def run_steps(page, url: str, path: Path, shots: Path) -> None:
    page.goto(url)
    page.wait_for_selector(".monaco-workbench", timeout=WAIT_MS)
    open_file(page, "a/t.conllu")
    # The server holds the document once its inlay hints (head words) are drawn.
    page.wait_for_function("() => [...document.querySelectorAll('.view-lines span[class*=dyn-rule]')]"
                           ".some(e => e.textContent.includes('▸'))", timeout=WAIT_MS)
    page.locator(".monaco-editor .view-lines").first.click()
    t0 = TEXT

    # 1. Insert a word after "demir" (line 4): the FORM typed in the input box.
    goto_line(page, 4)
    run_command(page, "annoscore: Insert word after")
    wait_for_input(page, "FORM of the new word")
    page.keyboard.type("büyük")
    page.keyboard.press("Enter")
    t1 = changed(page, path, t0, "insert")
    lines = t1.split("\n")
    assert lines[1] == "# text = Ali demir büyük aldı"
    assert lines[2:6] == [_w("1", "Ali", "Ali", "PROPN", "_", "_", "4", "nsubj", "_", "_"),
                          _w("2", "demir", "demir", "NOUN", "_", "_", "4", "obj", "_", "_"),
                          _w("3", "büyük", "_", "_", "_", "_", "_", "_", "_", "_"),
                          _w("4", "aldı", "al", "VERB", "_", "_", "0", "root", "_", "_")]
    assert t1.split("\n\n", 1)[1] == t0.split("\n\n", 1)[1], "the next sentence is untouched"

    # 2. Attach it to "demir" with the quick pick, DEPREL amod.
    goto_line(page, 5)
    run_command(page, "annoscore: Attach to…")
    row = page.locator(".quick-input-list .monaco-list-row[aria-label*='2 demir (NOUN)']").first
    row.wait_for(timeout=WAIT_MS)
    labels = page.locator(".quick-input-list .monaco-list-row").all_inner_texts()
    page.wait_for_timeout(400)  # the widget fades in: a screenshot at once shows it half transparent
    page.screenshot(path=str(shots / "1-attach-quick-pick.png"))
    assert [label.split("\n")[0] for label in labels] == ["0 root", "1 Ali (PROPN)", "2 demir (NOUN)", "4 aldı (VERB)"]
    page.keyboard.type("demir")
    page.keyboard.press("Enter")
    wait_for_input(page, "DEPREL")
    page.keyboard.type("amod")
    page.keyboard.press("Enter")
    t2 = changed(page, path, t1, "attach")
    assert t2 == t1.replace(_w("3", "büyük", "_", "_", "_", "_", "_", "_"), _w("3", "büyük", "_", "_", "_", "_", "2", "amod"))
    undo_to(page, path, t1, "attach")
    undo_to(page, path, t0, "insert")

    # 3. Split sentence b before "iyi" (line 10); a new sent_id, both parts whole sentences.
    goto_line(page, 10)
    run_command(page, "annoscore: Split sentence here")
    t3 = changed(page, path, t0, "split")
    blocks = [b for b in t3.split("\n\n") if b.strip()]
    assert len(blocks) == 3
    assert blocks[0] == t0.split("\n\n")[0]
    assert blocks[1].split("\n")[:3] == ["# sent_id = b", "# text = Bu", _w("1", "Bu", "bu", "PRON", "_", "_", "0", "root", "_", "_")]
    assert blocks[2].split("\n") == ["# sent_id = b-2", "# text = iyi", _w("1", "iyi", "iyi", "ADJ", "_", "_", "0", "root", "_", "_")]
    undo_to(page, path, t0, "split")

    # 4. Join sentence a with b (cursor on "Ali", line 3).
    goto_line(page, 3)
    run_command(page, "annoscore: Join with next sentence")
    t4 = changed(page, path, t0, "join")
    assert "# sent_id = b" not in t4 and t4.count("\n\n") == 1
    words = [line.split("\t") for line in t4.split("\n") if line[:1].isdigit()]
    assert [(w[0], w[1], w[6], w[7]) for w in words] == [
        ("1", "Ali", "3", "nsubj"), ("2", "demir", "3", "obj"), ("3", "aldı", "0", "root"),
        ("4", "Bu", "5", "nsubj"), ("5", "iyi", "3", "parataxis")]
    undo_to(page, path, t0, "join")

    # 5. A word typed in by hand before "demir" (a new line 4, IDs left as they were),
    #    then "Renumber sentence": each word keeps the head it pointed to.
    goto_line(page, 3)
    page.keyboard.press("End")
    page.keyboard.insert_text("\n" + _w("2", "yeni", "yeni", "ADJ", "_", "_", "3", "amod", "_", "_"))
    t5 = changed(page, path, t0, "the hand insertion")
    assert t5.split("\n")[3] == _w("2", "yeni", "yeni", "ADJ", "_", "_", "3", "amod", "_", "_")
    # The quick fix on the ids-out-of-sequence error (on "demir", line 5), once the server has published it.
    goto_line(page, 5)
    fix = page.locator(".action-widget .monaco-list-row[aria-label*='Renumber this sentence']").first
    for _ in range(20):
        page.keyboard.press("Control+.")
        try:
            fix.wait_for(timeout=2000)
            break
        except playwright_error():
            page.keyboard.press("Escape")
    page.screenshot(path=str(shots / "2-renumber-quick-fix.png"))
    fix.click()
    t6 = changed(page, path, t5, "renumber (quick fix)")
    assert t6.split("\n")[2:7] == [_w("1", "Ali", "Ali", "PROPN", "_", "_", "4", "nsubj", "_", "_"),
                                   _w("2", "yeni", "yeni", "ADJ", "_", "_", "4", "amod", "_", "_"),
                                   _w("3", "demir", "demir", "NOUN", "_", "_", "4", "obj", "_", "_"),
                                   _w("4", "aldı", "al", "VERB", "_", "_", "0", "root", "_", "_"),
                                   ""]
    undo_to(page, path, t5, "renumber (quick fix)")
    # The same from the command palette.
    goto_line(page, 5)
    run_command(page, "annoscore: Renumber sentence")
    assert changed(page, path, t5, "renumber (command)") == t6
    page.screenshot(path=str(shots / "3-renumbered.png"))
    undo_to(page, path, t5, "renumber (command)")


def playwright_error() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout
