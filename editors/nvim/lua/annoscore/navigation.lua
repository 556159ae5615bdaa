-- Next/previous place of a kind (low-confidence, refused, unparsed,
-- gold-diff, segmentation-mismatch, validation, error): asked of the server with the
-- `annoscore/next` request, which answers from the engine's own results, so
-- every place is reachable however many diagnostics are published (they stop
-- at maxDiagnostics per code). It never wraps around: past the last one it
-- says so and the cursor stays.

local compat = require("annoscore.compat")

local M = {}

M.kinds = { "low-confidence", "refused", "unparsed", "gold-diff", "segmentation-mismatch", "validation", "error",
  "disagreement" }

--- The last answer (a table: found, message, line, col), for tests and statuslines.
M.last = nil

local function echo(message, level)
  vim.api.nvim_echo({ { "annoscore: " .. message, level == vim.log.levels.WARN and "WarningMsg" or nil } },
    false, {})
end

--- A 0-based byte column for a position the server counts in `encoding`.
local function byte_column(bufnr, line, character, encoding)
  if encoding == "utf-8" then
    return character
  end
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
  local ok, column
  if vim.fn.has("nvim-0.11") == 1 then
    ok, column = pcall(vim.str_byteindex, text, encoding, character, false)
  else
    ok, column = pcall(vim.str_byteindex, text, character, encoding == "utf-16")
  end
  return ok and column or #text
end

--- Asks for the place of `kind` after ("next") or before ("previous") the
--- cursor, moves there (<C-o> comes back) and echoes its message; or echoes
--- that there is no further one. `done(answer)` is called afterwards.
function M.jump(kind, direction, done)
  local bufnr = vim.api.nvim_get_current_buf()
  local win = vim.api.nvim_get_current_win()
  local client = compat.clients(bufnr)[1]
  if client == nil then
    echo("the server is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  local encoding = client.offset_encoding or "utf-16"
  local params = {
    uri = vim.uri_from_bufnr(bufnr),
    position = vim.lsp.util.make_position_params(win, encoding).position, -- (in the client's encoding)
    kind = kind,
    direction = direction,
  }
  compat.request(client, "annoscore/next", params, function(err, result)
    local answer
    if err ~= nil then
      answer = { found = false, message = "annoscore/next failed: " .. (err.message or vim.inspect(err)) }
    elseif type(result) ~= "table" then
      answer = { found = false, message = "not a CoNLL-U document the server has open" }
    else
      answer = { found = result.found == true, message = result.message }
      if answer.found and vim.api.nvim_win_is_valid(win) and vim.api.nvim_win_get_buf(win) == bufnr then
        local start = result.range.start
        answer.line = start.line
        answer.col = byte_column(bufnr, start.line, start.character, encoding)
        vim.api.nvim_win_call(win, function()
          vim.cmd("normal! m'")
        end)
        vim.api.nvim_win_set_cursor(win, { start.line + 1, answer.col })
      end
    end
    M.last = answer
    echo((tostring(answer.message or "")):gsub("\n", " "))
    if done then
      done(answer)
    end
  end, bufnr)
end

return M
