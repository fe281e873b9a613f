-- Headless check of the lit commands against the real server (tests/lit/test_lit_neovim.py):
--
--   PLUGIN=editors/neovim PY=.venv/bin/python TEST=t.mlir OUT=out.json LINE=12 \
--     nvim --headless --clean -u editors/neovim/test/lit_init.lua
--
-- Opens $TEST, runs :GpuLitRun, waits for the result and the gpu-lit diagnostics, runs
-- :GpuLitUpdate with the cursor on line $LINE (1-based), waits for the buffer to change, and
-- writes { first, quickfix, diagnostics, buffer } as JSON to $OUT.

vim.opt.runtimepath:prepend(vim.env.PLUGIN)
vim.opt.swapfile = false
local out = {}
local function finish(err)
  out.error = err
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.OUT)
  vim.cmd(err and 'cquit! 1' or 'qall!')
end

local gpu_lsp = require('gpu_lsp')
gpu_lsp.setup({ cmd = { vim.env.PY, '-m', 'gpu_lsp' }, codelens = false })
vim.cmd('edit ' .. vim.env.TEST)
local bufnr = vim.api.nvim_get_current_buf()
if not vim.wait(30000, function() return gpu_lsp.get_client(bufnr) ~= nil end, 50) then
  return finish('the server did not attach')
end

local function run_and_wait(key)
  vim.b[bufnr].gpu_lsp_lit = nil
  vim.cmd('GpuLitRun')
  if not vim.wait(60000, function() return vim.b[bufnr].gpu_lsp_lit ~= nil end, 50) then
    return false
  end
  out[key] = vim.b[bufnr].gpu_lsp_lit
  return true
end

if not run_and_wait('first') then
  return finish('no result from :GpuLitRun')
end
out.quickfix = vim.tbl_map(function(item) return { lnum = item.lnum, text = item.text } end, vim.fn.getqflist())
local function lit_diagnostics()
  return vim.tbl_filter(function(d) return d.source == 'gpu-lit' end, vim.diagnostic.get(bufnr))
end
vim.wait(10000, function() return #lit_diagnostics() > 0 end, 50)
out.diagnostics = vim.tbl_map(function(d) return { lnum = d.lnum, message = d.message } end, lit_diagnostics())

local tick = vim.api.nvim_buf_get_changedtick(bufnr)
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.LINE), 0 })
vim.cmd('GpuLitUpdate')
if not vim.wait(60000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50) then
  return finish('the buffer did not change after :GpuLitUpdate')
end
out.buffer = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
finish(nil)
