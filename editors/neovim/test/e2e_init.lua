-- Headless end-to-end check of the Neovim plugin against the real server.
--
--   GPU_LSP_CMD='[".venv/bin/python", "-m", "gpu_lsp"]' GPU_LSP_OUT=/tmp/nvim-e2e.json \
--     nvim --headless --clean -u editors/neovim/test/e2e_init.lua path/to/file.mlir
--
-- Loads the plugin from this repository, opens the file given on the command line, waits
-- up to 15 s for diagnostics, asks for code actions at the first diagnostic, applies the
-- first quick fix (its edit and/or command), waits for the buffer to change, and writes
--
--   { "diagnostics": [...], "actions": ["title", ...], "applied": "title",
--     "buffer": ["line after the fix", ...], "diagnostics_after": [...] }
--
-- to GPU_LSP_OUT. With GPU_LSP_E2E=features it checks the rest of the plugin instead, on a
-- file with an argument-free @main that launches a kernel: the code lenses Neovim shows,
-- 'omnifunc' and completion typed in insert mode after `gpu.` on a new line below
-- GPU_LSP_LINE (1-based), and :GpuLspRun main (NumPy backend) with its scratch buffer:
--
--   { "lenses": [[line, "title", "function"], ...], "omnifunc": "...",
--     "completion": ["word", ...], "run": ["line of the run buffer", ...] }
--
-- Exits with `qall!`, or `cquit! 1` (JSON with an "error" key) on a timeout or failure.
-- Works on Neovim 0.7 and newer.

local DIAGNOSTICS_MS = 15000
local REQUEST_MS = 10000
local CHANGE_MS = 10000
local WATCHDOG_MS = 60000

local script = debug.getinfo(1, 'S').source:sub(2)
local plugin_root = vim.fn.fnamemodify(script, ':p:h:h') -- editors/neovim
vim.opt.runtimepath:prepend(plugin_root)
vim.opt.swapfile = false
vim.opt.shortmess:append('F')

local out_path = os.getenv('GPU_LSP_OUT')
local mode = os.getenv('GPU_LSP_E2E') or 'fix'
local cmd_json = os.getenv('GPU_LSP_CMD')

local finished = false
local function finish(result, failed)
  if finished then
    return
  end
  finished = true
  if out_path and out_path ~= '' then
    vim.fn.writefile({ vim.fn.json_encode(result) }, out_path)
  else
    io.stdout:write(vim.fn.json_encode(result) .. '\n')
  end
  if failed then
    io.stderr:write('gpu-lsp e2e: ' .. tostring(result.error) .. '\n')
    vim.cmd('cquit! 1')
  else
    vim.cmd('qall!')
  end
end

local function fail(message, extra)
  local result = extra or {}
  result.error = message
  finish(result, true)
end

if not out_path or out_path == '' then
  io.stderr:write('gpu-lsp e2e: GPU_LSP_OUT is not set; writing the result to stdout\n')
end
if not cmd_json or cmd_json == '' then
  fail('GPU_LSP_CMD is not set (a JSON array, e.g. ["python3", "-m", "gpu_lsp"])')
  return
end
local ok_cmd, cmd = pcall(vim.fn.json_decode, cmd_json)
if not ok_cmd or type(cmd) ~= 'table' or #cmd == 0 then
  fail('GPU_LSP_CMD is not a JSON array of strings: ' .. cmd_json)
  return
end

require('gpu_lsp').setup({
  cmd = cmd,
  settings = { lint = { select = {}, ignore = {} }, runner = { backend = 'numpy' } },
  codelens = mode == 'features',
})

-- Plain data only (vim.diagnostic entries may carry namespaces and user_data).
local function plain_diagnostics(bufnr)
  local diagnostics = vim.diagnostic.get(bufnr)
  table.sort(diagnostics, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    return a.col < b.col
  end)
  local out = {}
  for _, d in ipairs(diagnostics) do
    table.insert(out, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
      code = d.code,
    })
  end
  return out, diagnostics
end

-- The LSP form of a vim.diagnostic entry (byte columns == UTF-16 columns for ASCII MLIR).
local function to_lsp(d)
  local lsp = (d.user_data and d.user_data.lsp) or {}
  return {
    range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code or lsp.code,
    data = lsp.data,
  }
end

local function request_sync(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, REQUEST_MS)
  if not responses then
    error(method .. ': ' .. tostring(err or 'no response'))
  end
  for _, response in pairs(responses) do
    if response.err then
      error(method .. ': ' .. (response.err.message or vim.inspect(response.err)))
    end
    return response.result
  end
  return nil
end

local function main()
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.api.nvim_buf_get_name(bufnr) == '' then
    return fail('no file given on the command line')
  end
  if vim.bo[bufnr].filetype ~= 'mlir' then
    return fail('filetype is "' .. vim.bo[bufnr].filetype .. '", expected "mlir"')
  end

  local gpu_lsp = require('gpu_lsp')
  local got = vim.wait(DIAGNOSTICS_MS, function()
    return #vim.diagnostic.get(bufnr) > 0 or gpu_lsp.start_error ~= nil
  end, 50)
  if gpu_lsp.start_error then
    return fail(gpu_lsp.start_error .. ' (see the messages above)')
  end
  if not got then
    return fail('timed out after ' .. DIAGNOSTICS_MS .. ' ms waiting for diagnostics')
  end

  local diagnostics, raw = plain_diagnostics(bufnr)
  local first = to_lsp(raw[1])
  local result = { diagnostics = diagnostics, actions = {} }

  local actions = request_sync(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = first.range,
    context = { diagnostics = { first }, triggerKind = 1 },
  }) or {}
  for _, action in ipairs(actions) do
    table.insert(result.actions, action.title)
  end

  local fix
  for _, action in ipairs(actions) do
    if type(action.kind) == 'string' and action.kind:find('^quickfix') then
      fix = action
      break
    end
  end
  fix = fix or actions[1]
  if not fix then
    return fail('no code action at the first diagnostic', result)
  end
  result.applied = fix.title

  local client = require('gpu_lsp').get_client(bufnr)
  if not fix.edit and type(fix.command) ~= 'string' and not fix.command then
    local provider = client and client.server_capabilities.codeActionProvider
    if type(provider) == 'table' and provider.resolveProvider then
      fix = request_sync(bufnr, 'codeAction/resolve', fix) or fix
    end
  end

  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  if fix.edit then
    vim.lsp.util.apply_workspace_edit(fix.edit, client and client.offset_encoding or 'utf-16')
  end
  -- A CodeAction's `command` is a Command table; a bare Command has a string `command`.
  local command = type(fix.command) == 'table' and fix.command or (type(fix.command) == 'string' and fix or nil)
  if command then
    request_sync(bufnr, 'workspace/executeCommand', { command = command.command, arguments = command.arguments })
  end

  local changed = vim.wait(CHANGE_MS, function()
    return vim.api.nvim_buf_get_changedtick(bufnr) > tick
  end, 50)
  result.buffer = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if not changed then
    return fail('the quick fix "' .. tostring(fix.title) .. '" did not change the buffer', result)
  end

  -- Give the server a moment to re-publish for the new version (informational only).
  local before = vim.fn.json_encode(diagnostics)
  vim.wait(3000, function()
    return vim.fn.json_encode((plain_diagnostics(bufnr))) ~= before
  end, 50)
  result.diagnostics_after = (plain_diagnostics(bufnr))

  finish(result, false)
end

-- Polls `check` every 50 ms (the main loop runs in between, insert mode included) and calls
-- `done(value)` with its first non-nil result, or fails after `ms`.
local function poll(ms, what, check, done)
  local deadline = vim.loop.now() + ms
  local function step()
    local ok, value = pcall(check)
    if not ok then
      return fail('error while waiting for ' .. what .. ': ' .. tostring(value))
    end
    if value ~= nil then
      return done(value)
    end
    if vim.loop.now() > deadline then
      return fail('timed out after ' .. ms .. ' ms waiting for ' .. what)
    end
    vim.defer_fn(step, 50)
  end
  step()
end

local function features_main()
  local bufnr = vim.api.nvim_get_current_buf()
  local gpu_lsp = require('gpu_lsp')
  local result = {}
  local line = tonumber(os.getenv('GPU_LSP_LINE') or '')
  if not line then
    return fail('GPU_LSP_LINE is not set (the 1-based line to complete below)')
  end
  poll(DIAGNOSTICS_MS, 'code lenses', function()
    if gpu_lsp.start_error then
      error(gpu_lsp.start_error)
    end
    local lenses = vim.lsp.codelens.get(bufnr)
    return #lenses > 0 and lenses or nil
  end, function(lenses)
    result.lenses = {}
    for _, lens in ipairs(lenses) do
      local command = lens.command or {}
      table.insert(result.lenses, { lens.range.start.line, command.title, (command.arguments or {})[2] })
    end
    result.omnifunc = vim.bo[bufnr].omnifunc
    -- Completion as a user types it: a new line, `gpu.`, then CTRL-X CTRL-O.
    vim.api.nvim_win_set_cursor(0, { line, 0 })
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('o    gpu.<C-x><C-o>', true, false, true), 'nt', false)
    poll(REQUEST_MS, 'the completion menu', function()
      local items = vim.fn.complete_info({ 'items' }).items
      return #items > 0 and items or nil
    end, function(items)
      result.completion = {}
      for _, item in ipairs(items) do
        table.insert(result.completion, item.word)
      end
      local original = vim.api.nvim_buf_line_count(bufnr) - 1
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-e><Esc>u', true, false, true), 'nt', false)
      poll(REQUEST_MS, 'the completion line to be undone', function()
        return vim.fn.mode() == 'n' and vim.api.nvim_buf_line_count(bufnr) == original or nil
      end, function()
        gpu_lsp.run('main', bufnr)
        poll(60000, 'the run buffer gpu-lsp://run', function()
          local run = vim.fn.bufnr('gpu-lsp://run')
          return run ~= -1 and vim.api.nvim_buf_get_lines(run, 0, -1, false) or nil
        end, function(lines)
          result.run = lines
          finish(result, false)
        end)
      end)
    end)
  end)
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.defer_fn(function()
      fail('watchdog: the check took longer than ' .. WATCHDOG_MS .. ' ms')
    end, WATCHDOG_MS)
    vim.schedule(function()
      local ok, err = pcall(mode == 'features' and features_main or main)
      if not ok then
        fail('error: ' .. tostring(err))
      end
    end)
  end,
})
