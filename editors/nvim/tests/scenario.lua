-- A headless Neovim session that drives the plugin as a user would, for
-- tests/test_nvim.py:
--
--   timeout 60 nvim --headless --clean -u scenario.lua FILE </dev/null
--
-- with ANNOSCORE_TEST (a JSON file) giving the plugin folder, the setup{}
-- options, what to do and where to write the results. It waits for
-- conditions (never fixed sleeps), records what a user would see, and
-- writes it all as JSON. The scenarios:
--   "edit":   FILE is a prediction with gold; record the diagnostics and the
--             status line, navigate, show the report and :checkhealth, edit
--             one cell, :write, and record them again;
--   "attach": open spec.files in turn and record which buffers the server
--             attached to (filetypes and segmentation/label globs);
--   "tree":   FILE is a prediction with gold; open :AnnoscoreTree, move the
--             cursor within the sentence and to another, <CR> in the tree;
--   "setup":  a first session, the server command perhaps missing: record
--             what vim.notify said, :help annoscore and :checkhealth.
-- Any error ends the session with the error in the results, so a broken
-- plugin fails the test with a message instead of hanging it.

local function read_json(path)
  local file = assert(io.open(path, "r"))
  local text = file:read("*a")
  file:close()
  return vim.fn.json_decode(text)
end

local spec = read_json(assert(os.getenv("ANNOSCORE_TEST"), "ANNOSCORE_TEST is not set"))
local results = { steps = {} }

local function finish()
  local file = assert(io.open(spec.out, "w"))
  file:write(vim.fn.json_encode(results))
  file:close()
  vim.cmd("qall!")
end

-- Everything vim.notify is asked to show, from the start.
results.notifications = {}
local notify = vim.notify
vim.notify = function(message, level, ...)
  table.insert(results.notifications, { message = tostring(message), level = level })
  return notify(message, level, ...)
end

local function load_plugin()
  vim.opt.runtimepath:prepend(spec.plugin)
  vim.o.columns = 160 -- (the headless default, 80, would cut the status line short)
  vim.o.statusline = "%f %{v:lua.require'annoscore'.status()}"
  vim.o.laststatus = 2
  require("annoscore").setup(spec.options)
end

-- An error here would leave Neovim waiting at startup: report it and quit.
local loaded, load_error = xpcall(load_plugin, debug.traceback)
if not loaded then
  results.error = tostring(load_error)
  finish()
  return
end

-- What has arrived, for the conditions below to wait on: counts of scores
-- and DiagnosticChanged events, and the document version of the last
-- publishDiagnostics with the score count at that moment (a rescoring
-- publishes diagnostics, then the score). Also a trace with times, in the
-- results, so a failure shows the order of events.
local seen = { scores = 0, diagnostics = 0 }
local published = { version = nil, scores = 0 }
local started = vim.loop.hrtime()
results.trace = {}

local function trace(event)
  table.insert(results.trace, string.format("%6.0f ms %s", (vim.loop.hrtime() - started) / 1e6, event))
end

vim.api.nvim_create_autocmd("User", {
  pattern = "AnnoscoreScore",
  callback = function()
    seen.scores = seen.scores + 1
    trace("annoscore/score: " .. require("annoscore").status())
  end,
})
vim.api.nvim_create_autocmd("DiagnosticChanged", {
  callback = function()
    seen.diagnostics = seen.diagnostics + 1
  end,
})
local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, ...)
  if result then
    trace(("publishDiagnostics version %s: %d"):format(tostring(result.version), #result.diagnostics))
    published = { version = result.version, scores = seen.scores }
  end
  return publish(err, result, ctx, ...)
end

local function wait_for(what, condition)
  if not vim.wait(spec.wait_ms or 30000, condition, 20) then
    error("timed out waiting for " .. what)
  end
end

local function diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    local related = {}
    for _, r in ipairs(lsp.relatedInformation or {}) do
      table.insert(related, { line = r.location.range.start.line, character = r.location.range.start.character,
                              message = r.message })
    end
    table.insert(found, {
      code = d.code or lsp.code,
      source = d.source,
      severity = d.severity,
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      message = d.message,
      related = related,
    })
  end
  return found
end

local function snapshot(name, bufnr)
  local statusline = vim.api.nvim_eval_statusline(vim.o.statusline, { winid = vim.api.nvim_get_current_win() })
  results.steps[name] = {
    diagnostics = diagnostics(bufnr),
    status = require("annoscore").status(bufnr),
    statusline = statusline.str,
    clients = #require("annoscore.compat").clients(bufnr),
  }
end

local function cursor()
  local position = vim.api.nvim_win_get_cursor(0)
  return { position[1] - 1, position[2] }
end

-- A navigation command, once its answer has come: where the cursor is, and what it said.
local function navigation_command(name)
  local navigation = require("annoscore.navigation")
  navigation.last = nil
  vim.cmd(name)
  wait_for("the answer to :" .. name, function()
    return navigation.last ~= nil
  end)
  return { cursor = cursor(), found = navigation.last.found, message = navigation.last.message }
end

-- Every low-confidence place in turn from the top, until there is no further one.
local function walk_low_confidence(into)
  into.walk = {}
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  while true do
    local step = navigation_command("AnnoscoreNextLowConfidence")
    if not step.found then
      into.walk_end = step
      return
    end
    table.insert(into.walk, step.cursor)
    if #into.walk > 100 then
      error("navigation does not end")
    end
  end
end

local function edit_scenario()
  local bufnr = vim.api.nvim_get_current_buf()
  results.filetype = vim.bo[bufnr].filetype

  wait_for("the first score and diagnostics", function()
    return seen.scores >= 1 and #vim.diagnostic.get(bufnr) > 0
  end)
  snapshot("opened", bufnr)

  -- Hover over one cell, as K does (the line is ASCII: bytes are units).
  if spec.hover then
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      position = { line = spec.hover.line, character = spec.hover.character },
    }
    for _, answer in pairs(vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000) or {}) do
      local contents = answer.result and answer.result.contents
      if contents then
        results.hover = type(contents) == "table" and (contents.value or contents[1]) or contents
      end
    end
  end

  -- Navigation, asked of the server: the commands, from the top of the file.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  results.navigation = {
    next = navigation_command("AnnoscoreNextLowConfidence"),
    second = navigation_command("AnnoscoreNextLowConfidence"),
  }
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  results.navigation.previous_from_top = navigation_command("AnnoscorePrevLowConfidence")
  walk_low_confidence(results.navigation)
  for _, name in ipairs({ "Refused", "Unparsed", "GoldDiff", "Validation" }) do
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    results.navigation[name] = navigation_command("AnnoscoreNext" .. name)
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })

  -- The report in a split.
  local windows = #vim.api.nvim_list_wins()
  vim.cmd("AnnoscoreScore")
  wait_for("the report window", function()
    return #vim.api.nvim_list_wins() > windows
  end)
  results.report = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd("close")

  -- :checkhealth annoscore, in its own tab.
  vim.cmd("checkhealth annoscore")
  results.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd("tabclose")

  -- Edit one cell, save, and wait for new diagnostics and a new score.
  local edit = spec.edit
  local changes = seen.diagnostics
  vim.api.nvim_buf_set_text(bufnr, edit.line, edit.start_col, edit.line, edit.end_col, { edit.text })
  trace("edited")
  vim.cmd("write")
  trace("written")
  -- Wait for the diagnostics of this very version (stale publishes from
  -- earlier rescorings may still arrive), then the score that follows them.
  local version = vim.lsp.util.buf_versions[bufnr]
  wait_for("the diagnostics and score of version " .. tostring(version), function()
    return published.version == version and seen.scores > published.scores and seen.diagnostics > changes
  end)
  snapshot("saved", bufnr)

  -- Stopping the server takes its score out of the status line.
  for _, client in ipairs(require("annoscore.compat").clients(bufnr)) do
    if vim.fn.has("nvim-0.11") == 1 then
      client:stop()
    else
      client.stop()
    end
  end
  wait_for("the server to stop", function()
    return #require("annoscore.compat").clients(bufnr) == 0
  end)
  results.status_after_stop = require("annoscore").status(bufnr)
end

-- :AnnoscoreTree: open it, move within the sentence (no new render), to
-- another sentence (one render), then <CR> on a line of the tree.
local function tree_scenario()
  local bufnr = vim.api.nvim_get_current_buf()
  local tree = require("annoscore.tree")
  wait_for("the first score", function()
    return seen.scores >= 1
  end)
  local source_win = vim.api.nvim_get_current_win()
  local function moved_to(line)
    vim.api.nvim_set_current_win(source_win)
    vim.api.nvim_win_set_cursor(source_win, { line + 1, 0 })
    vim.api.nvim_exec_autocmds("CursorMoved", { buffer = bufnr })
  end
  local function shown()
    local view = tree.view_of(bufnr)
    local win
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_buf(w) == view.buf then
        win = w
      end
    end
    return {
      lines = vim.api.nvim_buf_get_lines(view.buf, 0, -1, false),
      renders = view.renders,
      pending = view.pending == true,
      row = win and vim.api.nvim_win_get_cursor(win)[1] or nil,
      windows = #vim.api.nvim_list_wins(),
    }
  end
  vim.api.nvim_win_set_cursor(source_win, { spec.tree.first + 1, 0 })
  vim.cmd("AnnoscoreTree")
  wait_for("the tree", function()
    local view = tree.view_of(bufnr)
    return view ~= nil and view.renders >= 1
  end)
  results.tree = { first = shown() }
  moved_to(spec.tree.same)
  results.tree.same = shown()
  moved_to(spec.tree.other)
  wait_for("the other sentence's tree", function()
    return tree.view_of(bufnr).renders > results.tree.same.renders
  end)
  results.tree.other = shown()
  -- <CR> on a line of the tree, as a user types it.
  local view = tree.view_of(bufnr)
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == view.buf then
      vim.api.nvim_set_current_win(w)
      vim.api.nvim_win_set_cursor(w, { spec.tree.jump_row, 0 })
    end
  end
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<CR>", true, false, true), "x", false)
  results.tree.jumped = { in_source = vim.api.nvim_get_current_buf() == bufnr, cursor = cursor() }
  -- Past the diagnostics' cap (spec.options.settings.maxDiagnostics), navigation goes on.
  wait_for("the diagnostics", function()
    return #vim.diagnostic.get(bufnr) > 0
  end)
  results.navigation = { diagnostics = diagnostics(bufnr) }
  walk_low_confidence(results.navigation)
end

local function attach_scenario()
  local compat = require("annoscore.compat")
  local buffers = {}
  for _, file in ipairs(spec.files) do
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    buffers[file] = vim.api.nvim_get_current_buf()
  end
  -- Buffers are attached (or not) as they are opened; those expected to be
  -- were opened last, so once they are, every earlier decision has been made.
  wait_for("the server to attach", function()
    for _, file in ipairs(spec.expect_attached) do
      if #compat.clients(buffers[file]) == 0 then
        return false
      end
    end
    return true
  end)
  for _, file in ipairs(spec.expect_scored or {}) do
    wait_for("a score for " .. file, function()
      return require("annoscore").score(buffers[file]) ~= nil
    end)
  end
  for _, file in ipairs(spec.expect_diagnostics or {}) do
    wait_for("diagnostics for " .. file, function()
      return #vim.diagnostic.get(buffers[file]) > 0
    end)
  end
  results.buffers = {}
  for file, bufnr in pairs(buffers) do
    results.buffers[file] = {
      filetype = vim.bo[bufnr].filetype,
      attached = #compat.clients(bufnr) > 0,
      status = require("annoscore").status(bufnr),
      diagnostics = diagnostics(bufnr),
    }
  end
  results.servers = #compat.clients()
end

-- Agreement with another annotation: declared in annoscore.toml, or asked
-- for with :AnnoscoreCompare (spec.compare); the status line, the
-- disagreement diagnostics, and :AnnoscoreNextDisagreement from the top.
local function agree_scenario()
  local bufnr = vim.api.nvim_get_current_buf()
  local function agreeing()
    local payload = require("annoscore").score(bufnr)
    return payload ~= nil and type(payload.agreement) == "table" and #payload.agreement > 0
  end
  wait_for("the first score", function()
    return seen.scores >= 1
  end)
  if spec.compare then
    results.before_compare = require("annoscore").status(bufnr)
    vim.cmd("AnnoscoreCompare " .. vim.fn.fnameescape(spec.compare))
  end
  wait_for("a score with the agreement", agreeing)
  wait_for("the disagreements", function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == "disagreement" then
        return true
      end
    end
    return false
  end)
  results.status = require("annoscore").status(bufnr)
  results.statusline = vim.api.nvim_eval_statusline(vim.o.statusline, { winid = vim.api.nvim_get_current_win() }).str
  results.agreement = require("annoscore").score(bufnr).agreement
  results.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(results.diagnostics, { code = d.code, severity = d.severity, lnum = d.lnum, col = d.col,
      end_col = d.end_col, message = d.message })
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  results.walk = {}
  for _ = 1, 3 do
    table.insert(results.walk, navigation_command("AnnoscoreNextDisagreement"))
  end
end

local function setup_scenario()
  wait_for("the plugin to say something about its server", function()
    return #results.notifications > 0 or #require("annoscore.compat").clients(0) > 0
  end)
  -- :help annoscore, as a new user types it (E149 when there are no tags).
  local ok, err = pcall(vim.cmd, "help annoscore")
  results.help = { ok = ok, error = not ok and tostring(err) or nil,
    file = ok and vim.fn.expand("%:t") or nil, line = ok and vim.api.nvim_get_current_line() or nil }
  if ok then
    vim.cmd("helpclose")
  end
  vim.cmd("checkhealth annoscore")
  results.health = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd("tabclose")
end

local function run()
  if spec.scenario == "attach" then
    attach_scenario()
  elseif spec.scenario == "tree" then
    tree_scenario()
  elseif spec.scenario == "setup" then
    setup_scenario()
  elseif spec.scenario == "agree" then
    agree_scenario()
  else
    edit_scenario()
  end
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = xpcall(run, debug.traceback)
      if not ok then
        results.error = tostring(err)
      end
      finish()
    end)
  end,
})
