-- How to install the server, as the plugin's messages say it.
--
-- annoscore is not on PyPI (`pip install annoscore` fails): the server is
-- installed from a clone of the annoscore repository, the same clone this
-- plugin usually comes from (it lives in its editors/nvim folder).  So the
-- messages name that folder when the plugin is inside one.

local M = {}

--- The annoscore repository this plugin file is in (its folder holds
--- pyproject.toml), or nil.
function M.repository()
  local source = debug.getinfo(1, "S").source
  if source:sub(1, 1) ~= "@" then
    return nil
  end
  -- <repository>/editors/nvim/lua/annoscore/install.lua
  local root = vim.fn.fnamemodify(source:sub(2), ":p:h:h:h:h:h")
  if vim.fn.filereadable(root .. "/pyproject.toml") == 1 then
    return root
  end
  return nil
end

--- The shell commands that install the server into a new virtual environment.
function M.commands()
  local repository = M.repository()
  local source = repository and vim.fn.shellescape(repository) or "/path/to/annoscore"
  return "python3 -m venv ~/venvs/annoscore && ~/venvs/annoscore/bin/pip install " .. source
end

--- One sentence: how to install the server, and that it is not on PyPI.
function M.advice()
  local where = M.repository() and "from this plugin's clone of the annoscore repository"
    or "from a clone of the annoscore repository"
  return ("Install the server %s (it is not on PyPI): %s"):format(where, M.commands())
end

return M
