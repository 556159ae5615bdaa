-- :AnnoscoreEdit {operation}: the server's structural edits of the sentence
-- at the cursor (the `annoscore.edit` command, see the repository's
-- docs/editing.md). The server answers {label, edit} with ONE WorkspaceEdit
-- of versioned document changes, applied here as one undo block (`u`
-- reverts the whole operation), or {refused = reason}, said as a warning.
-- Insert asks the FORM (vim.ui.input), attach the head among the sentence's
-- words (vim.ui.select) and then the DEPREL; cancelling either does nothing.

local compat = require("annoscore.compat")

local M = {}

-- Command name → the server's operation.
M.operations = {
  ["insert-before"] = "insertBefore",
  ["insert-after"] = "insertAfter",
  ["delete"] = "delete",
  ["split-token"] = "splitWord",
  ["merge-next"] = "mergeWithNext",
  ["make-token"] = "makeToken",
  ["undo-token"] = "undoToken",
  ["split-sentence"] = "splitSentence",
  ["join-next"] = "joinWithNext",
  ["attach"] = "attach",
  ["renumber"] = "renumber",
}
-- In the order :AnnoscoreEdit completes them.
M.names = { "insert-after", "insert-before", "delete", "split-token", "merge-next", "make-token", "undo-token",
  "split-sentence", "join-next", "attach", "renumber" }

--- The last outcome (a table: name, label or refused), for tests and statuslines.
M.last = nil

local function echo(message, warn)
  vim.api.nvim_echo({ { "annoscore: " .. message, warn and "WarningMsg" or nil } }, true, {})
end

local function finish(outcome, done)
  M.last = outcome
  if outcome.refused then
    echo(outcome.name .. " refused: " .. outcome.refused, true)
  elseif outcome.label then
    echo(outcome.label)
  end
  if done then
    done(outcome)
  end
end

--- The ten cells of a CoNLL-U line, or nil.
local function cells(line)
  local parts = vim.split(line or "", "\t", { plain = true })
  return #parts == 10 and parts or nil
end

--- The sentence's words around buffer line `row` (0-based): { id, form, upos, line }
--- for each line whose ID is a whole number, and the word on `row` (or nil).
function M.sentence_words(bufnr, row)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local first, last = row, row
  while first > 0 and (vim.api.nvim_buf_get_lines(bufnr, first - 1, first, false)[1] or "") ~= "" do
    first = first - 1
  end
  while last < count - 1 and (vim.api.nvim_buf_get_lines(bufnr, last + 1, last + 2, false)[1] or "") ~= "" do
    last = last + 1
  end
  local words, at = {}, nil
  for offset, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, first, last + 1, false)) do
    local parts = cells(line)
    if parts and parts[1]:match("^%d+$") then
      local word = { id = parts[1], form = parts[2], upos = parts[4], deprel = parts[8], line = first + offset - 1 }
      table.insert(words, word)
      if word.line == row then
        at = word
      end
    end
  end
  return words, at
end

--- Sends `annoscore.edit` for the cursor and applies the answer.
local function request(name, args, bufnr, win, done)
  local client = compat.clients(bufnr)[1]
  if client == nil then
    return finish({ name = name, refused = "the server is not attached to this buffer" }, done)
  end
  local encoding = client.offset_encoding or "utf-16"
  local position = vim.lsp.util.make_position_params(win, encoding).position
  local version = vim.lsp.util.buf_versions[bufnr]
  local given = {
    uri = vim.uri_from_bufnr(bufnr),
    version = type(version) == "number" and version or vim.NIL,
    line = position.line,
    character = position.character,
    operation = M.operations[name],
  }
  for key, value in pairs(args or {}) do
    given[key] = value
  end
  local params = { command = "annoscore.edit", arguments = { given } }
  compat.request(client, "workspace/executeCommand", params, function(err, result)
    if err ~= nil then
      return finish({ name = name, refused = err.message or vim.inspect(err) }, done)
    end
    if type(result) ~= "table" then
      return finish({ name = name, refused = "no answer from the server" }, done)
    end
    if result.refused then
      return finish({ name = name, refused = result.refused }, done)
    end
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return finish({ name = name, refused = "the buffer is gone" }, done)
    end
    if vim.lsp.util.buf_versions[bufnr] ~= version then
      -- (apply_workspace_edit would only print "newer than edits")
      return finish({ name = name, refused = "the buffer changed meanwhile: nothing was changed, ask again" }, done)
    end
    -- A fresh undo block, closed after: the whole operation is one `u`,
    -- separate from what was typed before it.
    vim.o.undolevels = vim.o.undolevels
    vim.lsp.util.apply_workspace_edit(result.edit, encoding)
    vim.o.undolevels = vim.o.undolevels
    finish({ name = name, label = result.label }, done)
  end, bufnr)
end

--- The head (and then the DEPREL) for attach, asked with vim.ui.select / vim.ui.input.
local function ask_attach(bufnr, row, then_)
  local words, at = M.sentence_words(bufnr, row)
  if at == nil then
    return false
  end
  local choices = {}
  for _, word in ipairs(words) do
    if word ~= at then
      table.insert(choices, word)
    end
  end
  table.insert(choices, { id = "0", root = true })
  vim.ui.select(choices, {
    prompt = ("Attach %s %s to"):format(at.id, at.form),
    format_item = function(word)
      return word.root and "0 root" or ("%s %s (%s)"):format(word.id, word.form, word.upos)
    end,
  }, function(choice)
    if choice == nil then
      return
    end
    vim.ui.input({ prompt = "DEPREL (empty: keep " .. at.deprel .. "): " }, function(deprel)
      if deprel == nil then
        return
      end
      then_({ head = tonumber(choice.id), deprel = deprel ~= "" and deprel or nil })
    end)
  end)
  return true
end

--- Runs the operation `name` (one of M.names) at the cursor. `args`: the
--- operation's own arguments (form, lemma, upos, head, deprel, at, forms,
--- last); what insert and attach need and are not given is asked.
--- `done(outcome)` after, with outcome.label or outcome.refused; not called
--- when the user cancels a question.
function M.run(name, args, done)
  args = args or {}
  local bufnr = vim.api.nvim_get_current_buf()
  local win = vim.api.nvim_get_current_win()
  if M.operations[name] == nil then
    echo(("no operation %q: one of %s"):format(tostring(name), table.concat(M.names, ", ")), true)
    return
  end
  if (name == "insert-after" or name == "insert-before") and args.form == nil then
    vim.ui.input({ prompt = "FORM of the new word: " }, function(form)
      if form == nil or form == "" then
        return -- cancelled
      end
      request(name, vim.tbl_extend("force", args, { form = form }), bufnr, win, done)
    end)
    return
  end
  if name == "attach" and args.head == nil then
    local row = vim.api.nvim_win_get_cursor(win)[1] - 1
    if not ask_attach(bufnr, row, function(chosen)
      request(name, vim.tbl_extend("force", args, chosen), bufnr, win, done)
    end) then
      finish({ name = name, refused = "put the cursor on a word's line" }, done)
    end
    return
  end
  request(name, args, bufnr, win, done)
end

--- The arguments typed after :AnnoscoreEdit {operation}: insert FORM [UPOS],
--- attach HEAD [DEPREL], split-token FORM1 FORM2, make-token LAST.
function M.command_args(name, words)
  if #words == 0 then
    return {}
  end
  if name == "insert-after" or name == "insert-before" then
    return { form = words[1], upos = words[2] }
  elseif name == "attach" then
    return { head = tonumber(words[1]) or words[1], deprel = words[2] }
  elseif name == "split-token" then
    return { forms = { words[1], words[2] } }
  elseif name == "make-token" then
    return { last = tonumber(words[1]) or words[1] }
  end
  return {}
end

--- :AnnoscoreEdit and the <Plug>(annoscore-…) mappings (no keys are mapped).
function M.create()
  vim.api.nvim_create_user_command("AnnoscoreEdit", function(command)
    local name = command.fargs[1]
    M.run(name, M.command_args(name, vim.list_slice(command.fargs, 2)))
  end, {
    nargs = "+",
    complete = function(lead, line)
      if #vim.split(line, "%s+") > 2 then
        return {}
      end
      return vim.tbl_filter(function(name)
        return name:sub(1, #lead) == lead
      end, M.names)
    end,
    desc = "annoscore: edit the sentence at the cursor (insert, delete, split, merge, attach, renumber …)",
  })
  for _, name in ipairs(M.names) do
    vim.keymap.set("n", "<Plug>(annoscore-" .. name .. ")", function()
      M.run(name)
    end, { desc = "annoscore: " .. name })
  end
end

return M
