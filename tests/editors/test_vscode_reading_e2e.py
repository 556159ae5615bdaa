"""Reading aids in a real VS Code (code-server + Chromium + Playwright, as
test_vscode_e2e): the head words shown as inlay hints after HEAD and DEPS,
and the head and dependents of the word at the cursor highlighted.
Screenshots go to the test's temporary folder."""

from __future__ import annotations

from tests.editors.test_vscode_agreement_e2e import open_file
from tests.editors.test_vscode_e2e import tools, vsix  # noqa: F401
from tests.support.vsix import WAIT_MS, vscode_page

TEXT = ("# sent_id = a\n# text = The cat sat\n"
        "1\tThe\tthe\tDET\t_\t_\t2\tdet\t2:det\t_\n"
        "2\tcat\tcat\tNOUN\t_\t_\t3\tnsubj\t3:nsubj\t_\n"
        "3\tsat\tsit\tVERB\t_\t_\t0\troot\t0:root\t_\n\n")


def test_inlay_hints_and_highlight_in_a_real_vscode(tmp_path, tools, vsix):  # noqa: F811
    workspace = tmp_path / "workspace"
    (workspace / "a").mkdir(parents=True)
    (workspace / "a" / "t.conllu").write_text(TEXT, encoding="utf-8")
    with vscode_page(tmp_path, tools, vsix, workspace, (1400, 700)) as session:
        page, shots = session.page, session.shots
        page.goto(session.server.url)
        page.wait_for_selector(".monaco-workbench", timeout=WAIT_MS)
        open_file(page, "a/t.conllu")
        # VS Code draws an inlay hint as a span of its own (class dyn-rule-…), spaces as NBSP.
        hints_js = ("() => [...document.querySelectorAll('.view-lines span[class*=dyn-rule]')]"
                    ".map(e => e.textContent.replace(/\\u00a0/g, ' ').trim()).filter(t => t.includes('▸'))")
        page.wait_for_function(f"() => ({hints_js})().length >= 6", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "1-inlay-hints.png"))
        assert sorted(page.evaluate(hints_js)) == ["▸ cat", "▸ cat", "▸ root", "▸ root", "▸ sat", "▸ sat"]
        page.locator(".monaco-editor .view-lines").first.click()
        page.keyboard.press("Control+G")
        page.wait_for_selector(".quick-input-widget input")
        page.keyboard.type("4:4")  # on "cat": head "sat", dependent "The"
        page.keyboard.press("Enter")
        page.wait_for_selector(".view-overlays .wordHighlightStrong", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "2-highlight.png"))
        assert page.locator(".view-overlays .wordHighlightStrong").count() >= 1
        assert page.locator(".view-overlays .wordHighlight").count() >= 1
