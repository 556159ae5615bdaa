-- annoscore for Neovim: the annoscore language server (`annoscore lsp`) for
-- CoNLL-U, segmentation and label files, its score in the status line, and
-- commands for the report, the sentence's tree and going to the next place
-- of a kind (low confidence, refused, unparsed, gold differences …).
--
--   require("annoscore").setup{ cmd = {...}, filetypes = {...},
--     segmentation = {globs}, labels = {globs}, settings = {...} }
--
-- See :help annoscore.

local M = {}

-- The plugin's version: the annoscore release it belongs to (one number for
-- the Python package, the VS Code extension and this plugin; a test holds them equal).
M.version = "0.1.0"

local function detect_conllu()
  if require("annoscore.compat").has_filetype_add then
    vim.filetype.add({ extension = { conllu = "conllu" } })
  else
    -- 0.7's default detection (filetype.vim) ignores vim.filetype.add, and
    -- may have called a file starting with "#" conf: `set`, not `setfiletype`.
    vim.cmd([[
      augroup annoscore.filetype
        autocmd!
        autocmd BufRead,BufNewFile *.conllu if &filetype !=# 'conllu' | set filetype=conllu | endif
      augroup END
    ]])
  end
end

--- Registers the server and the commands. Calling it again replaces the options.
function M.setup(user_options)
  local config = require("annoscore.config")
  local options = config.resolve(user_options)
  config.options = options
  detect_conllu()
  require("annoscore.lsp").register(options)
  require("annoscore.commands").create(options)
  -- A score stays only while the server that sent it is attached: after a
  -- crash or :LspStop the status line must not show figures nobody updates.
  local score = require("annoscore.score")
  local group = vim.api.nvim_create_augroup("annoscore.scores", { clear = true })
  local function forget(bufnr)
    local path = require("annoscore.files").buffer_path(bufnr)
    if path then
      score.forget(path)
    end
  end
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    callback = function(args)
      forget(args.buf)
    end,
  })
  if vim.fn.exists("##LspDetach") == 1 then -- 0.8+
    vim.api.nvim_create_autocmd("LspDetach", {
      group = group,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == "annoscore" then
          forget(args.buf)
          vim.cmd("redrawstatus!")
        end
      end,
    })
  end
end

--- The status line text of a buffer (default: the current one):
--- "LAS 82.51 UAS 85.01 | 1 unparsed, 2 refused, 15 low-conf" once scored,
--- "not scored yet" while the server has not scored it, "" for buffers that
--- are not annoscore's. For a plain statusline:
---   set statusline=%f\ %{v:lua.require'annoscore'.status()}
function M.status(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local files = require("annoscore.files")
  local path = files.buffer_path(bufnr)
  if path == nil then
    return ""
  end
  local payload = require("annoscore.score").get(path)
  if payload ~= nil then
    return require("annoscore.score").text(payload)
  end
  if #require("annoscore.compat").clients(bufnr) > 0 then
    return "not scored yet"
  end
  return ""
end

--- The last `annoscore/score` payload of a buffer (a table), or nil.
function M.score(bufnr)
  local path = require("annoscore.files").buffer_path(bufnr or vim.api.nvim_get_current_buf())
  return path and require("annoscore.score").get(path)
end

function M.rescore(bufnr)
  require("annoscore.commands").rescore(bufnr)
end

function M.show_report(style)
  local config = require("annoscore.config")
  require("annoscore.report").show(vim.api.nvim_get_current_buf(),
    style or (config.options and config.options.report) or "split")
end

--- Goes to the next (direction "next", the default) or previous place of a
--- kind: "low-confidence", "refused", "unparsed", "gold-diff",
--- "segmentation-mismatch", "error". Asynchronous; done(answer) after.
function M.jump(kind, direction, done)
  return require("annoscore.navigation").jump(kind, direction or "next", done)
end

function M.next_low_confidence()
  return M.jump("low-confidence", "next")
end

function M.prev_low_confidence()
  return M.jump("low-confidence", "previous")
end

--- Edits the sentence at the cursor: `name` one of "insert-after",
--- "insert-before", "delete", "split-token", "merge-next", "make-token",
--- "undo-token", "split-sentence", "join-next", "attach", "renumber" (see
--- :help :AnnoscoreEdit); `args` the operation's own (form, head, deprel …),
--- what is missing is asked. Asynchronous; done(outcome) after.
function M.edit(name, args, done)
  return require("annoscore.editing").run(name, args, done)
end

--- Shows the tree of the sentence under the cursor ("split" or "float").
function M.show_tree(style)
  local config = require("annoscore.config")
  require("annoscore.tree").open(style or (config.options and config.options.tree) or "split")
end

return M
