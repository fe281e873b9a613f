-- Headless check of the lit and pipeline commands against the real server
-- (tests/lsp/test_lsp_neovim_tools.py):
--
--   PLUGIN=editors/neovim PY=.venv/bin/python TEST=t.mlir OUT=out.json LAUNCH=5 UPDATE=15 \
--     nvim --headless --clean -u editors/neovim/test/tools_init.lua
--
-- Opens $TEST; runs :GpuLitRun and waits for its result and the gpu-lit diagnostics; runs
-- :GpuLitUpdate with the cursor on line $UPDATE and waits for the buffer to change; with the
-- cursor on line $LAUNCH runs :GpuLspPipeline with two passes, notes the diff tab, runs
-- :GpuLspPipelineNext, notes it again, presses <CR> on the line of `func.func @launch` in
-- the last step and notes where the cursor lands; completes a pass name. Writes it all as
-- JSON to $OUT.

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

-- lit
vim.cmd('GpuLitRun')
if not vim.wait(60000, function() return vim.b[bufnr].gpu_lsp_lit ~= nil end, 50) then
  return finish('no result from :GpuLitRun')
end
out.lit = vim.b[bufnr].gpu_lsp_lit
out.quickfix = vim.tbl_map(function(item) return { lnum = item.lnum, text = item.text } end, vim.fn.getqflist())
local function lit_diagnostics()
  return vim.tbl_filter(function(d) return d.source == 'gpu-lit' end, vim.diagnostic.get(bufnr))
end
vim.wait(10000, function() return #lit_diagnostics() > 0 end, 50)
out.diagnostics = vim.tbl_map(function(d) return { lnum = d.lnum, message = d.message } end, lit_diagnostics())
local tick = vim.api.nvim_buf_get_changedtick(bufnr)
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.UPDATE), 0 })
vim.cmd('GpuLitUpdate')
if not vim.wait(60000, function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick end, 50) then
  return finish('the buffer did not change after :GpuLitUpdate')
end
out.updated = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)

-- pipeline
local pipeline = require('gpu_lsp.pipeline')
local function diff_tab()
  local wins = vim.api.nvim_tabpage_list_wins(0)
  return vim.tbl_map(function(w)
    return { name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)), diff = vim.api.nvim_win_get_option(w, 'diff') }
  end, wins)
end
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.LAUNCH), 0 })
local steps
pipeline.run('gpu-launch-sink-index-computations,gpu-kernel-outlining', bufnr, function(s) steps = s end)
if not vim.wait(30000, function() return steps ~= nil end, 50) then
  return finish('no steps from :GpuLspPipeline')
end
out.steps = vim.tbl_map(function(s) return s.name end, steps)
out.first = diff_tab()
vim.cmd('GpuLspPipelineNext')
out.second = diff_tab()
out.outlined = vim.api.nvim_buf_get_lines(0, 0, -1, false)
for i, line in ipairs(out.outlined) do
  if line:find('func.func @launch', 1, true) then
    vim.api.nvim_win_set_cursor(0, { i, 0 })
    break
  end
end
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
out.jumped = { buffer = vim.api.nvim_get_current_buf() == bufnr, line = vim.api.nvim_win_get_cursor(0)[1] }
out.completion = pipeline.complete('gpu-launch-sink-index-computations,gpu-ker')
finish(nil)
