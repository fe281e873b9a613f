-- Headless check of :GpuLitRun (tests/lit/test_lit_neovim.py): the quickfix list of $TEST as JSON in $OUT.
vim.opt.rtp:prepend(vim.env.PLUGIN)
require('gpu_lsp').setup({ cmd = { vim.env.PY, '-m', 'gpu_lsp' }, autostart = false, codelens = false })
vim.cmd('edit ' .. vim.env.TEST)
vim.cmd('GpuLitRun')
local qf = vim.fn.getqflist()
local out = {}
for _, item in ipairs(qf) do table.insert(out, { lnum = item.lnum, text = item.text }) end
vim.fn.writefile({ vim.json.encode(out) }, vim.env.OUT)
vim.cmd('qa!')
