-- :checkhealth annoscore — is the server there, which version, is it running.

local compat = require("annoscore.compat")

local M = {}

--- The command that prints the server's version: the server command with
--- its final "lsp" replaced by "--version" (so `python -m annoscore lsp`
--- and `uv run annoscore lsp` work too); nil when cmd does not end in "lsp".
function M.version_command(cmd)
  if cmd[#cmd] ~= "lsp" then
    return nil
  end
  local version_cmd = vim.list_slice(cmd, 1, #cmd - 1)
  table.insert(version_cmd, "--version")
  return version_cmd
end

--- Runs a command (a list) for at most `timeout_ms`; returns its exit code
--- and output. jobstart/jobwait exist in every supported version.
local function run(cmd, timeout_ms)
  local output = {}
  local function collect(_, data)
    for _, line in ipairs(data or {}) do
      if line ~= "" then
        table.insert(output, line)
      end
    end
  end
  local ok, job = pcall(vim.fn.jobstart, cmd, { stdout_buffered = true, stderr_buffered = true,
    on_stdout = collect, on_stderr = collect })
  if not ok or job <= 0 then
    return -1, { "could not start: " .. table.concat(cmd, " ") }
  end
  local code = vim.fn.jobwait({ job }, timeout_ms)[1]
  if code == -1 then
    vim.fn.jobstop(job)
    return -1, { "no answer within " .. timeout_ms .. " ms" }
  end
  return code, output
end

function M.check()
  local health = compat.health()
  health.start("annoscore")

  local version = vim.version()
  local options = require("annoscore.config").options
  if options == nil then
    health.warn("setup() has not been called", { "Add require('annoscore').setup{} to your config" })
    options = require("annoscore.config").resolve({})
  else
    health.ok("setup() was called")
  end
  local api_names = { config = "vim.lsp.config / vim.lsp.enable", start = "vim.lsp.start",
    start_client = "vim.lsp.start_client" }
  health.info(("Neovim %d.%d.%d: the server is registered with %s"):format(
    version.major, version.minor, version.patch, api_names[require("annoscore.lsp").api(options)]))

  local cmd = options.cmd
  local program = cmd[1]
  if vim.fn.executable(program) == 0 then
    health.error(("server command not found: %s"):format(program), {
      require("annoscore.install").advice(),
      "Then point the plugin at it: setup{ cmd = { vim.fn.expand('~/venvs/annoscore/bin/annoscore'), 'lsp' } }",
    })
    return
  end
  health.ok(("server command found: %s (%s)"):format(table.concat(cmd, " "), vim.fn.exepath(program)))

  local version_cmd = M.version_command(cmd)
  if version_cmd == nil then
    health.warn("cmd does not end in 'lsp', so its version cannot be asked for")
  else
    local code, output = run(version_cmd, 10000)
    if code == 0 and #output > 0 then
      -- The first line is the version; the next ones (the plain lane) follow as information.
      health.ok("server version: " .. output[1])
      for i = 2, #output do
        health.info(output[i])
      end
    else
      health.error(("%s failed (exit %d)"):format(table.concat(version_cmd, " "), code), output)
    end
  end

  health.info("filetypes: " .. table.concat(options.filetypes, ", ")
    .. "; segmentation globs: " .. (#options.segmentation > 0 and table.concat(options.segmentation, ", ") or "none")
    .. "; label globs: " .. (#options.labels > 0 and table.concat(options.labels, ", ") or "none"))

  local clients = compat.clients()
  if #clients == 0 then
    health.info("no annoscore server is running (open a .conllu file to start one)")
  end
  for _, client in ipairs(clients) do
    health.ok(("server running (client %d), root %s"):format(client.id, tostring(client.config.root_dir)))
  end
end

return M
