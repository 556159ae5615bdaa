"""Structural editing (:AnnoscoreEdit) in a real, headless Neovim (0.12):
insert a word (vim.ui.input answering its FORM), reattach it (vim.ui.select
picking the head), renumber after a hand insertion, split and join a
sentence, each applied from the server's one WorkspaceEdit and undone with
one `u` to the exact previous text; a refusal changes nothing and says why,
a cancelled question sends nothing."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.editors.test_nvim import NVIMS, PLUGIN, SERVER, SKIP_REASON

S1 = ["# sent_id = t1", "# text = Ali demir aldı.",
      "1\tAli\tAli\tPROPN\t_\t_\t3\tnsubj\t_\t_",
      "2\tdemir\tdemir\tNOUN\t_\t_\t3\tobj\t_\t_",
      "3\taldı\tal\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No",
      "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_"]
S2 = ["# sent_id = t2", "# text = Güzel.",
      "1\tGüzel\tgüzel\tADJ\t_\t_\t0\troot\t_\tSpaceAfter=No",
      "2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_"]
TEXT = S1 + [""] + S2 + [""]

# Each step: set the cursor (1-based line, 0-based byte column), maybe stub
# the UI, run an edit, record the text; then `u` and record it again; then
# back to the text the next step starts from (redo, or undo to the start).
SCENARIO = r"""
vim.opt.runtimepath:prepend(PLUGIN)
local answers = ANSWERS
require("annoscore").setup({ cmd = SERVER })
local out = { steps = {} }
local function done()
  local f = io.open(OUT, "w"); f:write(vim.json.encode(out)); f:close()
  vim.cmd("qa!")
end
local function wait(cond, what)
  if not vim.wait(30000, cond, 20) then out.timeout = what; done() end
end
local function text() return vim.api.nvim_buf_get_lines(0, 0, -1, false) end
local editing = require("annoscore.editing")
local asked = {}
vim.ui.input = function(opts, on_confirm)
  table.insert(asked, { kind = "input", prompt = opts.prompt })
  local answer = table.remove(answers.inputs, 1)
  on_confirm(answer ~= vim.NIL and answer or nil)
end
vim.ui.select = function(items, opts, on_choice)
  local shown = {}
  for _, item in ipairs(items) do table.insert(shown, opts.format_item(item)) end
  table.insert(asked, { kind = "select", prompt = opts.prompt, items = shown })
  local want = table.remove(answers.selects, 1)
  for i, s in ipairs(shown) do if s == want then return on_choice(items[i], i) end end
  on_choice(nil, nil)
end
local function edit(step)
  vim.api.nvim_win_set_cursor(0, { step.line, step.col or 0 })
  local before = text()
  local finished = nil
  if step.command then
    vim.cmd(step.command)
    -- (a command cannot pass done: wait on editing.last changing)
    local last = editing.last
    editing.last = nil
    wait(function() return editing.last ~= nil or step.cancelled end, step.command)
    finished = editing.last or { none = true }
    editing.last = last
  end
  local record = { name = step.name, before = before, outcome = finished, after = text(), asked = asked,
                   cursor = vim.api.nvim_win_get_cursor(0) }
  asked = {}
  if not step.no_undo then
    vim.cmd("normal! u")
    record.undone = text()
    if step.redo then vim.cmd("redo") ; record.redone = text() end
  end
  table.insert(out.steps, record)
end
vim.api.nvim_create_autocmd("VimEnter", { callback = function() vim.schedule(function()
  wait(function() return require("annoscore").score() ~= nil end, "the first score")
  out.completion = vim.fn.getcompletion("AnnoscoreEdit ", "cmdline")
  out.completion_s = vim.fn.getcompletion("AnnoscoreEdit s", "cmdline")
  out.maps = {}
  for _, m in ipairs(vim.api.nvim_get_keymap("n")) do
    if (m.desc or ""):match("^annoscore") then table.insert(out.maps, m.lhs) end
  end
  for _, step in ipairs(STEPS) do
    if step.hand then
      -- A line typed in by hand (its own undo block, as typing makes one).
      vim.o.undolevels = vim.o.undolevels
      vim.api.nvim_buf_set_lines(0, step.hand.after, step.hand.after, false, { step.hand.text })
      vim.o.undolevels = vim.o.undolevels
    end
    if step.command or step.cancelled then edit(step) end
  end
  done()
end) end })
vim.defer_fn(function() out.timeout = "the whole session"; done() end, 50000)
"""

HAND = "3\tyeni\tyeni\tADJ\t_\t_\t2\tamod\t_\t_"
STEPS = [
    # On "Ali": insert "büyük" after it (asked), `u`, then redo to go on.
    {"name": "insert", "line": 3, "command": "AnnoscoreEdit insert-after", "redo": True},
    # On the new word (line 4): attach it to 3 demir as amod (asked), `u` (back to after the insert).
    {"name": "attach", "line": 4, "command": "AnnoscoreEdit attach"},
    # Undo the insert too: the original text (no edit, just a `u`).
    {"name": "back", "line": 3, "cancelled": True},
    # Cancelling the FORM question sends nothing, changes nothing.
    {"name": "cancel", "line": 3, "command": "AnnoscoreEdit insert-before", "cancelled": True, "no_undo": True},
    # The last word has no next word: refused, unchanged.
    {"name": "refused", "line": 6, "command": "AnnoscoreEdit merge-next", "no_undo": True},
    # A line typed in after "demir" without renumbering, then renumbered.
    {"name": "renumber", "line": 5, "command": "AnnoscoreEdit renumber",
     "hand": {"after": 4, "text": HAND}},
    {"name": "unhand", "line": 3, "cancelled": True},
    # Split before "aldı", join t1 with t2.
    {"name": "split", "line": 5, "command": "AnnoscoreEdit split-sentence"},
    {"name": "join", "line": 4, "command": "AnnoscoreEdit join-next"},
]
ANSWERS = {"inputs": ["büyük", "amod", None], "selects": ["3 demir (NOUN)"]}


def lua(value) -> str:
    """A JSON value as Lua (the scenario's constants)."""
    return "vim.json.decode(" + json.dumps(json.dumps(value)) + ")"


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    if not NVIMS:
        pytest.skip(SKIP_REASON)
    nvim = next((p for p, v in NVIMS if v >= (0, 10)), None)
    if nvim is None:
        pytest.skip("no Neovim ≥ 0.10")
    folder = tmp_path_factory.mktemp("nvim-editing")
    doc = folder / "a.conllu"
    doc.write_text("\n".join(TEXT) + "\n", encoding="utf-8")
    out = folder.parent / (folder.name + "-out.json")
    script = SCENARIO
    for name, value in {"PLUGIN": str(PLUGIN), "SERVER": SERVER, "OUT": str(out), "STEPS": STEPS,
                        "ANSWERS": ANSWERS}.items():
        script = script.replace(name, lua(value)) if name not in ("OUT", "PLUGIN") else \
            script.replace(name, json.dumps(value))
    init = folder.parent / (folder.name + "-init.lua")
    init.write_text(script, encoding="utf-8")
    state = folder.parent / (folder.name + "-state")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PLUGIN.parents[1]),
                                                                      os.environ.get("PYTHONPATH")])),
           "XDG_STATE_HOME": str(state), "XDG_DATA_HOME": str(state)}
    run = subprocess.run(["timeout", "60", nvim, "--headless", "--clean", "-u", str(init), str(doc)],
                         cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=90)
    assert out.exists(), f"Neovim wrote nothing: exit {run.returncode} {run.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "timeout" not in result, result
    return {**{step["name"]: step for step in result["steps"]},
            "setup": {k: result[k] for k in ("completion", "completion_s", "maps")}}


def test_insert_asks_the_form_and_one_u_reverts_it(steps):
    step = steps["insert"]
    assert step["before"] == TEXT
    assert step["asked"] == [{"kind": "input", "prompt": "FORM of the new word: "}]
    assert step["outcome"]["label"] == "Insert 'büyük' after 1 'Ali'"
    assert step["after"][:7] == [
        "# sent_id = t1", "# text = Ali büyük demir aldı.",
        "1\tAli\tAli\tPROPN\t_\t_\t4\tnsubj\t_\t_",
        "2\tbüyük\t_\t_\t_\t_\t_\t_\t_\t_",
        "3\tdemir\tdemir\tNOUN\t_\t_\t4\tobj\t_\t_",
        "4\taldı\tal\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No",
        "5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_"]
    assert step["after"][7:] == [""] + S2 + [""]
    assert step["undone"] == TEXT
    assert step["redone"] == step["after"]


def test_attach_offers_the_sentences_words_then_a_deprel(steps):
    step = steps["attach"]
    assert step["before"] == steps["insert"]["after"]
    select, deprel = step["asked"]
    assert select["kind"] == "select" and select["prompt"] == "Attach 2 büyük to"
    assert select["items"] == ["1 Ali (PROPN)", "3 demir (NOUN)", "4 aldı (VERB)", "5 . (PUNCT)", "0 root"]
    assert deprel["kind"] == "input" and deprel["prompt"].startswith("DEPREL")
    assert step["after"][3] == "2\tbüyük\t_\t_\t_\t_\t3\tamod\t_\t_"
    changed = [i for i, (a, b) in enumerate(zip(step["before"], step["after"])) if a != b]
    assert changed == [3] and len(step["after"]) == len(step["before"])
    assert step["undone"] == step["before"]
    assert steps["back"]["undone"] == TEXT  # and one more `u` takes the insert back


def test_a_cancelled_question_changes_nothing(steps):
    step = steps["cancel"]
    assert step["asked"] == [{"kind": "input", "prompt": "FORM of the new word: "}]
    assert step["after"] == TEXT and step["outcome"] == {"none": True}


def test_a_refusal_is_said_and_changes_nothing(steps):
    step = steps["refused"]
    assert step["after"] == TEXT
    assert step["outcome"]["refused"] == "4 '.' is the sentence's last word"


def test_renumber_after_a_hand_insertion(steps):
    step = steps["renumber"]
    hand = S1[:4] + [HAND] + S1[4:] + [""] + S2 + [""]
    assert step["before"] == hand
    assert step["outcome"]["label"].startswith("Renumber this sentence")
    # Every word keeps the head it pointed to: Ali and demir → aldı (now 4), yeni → demir.
    assert step["after"][2:8] == [
        "1\tAli\tAli\tPROPN\t_\t_\t4\tnsubj\t_\t_",
        "2\tdemir\tdemir\tNOUN\t_\t_\t4\tobj\t_\t_",
        "3\tyeni\tyeni\tADJ\t_\t_\t2\tamod\t_\t_",
        "4\taldı\tal\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No",
        "5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_", ""]
    assert step["undone"] == hand  # the hand insertion stays: that was its own step
    assert steps["unhand"]["undone"] == TEXT


def test_split_the_sentence_and_undo(steps):
    step = steps["split"]
    assert step["before"] == TEXT
    assert step["after"][:11] == [
        "# sent_id = t1", "# text = Ali demir",
        "1\tAli\tAli\tPROPN\t_\t_\t0\troot\t_\t_",
        "2\tdemir\tdemir\tNOUN\t_\t_\t1\tobj\t_\t_",
        "",
        "# sent_id = t1-2", "# text = aldı.",
        "1\taldı\tal\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No",
        "2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_", "", "# sent_id = t2"]
    assert step["outcome"]["label"] == ("Split the sentence before 3 'aldı' (new sent_id t1-2); 'Ali' is the new "
                                        "root of the first part ('demir' attached to it)")
    assert step["undone"] == TEXT


def test_join_with_the_next_sentence_and_undo(steps):
    step = steps["join"]
    assert step["before"] == TEXT
    assert step["after"] == [
        "# sent_id = t1", "# text = Ali demir aldı. Güzel.",
        "1\tAli\tAli\tPROPN\t_\t_\t3\tnsubj\t_\t_",
        "2\tdemir\tdemir\tNOUN\t_\t_\t3\tobj\t_\t_",
        "3\taldı\tal\tVERB\t_\t_\t0\troot\t_\tSpaceAfter=No",
        "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_",
        "5\tGüzel\tgüzel\tADJ\t_\t_\t3\tparataxis\t_\tSpaceAfter=No",
        "6\t.\t.\tPUNCT\t_\t_\t5\tpunct\t_\t_", ""]
    assert step["outcome"]["label"] == ("Join with the next sentence; its root 'Güzel' attached to 'aldı' as "
                                        "parataxis; its sent_id t2 goes")
    assert step["undone"] == TEXT


def test_the_command_completes_every_operation_and_maps_no_keys(steps):
    names = ["insert-after", "insert-before", "delete", "split-token", "merge-next", "make-token", "undo-token",
             "split-sentence", "join-next", "attach", "renumber"]
    assert steps["setup"]["completion"] == names
    assert steps["setup"]["completion_s"] == ["split-token", "split-sentence"]
    # Only <Plug> mappings, one per operation (Neovim writes <Plug> as "<Plug>").
    assert sorted(steps["setup"]["maps"]) == sorted(f"<Plug>(annoscore-{name})" for name in names)
