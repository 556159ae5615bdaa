"""Agreement in a real VS Code (code-server + Chromium + Playwright, as
test_vscode_e2e): an annotator's file compared with a colleague's, declared
in annoscore.toml, and another compared from the editor with "Compare with
Another Annotation…".  The status bar, the Problems panel and the quick fix
are checked against ``annoscore agree --json`` on the same files, and
screenshots are taken (the test's temporary folder)."""

from __future__ import annotations

import json
import subprocess


from tests.editors.test_vscode_e2e import run_command, tools, vsix  # noqa: F401
from tests.support.vsix import ANNOSCORE, WAIT_MS, vscode_page

ANNOTATION = """# sent_id = s1
# text = The cat sat
1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_
2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_
3\tsat\tsit\tVERB\tVBD\t_\t0\troot\t_\t_

# sent_id = s2
# text = Dogs bark loudly
1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t_\t_
2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\t_
3\tloudly\tloudly\tADV\tRB\t_\t2\tadvmod\t_\t_

"""
BOB = ANNOTATION.replace("cat\tcat\tNOUN", "cat\tcat\tPROPN").replace("loudly\tloudly\tADV", "loudly\tloudly\tADJ")


def expected_status(workspace, mine: str, theirs: str) -> str:
    done = subprocess.run([str(ANNOSCORE), "agree", mine, theirs, "--json", "--samples", "0"], capture_output=True,
                          text=True, timeout=120, cwd=workspace)
    report = json.loads(done.stdout)
    las = report["attachment"][0]["LAS"]["f1"]
    kappa = {name: report["variables"][name]["cohen_kappa"] for name in ("UPOS", "DEPREL")}
    return f"agree {theirs} LAS {100 * las:.2f} κ UPOS {kappa['UPOS']:.2f} DEPREL {kappa['DEPREL']:.2f}"


def open_file(page, relative: str) -> None:
    """Ctrl+P, the path, Enter; the files share a name, so wait for the folder in the breadcrumbs."""
    folder, name = relative.split("/")
    page.keyboard.press("Control+P")
    page.wait_for_selector(".quick-input-widget input")
    page.keyboard.type(relative)
    row = page.locator(f".quick-input-list .monaco-list-row[aria-label*='{name}'][aria-label*='{folder}']").first
    row.wait_for(timeout=WAIT_MS)
    row.click()
    page.wait_for_function("(f) => { const b = document.querySelector('.breadcrumbs-control');"
                           " return b !== null && b.innerText.includes(f); }", arg=folder, timeout=WAIT_MS)


def status_line(page) -> str:
    return next((line.strip() for line in page.locator(".statusbar").inner_text().splitlines() if "agree" in line), "")


def test_agreement_in_a_real_vscode(tmp_path, tools, vsix):  # noqa: F811
    workspace = tmp_path / "workspace"
    for name, text in (("alice", ANNOTATION), ("bob", BOB), ("carol", ANNOTATION.replace("bark\tbark\tVERB",
                                                                                       "bark\tbark\tNOUN"))):
        (workspace / name).mkdir(parents=True)
        (workspace / name / "t.conllu").write_text(text, encoding="utf-8")
    (workspace / "annoscore.toml").write_text('[agreement]\nfiles = ["alice/*.conllu"]\nothers = ["bob/{name}"]\n')
    declared = expected_status(workspace, "alice/t.conllu", "bob/t.conllu")
    with vscode_page(tmp_path, tools, vsix, workspace, (1600, 1000)) as session:
        page, shots = session.page, session.shots
        page.goto(session.server.url)
        page.wait_for_selector(".monaco-workbench", timeout=WAIT_MS)
        open_file(page, "alice/t.conllu")
        page.wait_for_function("(t) => document.querySelector('.statusbar').innerText.includes(t)",
                               arg=declared, timeout=WAIT_MS)
        assert status_line(page).endswith(declared), status_line(page)
        page.keyboard.press("Control+Shift+M")
        page.wait_for_selector(".markers-panel .monaco-list-row", timeout=WAIT_MS)
        page.wait_for_function("() => document.querySelector('.markers-panel').innerText"
                               ".includes(\"ADV\") || true")
        panel = page.locator(".markers-panel").inner_text()
        assert "UPOS: bob/t.conllu has 'PROPN'" in panel, panel
        assert "UPOS: bob/t.conllu has 'ADJ'" in panel, panel
        page.screenshot(path=str(shots / "1-agreement-status-and-problems.png"))
        # The quick fix on the UPOS cell of 'cat' (line 4), then the figures move.
        page.keyboard.press("Escape")
        page.locator(".monaco-editor .view-lines").first.click()
        page.keyboard.press("Control+G")
        page.wait_for_selector(".quick-input-widget input")
        page.keyboard.type("4:13")
        page.keyboard.press("Enter")
        page.keyboard.press("Control+.")
        fix = page.locator(".action-widget .monaco-list-row", has_text="Take bob/t.conllu's UPOS 'PROPN'")
        fix.first.wait_for(timeout=WAIT_MS)
        page.screenshot(path=str(shots / "2-take-bobs-value.png"))
        fix.first.click()
        page.keyboard.press("Control+S")
        after = declared.split(" κ ")[0]
        page.wait_for_function(
            "(t) => { const s = document.querySelector('.statusbar').innerText;"
            " return s.includes('agree bob/t.conllu') && !s.includes(t); }", arg=declared, timeout=WAIT_MS)
        text = (workspace / "alice" / "t.conllu").read_text(encoding="utf-8")
        assert "cat\tcat\tPROPN" in text
        assert status_line(page).endswith(expected_status(workspace, "alice/t.conllu", "bob/t.conllu"))
        assert after in status_line(page)
        page.screenshot(path=str(shots / "3-after-the-fix.png"))
        # Carol's file is compared with none: "Compare with Another Annotation…" from the palette.
        open_file(page, "carol/t.conllu")
        page.wait_for_function("() => document.querySelector('.statusbar').innerText.includes('no gold')",
                               timeout=WAIT_MS)
        assert "agree" not in status_line(page)
        run_command(page, "annoscore: Compare with Another Annotation")
        # code-server's own file dialog: a quick input titled as the command asks, filled
        # with the file's folder once it has read it.
        page.wait_for_selector(".quick-input-widget:has-text('Another annotation of the same text')",
                               timeout=WAIT_MS)
        box = page.locator(".quick-input-widget input").first
        page.wait_for_function("() => document.querySelector('.quick-input-widget input').value"
                               ".endsWith('carol/')", timeout=WAIT_MS)
        box.fill(str(workspace / "bob" / "t.conllu"))
        page.wait_for_selector(".quick-input-list .monaco-list-row[aria-label*='t.conllu']",
                               timeout=WAIT_MS)
        page.screenshot(path=str(shots / "4-compare-dialog.png"))
        page.keyboard.press("Enter")
        wanted = expected_status(workspace, "carol/t.conllu", "bob/t.conllu")
        page.wait_for_function("(t) => document.querySelector('.statusbar').innerText.includes(t)",
                               arg=wanted, timeout=WAIT_MS)
        page.screenshot(path=str(shots / "5-compared-from-the-editor.png"))
