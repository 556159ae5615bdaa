-- :AnnoscoreScore: the server's plain-text report (the tables of
-- `annoscore evaluate`) in a scratch split or a float. An open report follows
-- the file: it is fetched again after each rescoring while it is shown.

local compat = require("annoscore.compat")
local files = require("annoscore.files")
local score = require("annoscore.score")
local side = require("annoscore.side")

local M = {}

local report_buffers = {} -- scored file's path -> report buffer

local function notify(message, level)
  vim.notify("annoscore: " .. message, level or vim.log.levels.INFO)
end

local function report_buffer(path)
  local bufnr = report_buffers[path]
  if bufnr and vim.api.nvim_buf_is_valid(bufnr) then
    return bufnr
  end
  bufnr = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(bufnr, "annoscore://report/" .. path)
  vim.bo[bufnr].bufhidden = "hide"
  vim.bo[bufnr].filetype = "annoscore-report"
  vim.api.nvim_buf_set_keymap(bufnr, "n", "q", "<Cmd>close<CR>", { noremap = true, silent = true })
  report_buffers[path] = bufnr
  return bufnr
end

local function set_text(bufnr, text)
  local lines = vim.split(text, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  side.set_lines(bufnr, lines)
  return lines
end

local function open_split(bufnr, lines)
  vim.cmd("botright split")
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, bufnr)
  vim.api.nvim_win_set_height(win, math.min(#lines + 1, math.floor(vim.o.lines / 2)))
  return win
end

local function open_float(bufnr, lines)
  local width = 20
  for _, line in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(line))
  end
  width = math.min(width + 2, vim.o.columns - 4)
  local height = math.min(#lines, vim.o.lines - 6)
  return vim.api.nvim_open_win(bufnr, true, {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((vim.o.lines - height) / 2) - 1,
    col = math.floor((vim.o.columns - width) / 2),
    style = "minimal",
    border = "rounded",
  })
end

--- Asks the server for the report of `source` (a buffer) and calls
--- on_text(text) with it (nil when there is none).
local function fetch(source, on_text)
  local client = compat.clients(source)[1]
  if client == nil then
    notify("the server is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  local params = { uri = vim.uri_from_bufnr(source) }
  compat.request(client, "annoscore/report", params, function(err, result)
    if err ~= nil then
      notify("report failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    on_text(type(result) == "table" and result.text or nil)
  end, source)
end

--- Shows the report of the buffer in a split or a float ("split" | "float").
function M.show(source, style)
  local path = files.buffer_path(source)
  if path == nil then
    notify("this buffer is not a file", vim.log.levels.WARN)
    return
  end
  fetch(source, function(text)
    text = text or "No score for this file yet: save it or run :AnnoscoreRescore."
    local bufnr = report_buffer(path)
    local lines = set_text(bufnr, text)
    local win = side.window_showing(bufnr)
    if win then
      vim.api.nvim_set_current_win(win)
    elseif style == "float" then
      open_float(bufnr, lines)
    else
      open_split(bufnr, lines)
    end
  end)
end

--- The report buffer of a file, if one was opened (for tests and statuslines).
function M.buffer_of(path)
  return report_buffers[path]
end

-- Keep a shown report current: fetch it again after each rescoring.
score.on_update(function(path)
  local bufnr = report_buffers[path]
  if bufnr == nil or not vim.api.nvim_buf_is_valid(bufnr) or side.window_showing(bufnr) == nil then
    return
  end
  local source = files.buffer_of_path(path)
  if source == nil then
    return
  end
  vim.schedule(function()
    fetch(source, function(text)
      if text and vim.api.nvim_buf_is_valid(bufnr) then
        set_text(bufnr, text)
      end
    end)
  end)
end)

return M
