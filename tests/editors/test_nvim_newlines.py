"""A lone carriage return in a real Neovim: Neovim keeps it inside the line
(shown as ^M), so the server must count lines as Neovim does, say where the
CR is, and follow the buffer when it is emptied (``ggdG``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.editors.test_nvim import NVIMS, PLUGIN, SKIP_REASON

SCENARIO = r"""
vim.opt.runtimepath:prepend(PLUGIN)
local out = {}
local function done()
  local f = io.open(OUT, "w"); f:write(vim.json.encode(out)); f:close()
  vim.cmd("qa!")
end
local function wait(cond, what)
  if not vim.wait(30000, cond, 50) then out.timeout = what; done() end
end
require("annoscore").setup({ cmd = SERVER })
vim.api.nvim_create_autocmd("VimEnter", { callback = function() vim.schedule(function()
wait(function() return #vim.diagnostic.get(0) > 0 and require("annoscore").score() ~= nil end, "diagnostics")
out.lines = vim.api.nvim_buf_line_count(0)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, { code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
                                  line = d.lnum, col = d.col })
end
local before = require("annoscore").score()
out.sentences_before = before and before.counts.sentences
vim.cmd("normal! ggdG")
vim.cmd("write")
wait(function()
  local s = require("annoscore").score()
  return s ~= nil and s.counts.sentences == 0
end, "empty score")
out.sentences_after = require("annoscore").score().counts.sentences
done()
end) end })
"""

TEXT = ("# sent_id = a\n1\tab\rcd\tab\tX\t_\t_\t0\troot\t_\t_\n\n"
        "# sent_id = b\n1\tx\tx\tX\t_\t_\t2\tdep\t_\t_\n2\ty\ty\tX\t_\t_\t1\tdep\t_\t_\n\n")


@pytest.mark.skipif(not NVIMS, reason=SKIP_REASON)
def test_a_lone_cr_in_neovim(tmp_path):
    nvim = NVIMS[0][0]
    path = tmp_path / "cr.conllu"
    path.write_bytes(TEXT.encode("utf-8"))
    out = tmp_path / "out.json"
    server = "{" + ", ".join(json.dumps(a) for a in [sys.executable, "-m", "annoscore", "lsp"]) + "}"
    script = tmp_path / "scenario.lua"
    script.write_text(f"PLUGIN = {json.dumps(str(PLUGIN))}\nSERVER = {server}\nFILE = {json.dumps(str(path))}\n"
                      f"OUT = {json.dumps(str(out))}\n" + SCENARIO, encoding="utf-8")
    done = subprocess.run(["timeout", "90", nvim, "--headless", "--clean", "-u", str(script), str(path)],
                   stdin=subprocess.DEVNULL, capture_output=True, cwd=str(tmp_path), timeout=120,
                   env={**__import__("os").environ, "PYTHONPATH": str(PLUGIN.parent.parent)})
    assert out.exists(), done.stderr[-2000:]
    result = json.loads(out.read_text())
    assert "timeout" not in result, result
    assert result["lines"] == 7  # Neovim's own count: the CR does not end line 2
    found = {(d["code"], d["line"]) for d in result["diagnostics"]}
    assert ("format-newline", 1) in found
    assert {line for code, line in found if code == "cycle"} == {4, 5}  # where Neovim shows them
    assert result["sentences_before"] == 2 and result["sentences_after"] == 0
