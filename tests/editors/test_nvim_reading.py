"""Inlay hints and document highlight in a real, headless Neovim (0.12):
the plugin enables them on attach; the hints Neovim holds and the
references it highlights are read back from inside Neovim."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NVIM = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")

TEXT = ("# sent_id = a\n# text = du vin\n"
        "1\tde\tde\tADP\t_\t_\t2\tcase\t2:case\t_\n"
        "2\tvin\tvin\tNOUN\t_\t_\t0\troot\t0:root\t_\n\n")

INIT = r"""
vim.opt.rtp:prepend(%(plugin)s)
vim.o.updatetime = 100
require("annoscore").setup({ cmd = %(cmd)s })
local out = %(out)s
local function finish(result)
  local f = io.open(out, "w"); f:write(vim.json.encode(result)); f:close(); vim.cmd("qa!")
end
vim.api.nvim_create_autocmd("LspAttach", { callback = function(args)
  vim.defer_fn(function()
    local hints = {}
    for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = args.buf })) do
      local label = h.inlay_hint.label
      table.insert(hints, { h.inlay_hint.position.line, type(label) == "string" and label or label[1].value })
    end
    vim.api.nvim_win_set_cursor(0, { 3, 3 })  -- on "de"
    vim.api.nvim_exec_autocmds("CursorHold", { buffer = args.buf })
    vim.defer_fn(function()
      local marks = {}
      for _, ns in pairs(vim.api.nvim_get_namespaces()) do
        for _, m in ipairs(vim.api.nvim_buf_get_extmarks(args.buf, ns, 0, -1, { details = true })) do
          local group = m[4].hl_group
          if group and group:match("^LspReference") then table.insert(marks, { m[2], m[3], group }) end
        end
      end
      finish({ enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = args.buf }), hints = hints, marks = marks })
    end, 1500)
  end, 2500)
end })
vim.defer_fn(function() finish({ timeout = true }) end, 30000)
"""


@pytest.mark.skipif(NVIM is None, reason="no nvim")
def test_neovim_shows_head_words_as_inlay_hints_and_highlights_head(tmp_path):
    doc = tmp_path / "a.conllu"
    doc.write_text(TEXT)
    out = tmp_path / "out.json"
    cmd = [sys.executable, "-m", "annoscore", "lsp"]
    init = tmp_path / "init.lua"
    init.write_text(INIT % {"plugin": json.dumps(str(ROOT / "editors" / "nvim")), "cmd": json.dumps(cmd)
                            .replace("[", "{").replace("]", "}"), "out": json.dumps(str(out))})
    subprocess.run(["timeout", "60", NVIM, "--headless", "--clean", "-u", str(init), str(doc)],
                   stdin=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                   capture_output=True, timeout=90)
    result = json.loads(out.read_text())
    assert result.get("enabled") is True
    assert sorted(map(tuple, result["hints"])) == [(2, "▸ vin"), (2, "▸ vin"), (3, "▸ root"), (3, "▸ root")]
    # "de" (line 2, FORM at 2) itself, and its head "vin" (line 3) written strong.
    assert sorted((line, col, group) for line, col, group in result["marks"]) == \
        [(2, 2, "LspReferenceText"), (3, 2, "LspReferenceWrite")]
