// Generated from gpu_lsp/lsp/manifest.py by `python -m gpu_lsp.lsp.editor_files --write`; do not edit.

/** The extension's own command ids (package.json's contributes.commands). */
export const COMMANDS = {
  restartServer: 'gpuLsp.restartServer',
  runOnGpu: 'gpuLsp.runOnGpu',
  outlineKernel: 'gpuLsp.outlineKernel',
  makeAsync: 'gpuLsp.makeAsync',
  fixAll: 'gpuLsp.fixAll',
  showOutput: 'gpuLsp.showOutput',
  showAsyncGraph: 'gpuLsp.showAsyncGraph',
  showPipeline: 'gpuLsp.showPipeline',
  pipelineNext: 'gpuLsp.pipelineNext',
  pipelinePrevious: 'gpuLsp.pipelinePrevious',
} as const;

/** The server's workspace/executeCommand ids, as it advertises them. */
export const SERVER_COMMANDS = {
  fixAll: 'gpuLsp.server.fixAll',
  runOnGpu: 'gpuLsp.server.runOnGpu',
  runLitTest: 'gpuLsp.server.runLitTest',
  updateCheckLines: 'gpuLsp.server.updateCheckLines',
  outlineKernel: 'gpuLsp.server.outlineKernel',
  makeAsync: 'gpuLsp.server.makeAsync',
} as const;

/** The settings a workspace may not choose in Restricted Mode (package.json's restrictedConfigurations). */
export const RESTRICTED_SETTINGS = ['server.pythonPath', 'server.command', 'server.extraArgs', 'lit.mlirOpt'] as const;
