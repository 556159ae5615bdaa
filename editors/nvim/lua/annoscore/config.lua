-- The plugin's options: defaults, the user's setup{} merged in, and the
-- server settings derived from them.

local M = {}

M.defaults = {
  -- The command that starts the server. Point it at a virtual environment
  -- with e.g. { vim.fn.expand("~/venvs/ud/bin/annoscore"), "lsp" }.
  cmd = { "annoscore", "lsp" },
  -- Filetypes the server attaches to (this plugin detects *.conllu as conllu).
  filetypes = { "conllu" },
  -- Globs of word-segmentation and label files (relative patterns match the
  -- end of the path, e.g. "seg/*.txt"); also sent to the server as
  -- files.segmentation / files.labels so it knows their format.
  segmentation = {},
  labels = {},
  -- Files or folders that mark the project root (where annoscore.toml is);
  -- without one, the file's own folder.
  root_markers = { "annoscore.toml", "pyproject.toml", ".git" },
  -- The server's "annoscore" settings section: threshold, run, severities,
  -- goldDiff, sentences, maxDiagnostics, maxDiagnosticsPerDocument, files,
  -- validation (UD validation:
  -- { level = "auto"|"off"|1-5, lang = "en", dataDir = "...", exclude = {...} }).
  settings = {},
  -- The server's log level on stderr (ANNOSCORE_LOG): Neovim files every
  -- stderr line in its lsp.log as an error, so only warnings by default.
  log_level = "warning",
  -- Where :AnnoscoreScore shows the report: "split" or "float".
  report = "split",
  -- Where :AnnoscoreTree shows the tree: "split" or "float".
  tree = "split",
  -- Reading aids: show inlay hints (the head word after HEAD and DEPS) in
  -- annoscore's buffers (Neovim 0.10+; the server's inlayHints setting
  -- follows this unless settings.inlayHints is given), and highlight the
  -- word's head and dependents when the cursor rests (CursorHold).
  inlay_hints = true,
  highlight = true,
  -- Called as on_attach(client, bufnr) when the server attaches to a buffer.
  on_attach = nil,
  -- How to register the server: "auto" (what this Neovim has), or "config",
  -- "start", "start_client" to force the 0.11+, 0.8-0.10 or 0.7 way (the
  -- tests run every way on one Neovim).
  lsp_api = "auto",
}

M.options = nil -- set by setup()

local function list(value)
  if value == nil then
    return {}
  end
  if type(value) == "string" then
    return { value }
  end
  return value
end

--- The defaults with the user's options merged in (lists replace, not merge).
function M.resolve(user)
  user = user or {}
  local options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), user)
  for _, key in ipairs({ "cmd", "filetypes", "segmentation", "labels", "root_markers" }) do
    if user[key] ~= nil then
      options[key] = list(vim.deepcopy(user[key]))
    end
  end
  if type(options.cmd) ~= "table" or #options.cmd == 0 then
    error("annoscore: cmd must be a non-empty list, e.g. { 'annoscore', 'lsp' }")
  end
  for _, key in ipairs({ "report", "tree" }) do
    if options[key] ~= "split" and options[key] ~= "float" then
      error(("annoscore: %s must be 'split' or 'float', not %s"):format(key, vim.inspect(options[key])))
    end
  end
  local apis = { auto = true, config = true, start = true, start_client = true }
  if not apis[options.lsp_api] then
    error("annoscore: lsp_api must be auto, config, start or start_client, not " .. vim.inspect(options.lsp_api))
  end
  return options
end

--- The settings section the server reads: the user's settings, with the
--- segmentation and label globs filled in unless given there.
function M.server_settings(options)
  local settings = vim.deepcopy(options.settings or {})
  settings.files = settings.files or {}
  if settings.files.segmentation == nil and #options.segmentation > 0 then
    settings.files.segmentation = options.segmentation
  end
  if settings.files.labels == nil and #options.labels > 0 then
    settings.files.labels = options.labels
  end
  if settings.inlayHints == nil and options.inlay_hints == false then
    settings.inlayHints = false
  end
  if next(settings.files) == nil then
    settings.files = nil
  end
  return settings
end

return M
