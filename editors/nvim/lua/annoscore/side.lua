-- What the plugin's side windows share (the report and the tree): a
-- read-only scratch buffer's lines, and the window showing a buffer.

local M = {}

--- Replace a read-only buffer's lines (left unmodified, so closing asks nothing).
function M.set_lines(bufnr, lines)
  vim.bo[bufnr].modifiable = true
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, lines)
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].modified = false
end

--- A window showing the buffer, or nil.
function M.window_showing(bufnr)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == bufnr then
      return win
    end
  end
  return nil
end

return M
