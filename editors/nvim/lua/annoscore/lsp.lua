-- Registering the annoscore server with Neovim's LSP client, the way each
-- version wants it:
--   0.11+     vim.lsp.config + vim.lsp.enable (so :checkhealth vim.lsp and
--             vim.lsp.config("annoscore", {...}) overrides work as usual);
--   0.8-0.10  vim.lsp.start from our own autocommands;
--   0.7       vim.lsp.start_client + vim.lsp.buf_attach_client.

local compat = require("annoscore.compat")
local config = require("annoscore.config")
local files = require("annoscore.files")
local score = require("annoscore.score")

local M = {}

local GROUP = "annoscore.lsp"
local warned_missing_cmd = false
local client_ids_by_root = {} -- 0.7 only: one client per project root

--- The client configuration shared by every version (root_dir aside).
function M.client_config(options)
  local settings = config.server_settings(options)
  if next(settings) == nil then
    -- An empty Lua table would go out as [] instead of {}.
    settings = vim.empty_dict()
  end
  return {
    name = "annoscore",
    cmd = options.cmd,
    cmd_env = { ANNOSCORE_LOG = options.log_level },
    -- Answered to workspace/configuration (section "annoscore") and sent with
    -- workspace/didChangeConfiguration (0.7 only does the latter).
    settings = { annoscore = settings },
    -- The same settings at initialize: the server pulls workspace/configuration
    -- only after `initialized`, and the first didOpen may be scored before then.
    init_options = { annoscore = settings },
    handlers = { ["annoscore/score"] = score.on_score },
    on_attach = function(client, bufnr)
      M.reading_aids(options, bufnr)
      if options.on_attach then
        options.on_attach(client, bufnr)
      end
    end,
  }
end

--- Inlay hints and the highlight of a word's head and dependents in a buffer
--- (as options say; each only where this Neovim has it).
function M.reading_aids(options, bufnr)
  if options.inlay_hints and vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
  end
  if options.highlight then
    local group = vim.api.nvim_create_augroup("annoscore.highlight." .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd("CursorHold", { group = group, buffer = bufnr, callback = function()
      vim.lsp.buf.clear_references()
      vim.lsp.buf.document_highlight()
    end })
    vim.api.nvim_create_autocmd("CursorMoved", { group = group, buffer = bufnr, callback = function()
      vim.lsp.buf.clear_references()
    end })
  end
end

--- Tells the user once, visibly, when the server command cannot run: the LSP
--- client itself only writes that to its log.
local function check_command(options)
  if warned_missing_cmd or vim.fn.executable(options.cmd[1]) == 1 then
    return
  end
  warned_missing_cmd = true
  vim.notify(
    ("annoscore: the server command %q was not found. %s, then set cmd = "
      .. "{ vim.fn.expand('~/venvs/annoscore/bin/annoscore'), 'lsp' } in require('annoscore').setup{} "
      .. "(or put annoscore on PATH). See :checkhealth annoscore"):format(
      options.cmd[1], require("annoscore.install").advice()),
    vim.log.levels.WARN
  )
end

--- The registration in use: the forced one, else what this Neovim has.
function M.api(options)
  return options.lsp_api ~= "auto" and options.lsp_api or compat.lsp_api
end

local function start_on_0_7(client_config, bufnr)
  local root = client_config.root_dir
  local id = client_ids_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if client == nil or client.is_stopped() then
    id = vim.lsp.start_client(client_config)
    client_ids_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- Starts (or reuses) a client for a buffer, without vim.lsp.enable.
local function start(bufnr, options)
  if #compat.clients(bufnr) > 0 or not files.wanted(bufnr, options) then
    return
  end
  check_command(options)
  local api = M.api(options)
  local client_config
  if api == "config" then
    -- Resolved (with any vim.lsp.config overrides); its root_dir is our function.
    client_config = vim.deepcopy(vim.lsp.config.annoscore)
  else
    client_config = M.client_config(options)
  end
  client_config.root_dir = files.root(files.buffer_path(bufnr), options.root_markers)
  if api == "start" or api == "config" then
    -- 0.8's vim.lsp.start attaches the current buffer; later ones take opts.bufnr.
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(client_config, { bufnr = bufnr })
    end)
  else
    start_on_0_7(client_config, bufnr)
  end
end

local function has_globs(options)
  return #options.segmentation > 0 or #options.labels > 0
end

local function register_with_lsp_config(options)
  local client_config = M.client_config(options)
  -- With globs, any filetype may be ours (a .txt segmentation file is
  -- "text"), so root_dir decides; without, the filetypes narrow it first.
  client_config.filetypes = (not has_globs(options)) and options.filetypes or nil
  client_config.root_dir = function(bufnr, on_dir)
    if files.wanted(bufnr, options) then
      check_command(options)
      on_dir(files.root(files.buffer_path(bufnr), options.root_markers))
    end
  end
  -- Assignment, not vim.lsp.config(name, ...): a second setup{} replaces the
  -- first instead of merging into it (a removed filetype stays removed).
  vim.lsp.config.annoscore = client_config
  vim.lsp.enable("annoscore")
end

--- Registers the server for the options' filetypes and globs.
function M.register(options)
  local group = vim.api.nvim_create_augroup(GROUP, { clear = true })
  local api = M.api(options)
  if api == "config" then
    register_with_lsp_config(options)
    -- vim.lsp.enable starts on FileType, which never fires for a file
    -- without a filetype (say corpus.seg): start those ourselves.
    vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
      group = group,
      callback = function(args)
        if vim.bo[args.buf].filetype == "" then
          start(args.buf, options)
        end
      end,
    })
    -- Neovim 0.12 refuses a config whose cmd is not executable before it
    -- asks root_dir, and only writes that to its log: tell the user here.
    vim.api.nvim_create_autocmd("FileType", {
      group = group,
      callback = function(args)
        if files.wanted(args.buf, options) then
          check_command(options)
        end
      end,
    })
  else
    vim.api.nvim_create_autocmd({ "FileType", "BufReadPost", "BufNewFile" }, {
      group = group,
      callback = function(args)
        start(args.buf, options)
      end,
    })
  end
  -- Buffers already open when setup{} runs (lazy loading, or setup from a
  -- later script): vim.lsp.enable does this itself on 0.11+, only for filetyped buffers.
  if vim.v.vim_did_enter == 1 then
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and (api ~= "config" or vim.bo[bufnr].filetype == "") then
        start(bufnr, options)
      end
    end
  end
end

return M
