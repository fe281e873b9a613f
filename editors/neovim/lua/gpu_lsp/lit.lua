-- :GpuLitRun: the buffer's lit test (its // RUN: lines), chunk by chunk, into the quickfix list.
--
-- Runs `gpu-opt --lit --json` (through the Python of the server's `cmd` when that is
-- `{python, '-m', 'gpu_lsp'}`, else `gpu-opt` from PATH) on the buffer's text, saved or not,
-- and lists each failing chunk at its failed CHECK line (or the chunk's first line) with the
-- expected pattern and the closest output line. Synchronous: it returns when the run ends.

local M = {}

--- The command line that runs `gpu-opt --lit --json FILE`.
function M.command(file)
  local cmd = require('gpu_lsp').config.cmd or {}
  if cmd[2] == '-m' and cmd[3] == 'gpu_lsp' then
    return { cmd[1], '-m', 'gpu_lsp.cli.gpu_opt', '--lit', '--json', file }
  end
  return { 'gpu-opt', '--lit', '--json', file }
end

--- Runs the lit test of `bufnr` and fills the quickfix list; returns (passed, failed) counts.
function M.run(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.fn.tempname() .. '.mlir'
  vim.fn.writefile(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), file)
  local out = vim.fn.systemlist(M.command(file))
  local status = vim.v.shell_error
  vim.fn.delete(file)
  local items, passed, failed = {}, 0, 0
  for _, line in ipairs(out) do
    local ok, r = pcall(vim.json.decode, line)
    if ok and type(r) == 'table' and r.passed ~= nil then
      if r.passed then
        passed = passed + 1
      else
        failed = failed + 1
        local text = string.format('RUN %d, chunk %d: %s', r.run, r.chunk, (r.message or ''):gsub(vim.pesc(file), vim.api.nvim_buf_get_name(bufnr)))
        table.insert(items, { bufnr = bufnr, lnum = r.line, col = 1, type = 'E', text = text })
      end
    end
  end
  if status > 1 then
    vim.notify('gpu-opt --lit: ' .. table.concat(out, ' '), vim.log.levels.ERROR)
    return passed, failed
  end
  vim.fn.setqflist({}, ' ', { title = 'gpu-lsp lit', items = items })
  vim.notify(string.format('lit: %d passed, %d failed', passed, failed), failed > 0 and vim.log.levels.WARN or vim.log.levels.INFO)
  return passed, failed
end

return M
