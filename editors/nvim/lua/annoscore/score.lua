-- The last `annoscore/score` payload of each file, and the status line text
-- made from it. Payloads stay in this Lua table (keyed by absolute path), not
-- in b: variables: their floats would come back as special tables on 0.7.

local M = {}

local payloads = {} -- absolute path -> payload
local listeners = {} -- functions called as fn(path, payload) after each score

-- The figures an annotator watches: attachment scores for a treebank, word
-- F1 for segmentation, accuracy for labels (the same as the VS Code status bar).
M.main_metrics = {
  conllu = { "LAS", "UAS" },
  space = { "Word" },
  tsv = { "Word" },
  labels = { "Accuracy" },
}

local function path_of_uri(uri)
  return vim.fn.fnamemodify(vim.uri_to_fname(uri), ":p")
end

--- A proportion as a percentage with two decimals, as the official scorer prints it.
function M.percent(proportion)
  return string.format("%.2f", proportion * 100)
end

--- The status text for a payload:
--- "LAS 82.51 UAS 85.01 | 1 unparsed, 2 refused, 15 low-conf | 39/40 annotated".
--- Zero counts are left out, and progress once complete, so a clean file has a short status.
function M.text(payload)
  local parts = {}
  if payload.testSplit == true and type(payload.message) == "string" then
    -- Gold is a declared test split: no figures until `evaluate --final`.
    table.insert(parts, payload.message)
  elseif payload.gold == nil or payload.gold == vim.NIL then
    table.insert(parts, "no gold")
  else
    for _, name in ipairs(M.main_metrics[payload.format] or {}) do
      local metric = payload.metrics and payload.metrics[name]
      if type(metric) == "table" and type(metric.f1) == "number" then
        table.insert(parts, name .. " " .. M.percent(metric.f1))
      end
    end
    if #parts == 0 then
      table.insert(parts, "no score")
    end
  end
  local text = table.concat(parts, " ")
  local agreement = M.agreement_text(payload)
  if agreement ~= nil then
    text = (payload.gold == nil or payload.gold == vim.NIL) and agreement or (text .. " | " .. agreement)
  end
  local counts = payload.counts or {}
  local problems = {}
  for _, count in ipairs({ { "unparsed", "unparsed" }, { "refused", "refused" }, { "lowConfidence", "low-conf" } }) do
    local n = counts[count[1]]
    if type(n) == "number" and n > 0 then
      table.insert(problems, string.format("%d %s", n, count[2]))
    end
  end
  if #problems > 0 then
    text = text .. " | " .. table.concat(problems, ", ")
  end
  -- Annotation progress, while it is not complete: sentences with a HEAD in
  -- every word, and those marked done (the progressMarker comment) if any are.
  local progress = payload.progress
  if type(progress) == "table" and type(progress.sentences) == "number" and progress.sentences > 0 then
    local shown = {}
    if type(progress.annotated) == "number" and progress.annotated < progress.sentences then
      table.insert(shown, string.format("%d/%d annotated", progress.annotated, progress.sentences))
    end
    if type(progress.marked) == "number" and progress.marked > 0 then
      table.insert(shown, string.format("%d/%d marked", progress.marked, progress.sentences))
    end
    if #shown > 0 then
      text = text .. " | " .. table.concat(shown, ", ")
    end
  end
  return text
end

--- The agreement with the first other annotation (`agreement` in the payload):
--- "agree bob.conllu LAS 88.65 κ UPOS 0.89 DEPREL 0.91" (nil without one).
function M.agreement_text(payload)
  local entries = payload.agreement
  if type(entries) ~= "table" or #entries == 0 then
    return nil
  end
  local first = entries[1]
  if first.available ~= true then
    return "agree: " .. tostring(first.name) .. " not found"
  end
  local parts = { "agree " .. tostring(first.name) }
  local las = first.attachment and first.attachment.LAS
  if type(las) == "number" then
    table.insert(parts, "LAS " .. M.percent(las))
  end
  local kappas = {}
  for _, name in ipairs({ "UPOS", "DEPREL" }) do
    local variable = first.variables and first.variables[name]
    if type(variable) == "table" and type(variable.kappa) == "number" then
      table.insert(kappas, string.format("%s %.2f", name, variable.kappa))
    end
  end
  if #kappas > 0 then
    table.insert(parts, "κ " .. table.concat(kappas, " "))
  end
  if #entries > 1 then
    table.insert(parts, string.format("(+%d)", #entries - 1))
  end
  return table.concat(parts, " ")
end

--- The handler for the `annoscore/score` notification (same signature on 0.7-0.12).
function M.on_score(err, payload)
  if err ~= nil or type(payload) ~= "table" or type(payload.uri) ~= "string" then
    return
  end
  local path = path_of_uri(payload.uri)
  payloads[path] = payload
  for _, listener in ipairs(listeners) do
    listener(path, payload)
  end
  local function announce()
    -- Redraw every status line (lualine's too), and let users hook in with
    -- `autocmd User AnnoscoreScore`.
    vim.cmd("redrawstatus!")
    local ok = pcall(vim.api.nvim_exec_autocmds, "User",
      { pattern = "AnnoscoreScore", modeline = false, data = { path = path } })
    if not ok then -- 0.7 has no `data`
      vim.api.nvim_exec_autocmds("User", { pattern = "AnnoscoreScore", modeline = false })
    end
  end
  if vim.in_fast_event() then
    vim.schedule(announce)
  else
    announce()
  end
end

function M.on_update(listener)
  table.insert(listeners, listener)
end

function M.get(path)
  return payloads[path]
end

function M.forget(path)
  payloads[path] = nil
end

return M
