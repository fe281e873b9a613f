-- :GpuLspGraph: the async dependency graph of the buffer, from the server's `gpu-lsp/asyncGraph`
-- request (docs/async-graph.md): a text summary in a scratch buffer (one line per stream, then
-- the buffer conflicts), and the self-contained HTML page written to a file and opened with the
-- system viewer.
--
--   require('gpu_lsp.graph').viewer = { 'firefox' }  -- a command; the page's path is appended
--   require('gpu_lsp.graph').viewer = false          -- write the page, do not open it

local M = {}

local METHOD = 'gpu-lsp/asyncGraph'

-- nil: vim.ui.open (0.10+), else xdg-open or open; a list: that command; false: do not open.
M.viewer = nil
-- The path of the last page written.
M.last_page = nil

local function notify(msg, level)
  vim.notify('gpu-lsp: ' .. msg, level or vim.log.levels.INFO)
end

local function lane_name(stream)
  return stream == -1 and 'host' or ('stream ' .. stream)
end

--- The summary lines of a graph document: per function, one line per lane with its ops in
--- order (hazard codes in brackets), then one line per buffer conflict.
function M.summary(document)
  local lines = {}
  for _, fn in ipairs(document.functions or {}) do
    table.insert(lines, '@' .. fn.name .. ': ' .. fn.streams .. ' stream(s), ' .. #fn.nodes .. ' op(s)')
    local lanes, order, labels = {}, {}, {}
    for _, node in ipairs(fn.nodes) do
      local label = node.label
      if #node.hazards > 0 then
        local codes = {}
        for _, hazard in ipairs(node.hazards) do
          table.insert(codes, hazard.code)
        end
        label = label .. ' [' .. table.concat(codes, ', ') .. ']'
      end
      labels[node.id] = node.label
      if not lanes[node.stream] then
        lanes[node.stream] = {}
        table.insert(order, node.stream)
      end
      table.insert(lanes[node.stream], label)
    end
    table.sort(order)
    for _, stream in ipairs(order) do
      table.insert(lines, '  ' .. lane_name(stream) .. ': ' .. table.concat(lanes[stream], ' -> '))
    end
    for _, edge in ipairs(fn.edges) do
      if edge.kind == 'conflict' then
        table.insert(lines, '  conflict on ' .. edge.label .. ': ' .. labels[edge.source] .. ' <-> ' .. labels[edge.target])
      end
    end
  end
  if #lines == 0 then
    lines = { 'no host function issues GPU work in this buffer' }
  end
  return lines
end

local function scratch(name, lines)
  vim.cmd('botright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.cmd('wincmd p')
  return buf
end

--- Opens `path` with the configured viewer.
function M.open(path)
  local viewer = M.viewer
  if viewer == false then
    return
  end
  if type(viewer) == 'table' then
    local cmd = vim.deepcopy(viewer)
    table.insert(cmd, path)
    vim.fn.jobstart(cmd, { detach = true })
  elseif vim.ui.open then
    vim.ui.open(path)
  elseif vim.fn.executable('xdg-open') == 1 then
    vim.fn.jobstart({ 'xdg-open', path }, { detach = true })
  elseif vim.fn.executable('open') == 1 then
    vim.fn.jobstart({ 'open', path }, { detach = true })
  else
    notify('async graph written to ' .. path)
  end
end

--- Asks the server for the graph of `bufnr` (of its function `name` only, if given), shows the
--- summary and writes (and opens) the page.
function M.show(bufnr, name)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local lsp = require('gpu_lsp')
  local document = { uri = vim.uri_from_bufnr(bufnr) }
  lsp.request(METHOD, { textDocument = document, ['function'] = name }, bufnr, function(graph)
    if graph == nil or graph == vim.NIL then
      notify('the server has no graph for this buffer', vim.log.levels.WARN)
      return
    end
    scratch('gpu-lsp://async-graph', M.summary(graph))
    lsp.request(METHOD, { textDocument = document, ['function'] = name, format = 'html' }, bufnr, function(page)
      local path = vim.fn.tempname() .. '.html'
      vim.fn.writefile(vim.split(page, '\n', { plain = true }), path)
      M.last_page = path
      M.open(path)
    end)
  end)
end

return M
