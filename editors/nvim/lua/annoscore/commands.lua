-- The user commands. Each acts on the current buffer.

local compat = require("annoscore.compat")
local navigation = require("annoscore.navigation")
local report = require("annoscore.report")
local tree = require("annoscore.tree")

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

--- Compares the buffer with another annotation of the same text (a file
--- name; none: stop comparing with those added so).
function M.compare(file, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local clients = compat.clients(bufnr)
  if #clients == 0 then
    vim.notify("annoscore: the server is not attached to this buffer", vim.log.levels.WARN)
    return
  end
  local other = vim.NIL
  if file ~= nil and file ~= "" then
    other = vim.uri_from_fname(vim.fn.fnamemodify(file, ":p"))
  end
  local params = { command = "annoscore.compareWith", arguments = { vim.uri_from_bufnr(bufnr), other } }
  for _, client in ipairs(clients) do
    compat.request(client, "workspace/executeCommand", params, function(err)
      if err ~= nil then
        vim.notify("annoscore: compare failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      end
    end, bufnr)
  end
end

function M.create(options)
  local command = vim.api.nvim_create_user_command
  require("annoscore.editing").create()
  command("AnnoscoreCompare", function(args)
    M.compare(args.args)
  end, { nargs = "?", complete = "file",
         desc = "annoscore: compare the file with another annotation of the same text (none: stop)" })
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
  -- :AnnoscoreNext{Kind} / :AnnoscorePrev{Kind}, and :AnnoscoreNext KIND [previous].
  for name, kind in pairs(M.navigation_commands) do
    command("AnnoscoreNext" .. name, function()
      navigation.jump(kind, "next")
    end, { desc = "annoscore: go to the next " .. kind .. " place (no wrapping)" })
    command("AnnoscorePrev" .. name, function()
      navigation.jump(kind, "previous")
    end, { desc = "annoscore: go to the previous " .. kind .. " place (no wrapping)" })
  end
  command("AnnoscoreNext", function(args)
    local kind, direction = args.fargs[1], args.fargs[2] or "next"
    if not vim.tbl_contains(navigation.kinds, kind) then
      vim.notify("annoscore: :AnnoscoreNext KIND [previous], KIND one of " .. table.concat(navigation.kinds, ", "),
        vim.log.levels.WARN)
      return
    end
    navigation.jump(kind, direction == "previous" and "previous" or "next")
  end, {
    nargs = "+",
    complete = function(_, line)
      return #vim.split(line, "%s+") > 2 and { "next", "previous" } or navigation.kinds
    end,
    desc = "annoscore: go to the next (or previous) place of a kind",
  })
  command("AnnoscoreTree", function(args)
    tree.open(args.args ~= "" and args.args or options.tree)
  end, {
    nargs = "?",
    complete = function()
      return { "split", "float" }
    end,
    desc = "annoscore: show the tree of the sentence under the cursor (follows the cursor)",
  })
end

-- The commands that go to a kind's next and previous place.
M.navigation_commands = {
  LowConfidence = "low-confidence",
  Refused = "refused",
  Unparsed = "unparsed",
  GoldDiff = "gold-diff",
  SegmentationMismatch = "segmentation-mismatch",
  Validation = "validation",
  Error = "error",
  Disagreement = "disagreement",
}

return M
