-- Which buffers are annoscore's, and where their project root is.

local M = {}

--- A Vim regex for a glob, as the server reads globs: a relative pattern
--- ("seg/*.txt") matches the end of the path at a folder boundary, an
--- absolute one ("/data/*.txt") the whole path. (Here "*" may cross "/",
--- so this is a little looser than the server; the server has the last word
--- on a file's format.)
function M.glob_regex(glob)
  local regex = vim.fn.glob2regpat(glob)
  if glob:sub(1, 1) == "/" then
    return regex
  end
  -- glob2regpat anchors at the start ("^seg/.*\.txt$") unless the glob
  -- starts with "*" ("*.lab" -> "\.lab$", already unanchored). Anchor at a
  -- folder boundary instead of the start of the path.
  if regex:sub(1, 1) == "^" then
    regex = [[\(^\|/\)]] .. regex:sub(2)
  end
  return regex
end

--- True when the path matches one of the globs.
function M.matches_any(path, globs)
  path = path:gsub("\\", "/")
  for _, glob in ipairs(globs or {}) do
    if vim.fn.match(path, M.glob_regex(glob)) >= 0 then
      return true
    end
  end
  return false
end

--- The buffer's file name, absolute; nil for buffers that are not files.
function M.buffer_path(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or name:match("^%a[%w+.-]*://") then
    return nil
  end
  return vim.fn.fnamemodify(name, ":p")
end

--- The loaded buffer of a file, by its absolute path (bufnr() would read
--- the name as a pattern).
function M.buffer_of_path(path)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and M.buffer_path(bufnr) == path then
      return bufnr
    end
  end
  return nil
end

--- Whether the server should score this buffer: a configured filetype, or a
--- path matching the segmentation or label globs.
function M.wanted(bufnr, options)
  local path = M.buffer_path(bufnr)
  if path == nil then
    return false
  end
  if vim.tbl_contains(options.filetypes, vim.bo[bufnr].filetype) then
    return true
  end
  return M.matches_any(path, options.segmentation) or M.matches_any(path, options.labels)
end

--- The project root of a file: the folder holding the first of the markers
--- found going up from it (earlier markers win); else the working directory
--- when the file is inside it (one server for a folder of files opened from
--- there); else the file's folder.
function M.root(path, markers)
  local folder = vim.fn.fnamemodify(path, ":h")
  for _, marker in ipairs(markers) do
    -- findfile/finddir with ";" search upward and exist in every version.
    local found = vim.fn.findfile(marker, folder .. ";")
    if found == "" then
      found = vim.fn.finddir(marker, folder .. ";")
    end
    if found ~= "" then
      -- ":p" of a folder ends in "/": drop it so ":h" is the folder above.
      local absolute = vim.fn.fnamemodify(found, ":p"):gsub("/$", "")
      return vim.fn.fnamemodify(absolute, ":h")
    end
  end
  local cwd = vim.fn.getcwd()
  if path:sub(1, #cwd + 1) == cwd .. "/" then
    return cwd
  end
  return folder
end

return M
