-- The user commands. Each acts on the current buffer.

local compat = require("annoscore.compat")
local navigation = require("annoscore.navigation")
local report = require("annoscore.report")

local M = {}

--- Asks the server to rescore the buffer now (for run = "onSave" between saves).
function M.rescore(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local clients = compat.clients(bufnr)
  if #clients == 0 then
    vim.notify("annoscore: the server is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  local params = { command = "annoscore.rescore", arguments = { vim.uri_from_bufnr(bufnr) } }
  for _, client in ipairs(clients) do
    compat.request(client, "workspace/executeCommand", params, function(err)
      if err ~= nil then
        vim.notify("annoscore: rescore failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      end
    end, bufnr)
  end
end

function M.create(options)
  local command = vim.api.nvim_create_user_command
  command("AnnoscoreRescore", function()
    M.rescore()
  end, { desc = "annoscore: rescore the current file now" })
  command("AnnoscoreScore", function(args)
    local style = args.args ~= "" and args.args or options.report
    report.show(vim.api.nvim_get_current_buf(), style)
  end, {
    nargs = "?",
    complete = function()
      return { "split", "float" }
    end,
    desc = "annoscore: show the full score report (split or float)",
  })
  command("AnnoscoreNextLowConfidence", function()
    navigation.jump("next")
  end, { desc = "annoscore: go to the next low-confidence cell" })
  command("AnnoscorePrevLowConfidence", function()
    navigation.jump("previous")
  end, { desc = "annoscore: go to the previous low-confidence cell" })
end

return M
