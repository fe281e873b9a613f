-- gpu-lsp client for Neovim 0.7+.
--
--   require('gpu_lsp').setup {
--     cmd = { 'python3', '-m', 'gpu_lsp' },
--     settings = {
--       lint = { select = {}, ignore = {}, severity = {}, mlirVersion = 22 },
--       runner = { backend = 'auto', timeout = 60, maxMemory = 4 * 2^30 },
--     },
--     filetypes = { 'mlir' },
--   }
--
-- Registers the `mlir` filetype for *.mlir, starts the server on `FileType mlir`
-- (vim.lsp.start on 0.8+, vim.lsp.start_client + buf_attach_client on 0.7, one client per
-- root directory), and defines :GpuLspRun, :GpuLspOutline, :GpuLspMakeAsync and
-- :GpuLspFixAll, :GpuLitRun and :GpuLitUpdate (lua/gpu_lsp/lit.lua), which send
-- workspace/executeCommand to the server, :GpuLspGraph (lua/gpu_lsp/graph.lua) and
-- :GpuLspPipeline / :GpuLspPipelineNext / :GpuLspPipelinePrev (lua/gpu_lsp/pipeline.lua). The server applies the resulting edits itself
-- (workspace/applyEdit, handled by Neovim). On attach it sets 'omnifunc' to the LSP one
-- when the buffer has none (0.7; 0.8+ does it itself), and shows the output of a run as
-- text in a scratch buffer.

local M = {}

-- Generated from the server's manifest (gpu_lsp/lsp/manifest.py): option defaults, command ids, :commands.
local manifest = require('gpu_lsp.manifest')
local SERVER = manifest.server_commands
local CLIENT = manifest.client_commands

local NAME = 'gpu_lsp'

local defaults = {
  -- Command that starts the server over stdio.
  cmd = { 'python3', '-m', 'gpu_lsp' },
  -- Sent as initializationOptions, and answered for workspace/configuration section `gpuLsp`.
  -- The server's settings (docs/configuration.md), with the server's defaults.
  -- `lint.mlirVersion` (the LLVM major version you compile with) is unset (nil) by default: the
  -- project's `mlir-version` (pyproject.toml [tool.gpu-lint] / gpu-lint.toml) applies, else 23.
  settings = manifest.settings,
  filetypes = { 'mlir' },
  -- Files or directories that mark the project root (searched upwards from the buffer).
  root_markers = { 'pyproject.toml', '.git' },
  -- Show the server's code lenses ("Run on GPU", "Show async graph") and refresh them as the buffer changes.
  codelens = true,
  -- false: only define the filetype and the :GpuLsp* commands, for a client started
  -- elsewhere (nvim-lspconfig, vim.lsp.enable) under the name `gpu_lsp`.
  autostart = true,
  -- Passed through to the client config.
  on_attach = nil,
  capabilities = nil,
  handlers = nil,
}

M.config = vim.deepcopy(defaults)
-- Set when the server command cannot start (interpreter missing, gpu_lsp not importable).
M.start_error = nil

-- 0.7 only: root directory -> client id.
local clients_by_root = {}
-- Whether the interpreter check has run, and its result (per command string).
local checked_cmds = {}

-- The server, its install check and every child the server starts run outside the workspace:
-- from the plugin's own folder, with PYTHONSAFEPATH=1 so that Python never puts the working
-- directory on sys.path (a `gpu_lsp/` or `json.py` in a repository is never imported).
local NEUTRAL_CWD = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local SAFE_ENV = { PYTHONSAFEPATH = '1' }
-- The install check imports what the server needs.
local IMPORT_CHECK = 'import gpu_lsp, pygls, lsprotocol, lark'

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(msg, level)
  vim.notify('gpu-lsp: ' .. msg, level or vim.log.levels.INFO)
end

-- ---------------------------------------------------------------------------
-- Filetype

--- Maps *.mlir to the `mlir` filetype (vim.filetype.add on 0.8+, an autocmd on 0.7).
function M.register_filetype()
  if has('0.8') then
    vim.filetype.add({ extension = { mlir = 'mlir' } })
  else
    local group = vim.api.nvim_create_augroup('gpu_lsp_filetype', { clear = true })
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = '*.mlir',
      command = 'setfiletype mlir',
    })
  end
end

-- ---------------------------------------------------------------------------
-- Starting the server

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or (vim.uv or vim.loop).cwd()
  local dir = start
  while dir and dir ~= '' do
    for _, marker in ipairs(M.config.root_markers or {}) do
      if (vim.uv or vim.loop).fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return start
end

--- Settings as the server expects them: accepts `{ lint = .., runner = .. }` or `{ gpuLsp = {...} }`.
local function server_settings()
  local s = M.config.settings or {}
  return s.gpuLsp or s
end

--- Checks once per command that `<python> -m gpu_lsp` can import the package; reports
--- the install command when it cannot. Returns false when the server cannot start.
local function check_server(cmd)
  local key = table.concat(cmd, '\0')
  if checked_cmds[key] ~= nil then
    return checked_cmds[key]
  end
  local ok = true
  if vim.fn.executable(cmd[1]) ~= 1 then
    ok = false
    notify(
      string.format("cannot start the server: '%s' is not executable. Install the server from a gpu-lsp checkout"
        .. ' (it is not on PyPI): %s -m pip install .', cmd[1], cmd[1] == '' and 'python3' or cmd[1]),
      vim.log.levels.ERROR
    )
  elseif cmd[2] == '-m' and cmd[3] == 'gpu_lsp' then
    local err = {}
    local job = vim.fn.jobstart({ cmd[1], '-c', IMPORT_CHECK }, {
      cwd = NEUTRAL_CWD,
      env = SAFE_ENV,
      stderr_buffered = true,
      on_stderr = function(_, data)
        err = data or {}
      end,
    })
    local status = job > 0 and vim.fn.jobwait({ job }, 30000)[1] or -1
    if status ~= 0 then
      ok = false
      local last = ''
      for _, line in ipairs(err) do
        if line ~= '' then
          last = line
        end
      end
      notify(
        string.format('the Python interpreter %s cannot import gpu_lsp (%s). Install the server from a gpu-lsp'
          .. ' checkout (it is not on PyPI): %s -m pip install .', cmd[1], last, cmd[1]),
        vim.log.levels.ERROR
      )
    end
  end
  checked_cmds[key] = ok
  if not ok then
    M.start_error = 'cannot start ' .. table.concat(cmd, ' ')
  end
  return ok
end

local function client_config(root)
  local settings = server_settings()
  return {
    name = NAME,
    cmd = M.config.cmd,
    cmd_cwd = NEUTRAL_CWD,
    cmd_env = SAFE_ENV,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = settings,
    settings = { gpuLsp = settings },
    capabilities = M.config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    handlers = M.config.handlers,
    on_exit = function(code, signal)
      if code ~= 0 or (signal or 0) ~= 0 then
        M.start_error = string.format('the server exited with code %s, signal %s', tostring(code), tostring(signal))
      end
    end,
    on_attach = function(client, bufnr)
      if vim.bo[bufnr].omnifunc == '' then
        vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
      end
      if M.config.codelens then
        M.refresh_codelens(bufnr)
      end
      if M.config.on_attach then
        M.config.on_attach(client, bufnr)
      end
    end,
  }
end

--- Starts (or reuses) the client for `bufnr` and attaches it.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  if not check_server(M.config.cmd) then
    return nil
  end
  local root = find_root(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  -- Neovim 0.7: one client per root directory.
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(root))
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- The gpu-lsp client attached to `bufnr`, if any.
function M.get_client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = NAME })[1]
  end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == NAME then
      return client
    end
  end
  return nil
end

local function client_request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.refresh_codelens(bufnr)
  pcall(function()
    if has('0.10') then
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    else
      vim.lsp.codelens.refresh()
    end
  end)
end

-- ---------------------------------------------------------------------------
-- Commands

--- Shows `lines` in the scratch buffer `gpu-lsp://<name>` (reused), below the current window.
function M.show_scratch(name, lines)
  local bufname = 'gpu-lsp://' .. name:gsub('%s+', '-')
  local buf = vim.fn.bufnr(bufname)
  if buf == -1 then
    vim.cmd('botright new')
    buf = vim.api.nvim_get_current_buf()
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
    vim.api.nvim_buf_set_name(buf, bufname)
    vim.cmd('wincmd p') -- keep the cursor in the MLIR buffer
  elseif vim.fn.bufwinnr(buf) == -1 then
    vim.cmd('botright sbuffer ' .. buf)
    vim.cmd('wincmd p')
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  return buf
end

local function text_lines(text)
  local lines = vim.split(text, '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  return lines
end

--- The result of the server's runOnGpu as lines of text: the summary, then the program's
--- output and errors as it printed them.
function M.format_run(result)
  if type(result) ~= 'table' then
    return text_lines(tostring(result))
  end
  local lines = { result.message or result.error or 'no result' }
  local function section(title, text)
    if type(text) == 'string' and text ~= '' then
      table.insert(lines, '')
      table.insert(lines, title .. ':')
      vim.list_extend(lines, text_lines(text))
    end
  end
  section('note', result.note)
  section('stdout', result.stdout)
  section('stderr', result.stderr)
  if result.error and result.message then
    section('error', result.error)
  end
  return lines
end

local function show_result(title, result)
  if result == nil or result == vim.NIL then
    return
  end
  local text = type(result) == 'string' and result or vim.inspect(result)
  if not text:find('\n') and #text <= 200 then
    notify(title .. ': ' .. text)
    return
  end
  M.show_scratch(title, text_lines(text))
end

--- Sends the request `method` to the gpu-lsp client of `bufnr`; `on_result(result)` on success.
--- A failure is reported as "<label> failed: ..." (`label` defaults to the method).
function M.request(method, params, bufnr, on_result, label)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.get_client(bufnr)
  if not client then
    notify('no gpu-lsp client is attached to this buffer', vim.log.levels.WARN)
    return
  end
  client_request(client, method, params, function(err, result)
    if err then
      notify((label or method) .. ' failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    else
      on_result(result)
    end
  end, bufnr)
end

--- Sends workspace/executeCommand to the gpu-lsp client of `bufnr`; `on_result(result)`
--- is called on success (default: show the result).
function M.execute(command, arguments, bufnr, on_result)
  M.request('workspace/executeCommand', { command = command, arguments = arguments }, bufnr, function(result)
    if on_result then
      on_result(result)
    else
      show_result(command, result)
    end
  end, command)
end

local function strip_comment(line)
  local in_string = false
  local i = 1
  while i <= #line do
    local c = line:sub(i, i)
    if in_string then
      if c == '\\' then
        i = i + 1
      elseif c == '"' then
        in_string = false
      end
    elseif c == '"' then
      in_string = true
    elseif c == '/' and line:sub(i + 1, i + 1) == '/' then
      return line:sub(1, i - 1)
    end
    i = i + 1
  end
  return line
end

local function match_function(line)
  local code = ' ' .. strip_comment(line)
  for _, prefix in ipairs({ '[%s=]func%.func%s+@', '[%s=]func%.func%s+%a+%s+@' }) do
    local s, e = code:find(prefix)
    if s then
      local rest = code:sub(e + 1)
      local quoted = rest:match('^"(.-[^\\])"') or rest:match('^""')
      if quoted then
        return quoted == '""' and '' or quoted
      end
      local name = rest:match('^[%w_%.%$%-]+')
      if name then
        return name
      end
    end
  end
  return nil
end

--- Name of the `func.func` enclosing (0-based) `row`, found by searching backwards;
--- stops at a `// -----` split marker.
function M.enclosing_function(bufnr, row)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, row + 1, false)
  for i = #lines, 1, -1 do
    if lines[i]:match('^%s*//%s?%-%-%-%-%-%s*$') then
      return nil
    end
    local name = match_function(lines[i])
    if name then
      return name, i - 1
    end
  end
  return nil
end

local function cursor_position(bufnr)
  local cursor = vim.api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
  local character = col
  local ok, u16
  if has('0.11') then
    ok, u16 = pcall(vim.str_utfindex, line, 'utf-16', col)
  else
    local _
    ok, _, u16 = pcall(vim.str_utfindex, line, col)
  end
  if ok and u16 then
    character = u16
  end
  return row, character
end

--- :GpuLspRun [name]: runs `name`, or the func.func enclosing the cursor, on the GPU.
function M.run(name, bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if name == nil or name == '' then
    name = M.enclosing_function(bufnr, vim.api.nvim_win_get_cursor(0)[1] - 1)
  end
  if not name then
    notify('no func.func above the cursor; use :GpuLspRun <name>', vim.log.levels.WARN)
    return
  end
  notify('running @' .. name .. ' ...')
  M.execute(SERVER.runOnGpu, { vim.uri_from_bufnr(bufnr), name }, bufnr, function(result)
    if result == nil or result == vim.NIL then
      notify('@' .. name .. ' finished')
      return
    end
    M.show_scratch('run', M.format_run(result))
    if type(result) == 'table' and result.message then
      notify(result.message, result.ok == false and vim.log.levels.WARN or vim.log.levels.INFO)
    end
  end)
end

local function at_cursor(command)
  return function()
    local bufnr = vim.api.nvim_get_current_buf()
    local row, character = cursor_position(bufnr)
    M.execute(command, { vim.uri_from_bufnr(bufnr), row, character }, bufnr)
  end
end

M.outline = at_cursor(SERVER.outlineKernel)
M.make_async = at_cursor(SERVER.makeAsync)

-- lit tests (lua/gpu_lsp/lit.lua, docs/lit.md): run RUN line `run` and chunk `chunk` (1-based, 0 or
-- nil: all), the failures into the quickfix list; update the CHECK lines of the chunk at the cursor.
function M.run_lit(bufnr, run, chunk)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  M.execute(SERVER.runLitTest, { vim.uri_from_bufnr(bufnr), run or 0, chunk or 0 }, bufnr, function(result)
    require('gpu_lsp.lit').show(bufnr, result)
  end)
end

function M.update_checks(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local command = require('gpu_lsp.lit').update_command(bufnr, SERVER.updateCheckLines)
  if command == nil then
    notify('no lit chunk with FileCheck at the cursor', vim.log.levels.WARN)
    return
  end
  M.execute(command.command, command.arguments, bufnr)
end

function M.fix_all(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  M.execute(SERVER.fixAll, { vim.uri_from_bufnr(bufnr) }, bufnr)
end

-- What each client command of the manifest's :commands does (`complete`: its argument completion).
local handlers = {
  [CLIENT.runOnGpu] = { run = function(opts) M.run(opts.args) end },
  [CLIENT.outlineKernel] = { run = function() M.outline() end },
  [CLIENT.makeAsync] = { run = function() M.make_async() end },
  [CLIENT.fixAll] = { run = function() M.fix_all() end },
  [CLIENT.showAsyncGraph] = { run = function() require('gpu_lsp.graph').show() end },
  [CLIENT.showPipeline] = {
    run = function(opts) require('gpu_lsp.pipeline').run(opts.args) end,
    complete = function(arglead) return require('gpu_lsp.pipeline').complete(arglead) end,
  },
  [CLIENT.pipelineNext] = { run = function() require('gpu_lsp.pipeline').next() end },
  [CLIENT.pipelinePrevious] = { run = function() require('gpu_lsp.pipeline').prev() end },
  [CLIENT.runLitTest] = { run = function() M.run_lit() end },
  [CLIENT.updateCheckLines] = { run = function() M.update_checks() end },
}

local function define_user_commands()
  for _, c in ipairs(manifest.user_commands) do
    local handler = handlers[c.command]
    vim.api.nvim_create_user_command(c.name, handler.run, { nargs = c.nargs, complete = handler.complete, desc = c.desc })
  end
end

-- ---------------------------------------------------------------------------
-- Setup

--- Configures the plugin; see the top of this file for the options.
function M.setup(opts)
  opts = opts or {}
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts)
  -- Lists replace the defaults rather than being merged index by index.
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    if opts[key] then
      M.config[key] = opts[key]
    end
  end
  checked_cmds = {}
  M.start_error = nil

  M.register_filetype()
  define_user_commands()

  -- Code lens "Run on GPU": run through M.run so the result is shown.
  vim.lsp.commands[SERVER.runOnGpu] = function(command, ctx)
    local args = command.arguments or {}
    M.run(args[2], ctx and ctx.bufnr)
  end
  -- Code lenses "Run lit test" / "Run chunk N" (uri, run, chunk): through M.run_lit, into the quickfix list.
  vim.lsp.commands[SERVER.runLitTest] = function(command, ctx)
    local args = command.arguments or {}
    M.run_lit(type(args[1]) == 'string' and vim.uri_to_bufnr(args[1]) or (ctx and ctx.bufnr), args[2], args[3])
  end
  -- Code lens "Show async graph" (uri, function): a command of the clients, not of the server.
  vim.lsp.commands[CLIENT.showAsyncGraph] = function(command, ctx)
    local args = command.arguments or {}
    local bufnr = type(args[1]) == 'string' and vim.uri_to_bufnr(args[1]) or (ctx and ctx.bufnr)
    require('gpu_lsp.graph').show(bufnr, args[2])
  end

  local group = vim.api.nvim_create_augroup('gpu_lsp', { clear = true })
  if M.config.autostart then
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = M.config.filetypes,
      callback = function(args)
        M.start(args.buf)
      end,
    })
  end
  if M.config.codelens then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      group = group,
      pattern = '*.mlir',
      callback = function(args)
        if M.get_client(args.buf) then
          M.refresh_codelens(args.buf)
        end
      end,
    })
  end

  -- Buffers that already have the filetype (setup called late).
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if M.config.autostart and vim.api.nvim_buf_is_loaded(bufnr)
      and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
      M.start(bufnr)
    end
  end
  return M
end

return M
