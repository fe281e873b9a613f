-- Headless check of :GpuLspGraph against the real server (tests/lsp/test_lsp_neovim_graph.py):
--
--   GPU_LSP_CMD='["python3", "-m", "gpu_lsp"]' GPU_LSP_OUT=/tmp/graph.json \
--     nvim --headless --clean -u editors/neovim/test/graph_init.lua file.mlir
--
-- Starts the plugin, waits for the client, runs :GpuLspGraph with the viewer off, waits for
-- the page, and writes { "summary": [scratch buffer lines], "page_head": its first line } to
-- GPU_LSP_OUT (Neovim removes its temporary files when it exits). With GPU_LSP_VIA_LENS=1 it
-- runs the server's first "Show async graph" code lens instead (vim.lsp.codelens.run() on its line,
-- choosing it when the line has several), and adds "lenses": the titles offered there.

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
local via_lens = os.getenv('GPU_LSP_VIA_LENS') == '1'
gpu_lsp.setup({ cmd = vim.fn.json_decode(os.getenv('GPU_LSP_CMD')), codelens = via_lens })
local graph = require('gpu_lsp.graph')
graph.viewer = false

vim.defer_fn(function()
  local bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(WAIT_MS, function()
    -- Diagnostics (or, for the lens, lenses) say the server has the document.
    return gpu_lsp.get_client(bufnr) ~= nil and (via_lens or #vim.diagnostic.get(bufnr) > 0)
  end, 50) then
    return finish({ error = 'no client or no diagnostics: ' .. tostring(gpu_lsp.start_error) }, true)
  end
  local lenses
  if via_lens then
    local found = vim.wait(WAIT_MS, function()
      lenses = vim.lsp.codelens.get(bufnr)
      return #lenses > 0
    end, 50)
    local graph_lens
    for _, lens in ipairs(lenses) do
      if not graph_lens and lens.command and lens.command.title == 'Show async graph' then
        graph_lens = lens
      end
    end
    if not found or not graph_lens then
      return finish({ error = 'no "Show async graph" lens', lenses = lenses }, true)
    end
    local offered = {}
    vim.ui.select = function(items, opts, on_choice)
      for _, item in ipairs(items) do
        table.insert(offered, opts.format_item(item))
      end
      for _, item in ipairs(items) do
        if opts.format_item(item) == 'Show async graph' then
          return on_choice(item)
        end
      end
      on_choice(nil)
    end
    vim.api.nvim_win_set_cursor(0, { graph_lens.range.start.line + 1, 0 })
    vim.lsp.codelens.run()
    lenses = #offered > 0 and offered or { graph_lens.command.title }
  else
    vim.cmd('GpuLspGraph')
  end
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
  finish({ summary = summary, page_head = vim.fn.readfile(graph.last_page, '', 1)[1], lenses = lenses })
end, 0)
