-- Headless check of :GpuLspGraph against the real server (tests/lsp/test_lsp_neovim_graph.py):
--
--   GPU_LSP_CMD='["python3", "-m", "gpu_lsp"]' GPU_LSP_OUT=/tmp/graph.json \
--     nvim --headless --clean -u editors/neovim/test/graph_init.lua file.mlir
--
-- Starts the plugin, waits for the client, runs :GpuLspGraph with the viewer off, waits for
-- the page, and writes { "summary": [scratch buffer lines], "page_head": its first line } to
-- GPU_LSP_OUT (Neovim removes its temporary files when it exits).

local WAIT_MS = 20000
local script = debug.getinfo(1, 'S').source:sub(2)
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(script, ':p:h:h'))
vim.opt.swapfile = false

local out_path = os.getenv('GPU_LSP_OUT')

local function finish(result, failed)
  vim.fn.writefile({ vim.fn.json_encode(result) }, out_path)
  vim.cmd(failed and 'cquit! 1' or 'qall!')
end

local gpu_lsp = require('gpu_lsp')
gpu_lsp.setup({ cmd = vim.fn.json_decode(os.getenv('GPU_LSP_CMD')), codelens = false })
local graph = require('gpu_lsp.graph')
graph.viewer = false

vim.defer_fn(function()
  local bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(WAIT_MS, function()
    return gpu_lsp.get_client(bufnr) ~= nil and #vim.diagnostic.get(bufnr) > 0
  end, 50) then
    return finish({ error = 'no client or no diagnostics: ' .. tostring(gpu_lsp.start_error) }, true)
  end
  vim.cmd('GpuLspGraph')
  if not vim.wait(WAIT_MS, function()
    return graph.last_page ~= nil
  end, 50) then
    return finish({ error = 'no page written' }, true)
  end
  local summary
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(buf):find('gpu-lsp://async-graph', 1, true) then
      summary = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    end
  end
  finish({ summary = summary, page_head = vim.fn.readfile(graph.last_page, '', 1)[1] })
end, 0)
