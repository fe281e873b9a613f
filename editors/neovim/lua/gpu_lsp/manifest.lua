-- Generated from gpu_lsp/lsp/manifest.py by `python -m gpu_lsp.lsp.editor_files --write`; do not edit.
return {
  -- The server's settings and their defaults (sent as initializationOptions and the `gpuLsp` section).
  settings = {
    lint = {
      select = {},
      ignore = {},
      severity = vim.empty_dict(),
      reportUndecided = false,
    },
    runner = {
      backend = 'auto',
      timeout = 60,
      maxMemory = 4294967296,
    },
  },
  -- The server's workspace/executeCommand ids.
  server_commands = {
    fixAll = 'gpuLsp.server.fixAll',
    runOnGpu = 'gpuLsp.server.runOnGpu',
    runLitTest = 'gpuLsp.server.runLitTest',
    updateCheckLines = 'gpuLsp.server.updateCheckLines',
    outlineKernel = 'gpuLsp.server.outlineKernel',
    makeAsync = 'gpuLsp.server.makeAsync',
  },
  -- The clients' command ids (a code lens may name one).
  client_commands = {
    restartServer = 'gpuLsp.restartServer',
    runOnGpu = 'gpuLsp.runOnGpu',
    outlineKernel = 'gpuLsp.outlineKernel',
    makeAsync = 'gpuLsp.makeAsync',
    fixAll = 'gpuLsp.fixAll',
    showOutput = 'gpuLsp.showOutput',
    showAsyncGraph = 'gpuLsp.showAsyncGraph',
    showPipeline = 'gpuLsp.showPipeline',
    pipelineNext = 'gpuLsp.pipelineNext',
    pipelinePrevious = 'gpuLsp.pipelinePrevious',
    runLitTest = 'gpuLsp.runLitTest',
    updateCheckLines = 'gpuLsp.updateCheckLines',
  },
  -- The user commands: each runs the client command `command` (init.lua's handler for it).
  user_commands = {
    { name = 'GpuLspRun', command = 'gpuLsp.runOnGpu', nargs = '?', desc = 'gpu-lsp: run a func.func (default: the one at the cursor) on the GPU' },
    { name = 'GpuLspOutline', command = 'gpuLsp.outlineKernel', nargs = 0, desc = 'gpu-lsp: outline the gpu.launch at the cursor into a kernel' },
    { name = 'GpuLspMakeAsync', command = 'gpuLsp.makeAsync', nargs = 0, desc = 'gpu-lsp: make the gpu op at the cursor async' },
    { name = 'GpuLspFixAll', command = 'gpuLsp.fixAll', nargs = 0, desc = 'gpu-lsp: apply every automatic fix in the buffer' },
    { name = 'GpuLspGraph', command = 'gpuLsp.showAsyncGraph', nargs = 0, desc = 'gpu-lsp: show the async dependency graph of the buffer' },
    { name = 'GpuLspPipeline', command = 'gpuLsp.showPipeline', nargs = 1, desc = 'gpu-lsp: the IR after each pass of a pipeline, two steps side by side in diff mode' },
    { name = 'GpuLspPipelineNext', command = 'gpuLsp.pipelineNext', nargs = 0, desc = 'gpu-lsp: the next pair of pipeline steps' },
    { name = 'GpuLspPipelinePrev', command = 'gpuLsp.pipelinePrevious', nargs = 0, desc = 'gpu-lsp: the previous pair of pipeline steps' },
    { name = 'GpuLitRun', command = 'gpuLsp.runLitTest', nargs = 0, desc = 'gpu-lsp: run the buffer\'s lit test chunk by chunk, failures into the quickfix list' },
    { name = 'GpuLitUpdate', command = 'gpuLsp.updateCheckLines', nargs = 0, desc = 'gpu-lsp: rewrite the CHECK lines of the chunk at the cursor from its output' },
  },
}
