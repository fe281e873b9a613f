-- lit tests (docs/lit.md): the results of the server's `gpuLsp.server.runLitTest` in the quickfix list,
-- and "Update CHECK lines" for the chunk at the cursor (the server's code action of that name).

local M = {}

--- Fills the quickfix list with the failing chunks of a run's result; returns (passed, failed).
function M.show(bufnr, result)
  local rows = type(result) == 'table' and result.results or {}
  local items, passed, failed = {}, 0, 0
  for _, r in ipairs(rows) do
    if r.passed then
      passed = passed + 1
    else
      failed = failed + 1
      table.insert(items, { bufnr = bufnr, lnum = r.line, col = 1, type = 'E', text = string.format('RUN %d, chunk %d: %s', r.run, r.chunk, r.message or '') })
    end
  end
  vim.fn.setqflist({}, ' ', { title = 'gpu-lsp lit', items = items })
  vim.b[bufnr].gpu_lsp_lit = { passed = passed, failed = failed }
  vim.notify(string.format('lit: %d passed, %d failed', passed, failed), failed > 0 and vim.log.levels.WARN or vim.log.levels.INFO)
  return passed, failed
end

--- The command of the server's "Update CHECK lines" code action at the cursor (nil when there is none).
function M.update_command(bufnr, command_id)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = row, character = 0 }, ['end'] = { line = row, character = 0 } },
    context = { diagnostics = {} },
  }
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 10000) or {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      if type(action.command) == 'table' and action.command.command == command_id then
        return action.command
      end
    end
  end
  return nil
end

return M
