-- Next/previous low-confidence cell: the server marks each cell whose Conf=
-- is below the threshold with a `low-confidence` diagnostic on the cell, so
-- navigation is plain position arithmetic over those diagnostics.

local compat = require("annoscore.compat")

local M = {}

local function is_low_confidence(diagnostic)
  return diagnostic.source == "annoscore" and compat.diagnostic_code(diagnostic) == "low-confidence"
end

local function before(a_line, a_col, b_line, b_col)
  return a_line < b_line or (a_line == b_line and a_col < b_col)
end

--- The low-confidence diagnostics of a buffer, in file order; one per start
--- position, so the cursor never gets stuck on two at the same place.
function M.targets(bufnr)
  local found, seen = {}, {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    local key = diagnostic.lnum .. ":" .. diagnostic.col
    if is_low_confidence(diagnostic) and not seen[key] then
      seen[key] = true
      table.insert(found, diagnostic)
    end
  end
  table.sort(found, function(a, b)
    return before(a.lnum, a.col, b.lnum, b.col)
  end)
  return found
end

--- The target after (direction "next") or before ("previous") the 0-based
--- position, wrapping around the file; nil when there is none.
function M.find(targets, line, col, direction)
  if #targets == 0 then
    return nil
  end
  if direction == "next" then
    for _, target in ipairs(targets) do
      if before(line, col, target.lnum, target.col) then
        return target
      end
    end
    return targets[1]
  end
  for i = #targets, 1, -1 do
    if before(targets[i].lnum, targets[i].col, line, col) then
      return targets[i]
    end
  end
  return targets[#targets]
end

--- Moves the cursor of the current window to the next or previous
--- low-confidence cell and echoes its message. Returns the diagnostic, or nil.
function M.jump(direction)
  local bufnr = vim.api.nvim_get_current_buf()
  local cursor = vim.api.nvim_win_get_cursor(0)
  local target = M.find(M.targets(bufnr), cursor[1] - 1, cursor[2], direction)
  if target == nil then
    vim.api.nvim_echo({ { "annoscore: no low-confidence cells in this buffer" } }, false, {})
    return nil
  end
  vim.cmd("normal! m'") -- so <C-o> comes back
  vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
  vim.api.nvim_echo({ { (target.message:gsub("\n", " ")) } }, false, {})
  return target
end

return M
