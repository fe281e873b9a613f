-- "Show IR after each pass" (docs/pipelines.md): :GpuLspPipeline PIPELINE asks the server's
-- `gpu-lsp/pipelineSteps` for the IR after each step of PIPELINE on the chunk at the cursor, puts
-- each step in a scratch buffer named `gpu-lsp-ir://N/STEP`, and shows two consecutive steps
-- side by side in diff mode in a new tab; :GpuLspPipelineNext / :GpuLspPipelinePrev move the pair.
-- <CR> in a step buffer jumps to the source of the op on that line, when the op survives from it.
-- Pass names complete from the server's `gpu-lsp/passes`.

local M = { steps = {}, at = 1, source = nil, buffers = {} }

local function scratch(name, text)
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.api.nvim_buf_set_option(buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
  vim.api.nvim_buf_set_option(buf, 'filetype', 'mlir')
  return buf
end

local function jump_to_source()
  local step = M.steps[vim.b.gpu_lsp_step or 0]
  if not step or not M.source then
    return
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local best
  for _, origin in ipairs(step.origins or {}) do
    if origin[1] <= row and (best == nil or origin[1] > best[1]) then
      best = origin
    end
  end
  if best == nil then
    vim.notify('gpu-lsp: this op does not come from the source', vim.log.levels.INFO)
    return
  end
  local win = vim.fn.bufwinid(M.source)
  if win == -1 then
    vim.cmd('tabprevious')
    win = vim.fn.bufwinid(M.source)
  end
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd('buffer ' .. M.source)
  end
  vim.api.nvim_win_set_cursor(0, { best[2] + 1, best[3] })
end

--- Shows steps `i` and `i + 1` side by side in diff mode.
function M.show(i)
  if #M.steps < 2 then
    return
  end
  M.at = math.max(1, math.min(i, #M.steps - 1))
  local left, right = M.buffers[M.at], M.buffers[M.at + 1]
  vim.cmd('tabnew')
  vim.api.nvim_win_set_buf(0, left)
  vim.cmd('diffthis')
  vim.cmd('vsplit')
  vim.api.nvim_win_set_buf(0, right)
  vim.cmd('diffthis')
end

function M.next()
  if M.at < #M.steps - 1 then
    vim.cmd('tabclose')
    M.show(M.at + 1)
  end
end

function M.prev()
  if M.at > 1 then
    vim.cmd('tabclose')
    M.show(M.at - 1)
  end
end

--- Runs `pipeline` on the chunk at the cursor of `bufnr`; `on_done(steps)` after showing them.
function M.run(pipeline, bufnr, on_done)
  local gpu_lsp = require('gpu_lsp')
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, pipeline = pipeline, line = line }
  gpu_lsp.request('gpu-lsp/pipelineSteps', params, bufnr, function(result)
    if type(result) ~= 'table' or type(result.steps) ~= 'table' then
      return
    end
    M.steps, M.source, M.buffers = result.steps, bufnr, {}
    for i, step in ipairs(M.steps) do
      local buf = scratch(string.format('gpu-lsp-ir://%d/%s', i - 1, step.name), step.text)
      vim.api.nvim_buf_set_var(buf, 'gpu_lsp_step', i)
      vim.api.nvim_buf_set_keymap(buf, 'n', '<CR>', '', { callback = jump_to_source, desc = 'gpu-lsp: the source of this op' })
      M.buffers[i] = buf
    end
    M.show(1)
    if on_done then
      on_done(M.steps)
    end
  end, 'Show IR after each pass')
end

--- Completion of :GpuLspPipeline: the pass names, after the last `,` or `(`.
function M.complete(arglead)
  local gpu_lsp = require('gpu_lsp')
  local client = gpu_lsp.get_client(0)
  if not client then
    return {}
  end
  local response = client.request_sync('gpu-lsp/passes', vim.empty_dict(), 5000, 0)
  local head, tail = arglead:match('^(.*[,(])([^,(]*)$')
  head, tail = head or '', tail or arglead
  local out = {}
  for _, p in ipairs(response and response.result or {}) do
    if p.name:sub(1, #tail) == tail then
      table.insert(out, head .. p.name)
    end
  end
  return out
end

return M
