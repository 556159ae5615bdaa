-- :AnnoscoreTree: the text-mode tree of the sentence under the cursor, in a
-- split (or a float) that follows the cursor. The server draws it (the
-- `annoscore/tree` request with format "text", the same drawing as
-- `annoscore tree` in a terminal); this module shows it and keeps it current:
--   - moving within the sentence shown only moves the tree's cursor to the
--     word's line (no request, no re-render); moving to another sentence
--     asks for that one (one render);
--   - an edit (TextChanged, InsertLeave) and each new score ask again, so
--     gold's differences follow the annotation;
--   - <CR> on a line of the tree goes to that line of the file; q closes it.

local compat = require("annoscore.compat")
local files = require("annoscore.files")
local score = require("annoscore.score")
local side = require("annoscore.side")

local M = {}

local GROUP = "annoscore.tree"
-- Per source buffer: { buf = tree buffer, line, end_line = the sentence shown,
-- rows = document line of each tree line (count of them), renders, pending, again }.
local views = {}

local function notify(message, level)
  vim.notify("annoscore: " .. message, level or vim.log.levels.INFO)
end

--- The window to follow: the current one when it shows the source, else any that does.
local function source_window(source)
  local current = vim.api.nvim_get_current_win()
  if vim.api.nvim_win_get_buf(current) == source then
    return current
  end
  return side.window_showing(source)
end

local function set_lines(view, lines)
  side.set_lines(view.buf, lines)
end

--- Puts the tree's cursor on the line showing document line `line`, if any.
local function follow_word(view, line)
  local win = side.window_showing(view.buf)
  if win == nil then
    return
  end
  for row = 1, view.count or 0 do -- (rows has holes: the lines that show no line of the file)
    if view.rows[row] == line then
      vim.api.nvim_win_set_cursor(win, { row, 0 })
      return
    end
  end
end

local function show(view, source, line, result)
  if type(result) ~= "table" then
    set_lines(view, { ("(no sentence at line %d)"):format(line + 1) })
    view.rows, view.count, view.line, view.end_line = {}, 0, line, line
  else
    set_lines(view, vim.split(result.text, "\n", { plain = true }))
    view.rows, view.count = {}, #result.rows
    for row, shown in ipairs(result.rows) do
      view.rows[row] = shown ~= vim.NIL and shown or nil
    end
    view.line, view.end_line = result.line, result.endLine
  end
  view.renders = view.renders + 1
  follow_word(view, line)
end

--- Brings the tree of `source` up to date with its cursor: nothing to do
--- while the cursor stays in the sentence shown, unless `force`.
function M.update(source, force)
  local view = views[source]
  if view == nil or not vim.api.nvim_buf_is_valid(view.buf) or side.window_showing(view.buf) == nil then
    return
  end
  local win = source_window(source)
  if win == nil then
    return
  end
  local line = vim.api.nvim_win_get_cursor(win)[1] - 1
  if not force and view.line ~= nil and line >= view.line and line <= view.end_line then
    follow_word(view, line)
    return
  end
  if view.pending then -- one request at a time: ask again for where the cursor is then
    view.again = true
    return
  end
  local client = compat.clients(source)[1]
  if client == nil then
    set_lines(view, { "(the annoscore server is not attached to this buffer)" })
    return
  end
  view.pending = true
  local params = { uri = vim.uri_from_bufnr(source), position = { line = line, character = 0 }, format = "text" }
  compat.request(client, "annoscore/tree", params, function(err, result)
    view.pending = false
    if not vim.api.nvim_buf_is_valid(view.buf) then
      return
    end
    if err ~= nil then
      set_lines(view, { "annoscore/tree failed: " .. (err.message or vim.inspect(err)) })
    else
      show(view, source, line, result)
    end
    if view.again then
      view.again = false
      M.update(source, true)
    end
  end, source)
end

--- <CR> in the tree: the file's window goes to the line under the tree's cursor.
local function jump(source)
  local view = views[source]
  local line = view and view.rows[vim.api.nvim_win_get_cursor(0)[1]]
  local win = side.window_showing(source)
  if line == nil or win == nil then
    return
  end
  vim.api.nvim_set_current_win(win)
  vim.cmd("normal! m'")
  vim.api.nvim_win_set_cursor(win, { line + 1, 0 })
end

local function tree_buffer(source)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, "annoscore://tree/" .. (files.buffer_path(source) or tostring(source)))
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].filetype = "annoscore-tree"
  vim.api.nvim_buf_set_keymap(buf, "n", "q", "<Cmd>close<CR>", { noremap = true, silent = true })
  vim.api.nvim_buf_set_keymap(buf, "n", "<CR>", "", {
    noremap = true,
    silent = true,
    callback = function()
      jump(source)
    end,
  })
  return buf
end

local function open_window(buf, style)
  local win
  if style == "float" then
    local width = math.min(100, vim.o.columns - 4)
    local height = math.min(20, vim.o.lines - 6)
    win = vim.api.nvim_open_win(buf, false, {
      relative = "editor",
      width = width,
      height = height,
      row = 1,
      col = vim.o.columns - width - 2,
      style = "minimal",
      border = "rounded",
    })
  else
    local from = vim.api.nvim_get_current_win()
    vim.cmd("botright split")
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_win_set_height(win, math.max(8, math.floor(vim.o.lines / 3)))
    vim.api.nvim_set_current_win(from)
  end
  vim.wo[win].wrap = false
  vim.wo[win].number = false
  vim.wo[win].cursorline = true
  return win
end

local function follow(source)
  local group = vim.api.nvim_create_augroup(GROUP .. "." .. source, { clear = true })
  vim.api.nvim_create_autocmd({ "CursorMoved", "CursorMovedI" }, {
    group = group,
    buffer = source,
    callback = function()
      M.update(source, false)
    end,
  })
  vim.api.nvim_create_autocmd({ "TextChanged", "InsertLeave" }, {
    group = group,
    buffer = source,
    callback = function()
      M.update(source, true)
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = source,
    callback = function()
      local view = views[source]
      views[source] = nil
      if view and vim.api.nvim_buf_is_valid(view.buf) then
        vim.api.nvim_buf_delete(view.buf, { force = true })
      end
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
end

--- Shows the tree of the current buffer's sentence under the cursor ("split" | "float").
function M.open(style)
  local source = vim.api.nvim_get_current_buf()
  if #compat.clients(source) == 0 then
    notify("the server is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  local view = views[source]
  if view == nil or not vim.api.nvim_buf_is_valid(view.buf) then
    view = { buf = tree_buffer(source), rows = {}, renders = 0 }
    views[source] = view
    follow(source)
  end
  if side.window_showing(view.buf) == nil then
    open_window(view.buf, style)
  end
  M.update(source, true)
end

--- The tree of a source buffer, if one was opened: { buf, line, end_line, rows, renders } (for tests).
function M.view_of(source)
  return views[source]
end

-- A new score (after a rescore): the tree's gold differences may have changed.
score.on_update(function(path)
  local source = files.buffer_of_path(path)
  if source ~= nil and views[source] ~= nil then
    vim.schedule(function()
      M.update(source, true)
    end)
  end
end)

return M
