-- The few places where Neovim versions differ, so the other modules read as
-- if there were one Neovim. Supported: 0.7 (start_client), 0.8-0.10
-- (vim.lsp.start), 0.11+ (vim.lsp.config / vim.lsp.enable).

local M = {}

local function has(version)
  return vim.fn.has("nvim-" .. version) == 1
end

--- How this Neovim registers a language server: "config" (0.11+:
--- vim.lsp.config + vim.lsp.enable), "start" (0.8-0.10: vim.lsp.start) or
--- "start_client" (0.7).
M.lsp_api = (has("0.11") and vim.lsp.enable ~= nil and "config")
  or (has("0.8") and vim.lsp.start ~= nil and "start")
  or "start_client"
--- 0.8+: vim.filetype.add is used by the default detection (0.7 needs an autocmd).
M.has_filetype_add = has("0.8")

--- The annoscore clients, optionally only those attached to a buffer.
function M.clients(bufnr)
  local filter = { name = "annoscore", bufnr = bufnr }
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients(filter)
  end
  local found = {}
  if bufnr then
    for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if client.name == "annoscore" then
        table.insert(found, client)
      end
    end
    return found
  end
  for _, client in ipairs(vim.lsp.get_active_clients()) do
    if client.name == "annoscore" then
      table.insert(found, client)
    end
  end
  return found
end

--- client:request on 0.11+ (the dot form is deprecated there), client.request before.
function M.request(client, method, params, handler, bufnr)
  if has("0.11") then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- A diagnostic's LSP code: vim.diagnostic keeps it as `code` (0.7 keeps it
--- only in user_data).
function M.diagnostic_code(diagnostic)
  if diagnostic.code ~= nil then
    return diagnostic.code
  end
  local lsp = diagnostic.user_data and diagnostic.user_data.lsp
  return lsp and lsp.code
end

--- :checkhealth reporters under their 0.10+ names (0.7-0.9: report_*).
function M.health()
  local health = vim.health
  if health and health.start then
    return health
  end
  health = health and health.report_start and health or require("health")
  return {
    start = health.report_start,
    ok = health.report_ok,
    info = health.report_info,
    warn = health.report_warn,
    error = health.report_error,
  }
end

return M
