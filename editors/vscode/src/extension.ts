// VS Code client for gpu-lsp: starts `<python> -m gpu_lsp` over stdio and forwards the
// extension's commands to the server's workspace/executeCommand commands.

import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { registerAsyncGraph } from './graph';
import { registerLitTests } from './litTests';
import { COMMANDS } from './manifest';
import { registerPipeline } from './pipeline';
import {
  SERVER_COMMANDS,
  buildInitializationOptions,
  findEnclosingFunction,
  formatRunResult,
  IMPORT_CHECK,
  installCommand,
  listFunctions,
  resolveServerCommand,
  serverEnvironment,
  RESTRICTED_SETTINGS,
  summarizeResult,
  userOnlyValue,
  type ResolvedCommand,
} from './util';

/** The folder the server and its install check run in: the extension's own, outside any workspace. */
let neutralCwd = __dirname;

const CLIENT_ID = 'gpuLsp';
const CLIENT_NAME = 'GPU LSP';
const LANGUAGE_ID = 'mlir';

type ServerState = 'starting' | 'ready' | 'stopped' | 'error';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let runOutput: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
/** Serialises start/stop/restart so that quick setting changes don't race. */
let lifecycle: Promise<void> = Promise.resolve();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  neutralCwd = context.extensionPath || __dirname;
  output = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  runOutput = vscode.window.createOutputChannel(`${CLIENT_NAME}: Run`);
  statusItem = vscode.window.createStatusBarItem('gpuLsp.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = CLIENT_NAME;
  context.subscriptions.push(output, runOutput, statusItem);

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.restartServer, () => enqueue(restartClient)),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => output.show(true)),
    vscode.commands.registerCommand(COMMANDS.runOnGpu, runOnGpu),
    vscode.commands.registerCommand(COMMANDS.outlineKernel, () =>
      forwardAtCursor(SERVER_COMMANDS.outlineKernel, 'Outline kernel'),
    ),
    vscode.commands.registerCommand(COMMANDS.makeAsync, () => forwardAtCursor(SERVER_COMMANDS.makeAsync, 'Make async')),
    vscode.commands.registerCommand(COMMANDS.fixAll, fixAll),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      output.appendLine('The workspace is now trusted: restarting the server with the workspace settings.');
      void enqueue(restartClient);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // lint.* and runner.* reach the server through workspace/didChangeConfiguration;
      // a different server command needs a new process.
      if (event.affectsConfiguration('gpuLsp.server')) {
        output.appendLine('gpuLsp.server.* changed: restarting the server.');
        void enqueue(restartClient);
      }
    }),
  );

  registerAsyncGraph(context, () => (client?.state === State.Running ? client : undefined));
  registerLitTests(context, () => (client?.state === State.Running ? client : undefined));
  registerPipeline(context, () => (client?.state === State.Running ? client : undefined), litMlirOptIsTheUsers);

  await enqueue(startClient);
}

export async function deactivate(): Promise<void> {
  await enqueue(stopClient);
}

function enqueue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

// ---------------------------------------------------------------------------
// Server lifecycle

function setStatus(state: ServerState, detail?: string): void {
  const icon: Record<ServerState, string> = {
    starting: '$(sync~spin)',
    ready: '$(check)',
    stopped: '$(circle-slash)',
    error: '$(error)',
  };
  const version = state === 'ready' ? client?.initializeResult?.serverInfo?.version : undefined;
  statusItem.text = `${icon[state]} GPU LSP${version ? ` ${version}` : ''}`;
  const restricted = vscode.workspace.isTrusted ? '' : '\nRestricted Mode: user settings only, Run on GPU disabled.';
  statusItem.tooltip = `gpu-lsp server${version ? ` ${version}` : ''}: ${state}${detail ? ` (${detail})` : ''}${restricted}\nClick to ${
    state === 'error' || state === 'stopped' ? 'restart the server' : 'show the server output'
  }.`;
  statusItem.command = state === 'error' || state === 'stopped' ? COMMANDS.restartServer : COMMANDS.showOutput;
  statusItem.backgroundColor =
    state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  statusItem.show();
}

/**
 * A setting that decides which program runs. In Restricted Mode VS Code already ignores the
 * workspace's value of a restricted setting; reading the user's value here keeps that true
 * whatever the host does.
 */
function serverSetting<T>(config: vscode.WorkspaceConfiguration, key: (typeof RESTRICTED_SETTINGS)[number], fallback: T): T {
  if (vscode.workspace.isTrusted) return config.get<T>(key, fallback);
  return userOnlyValue(config.inspect<T>(key), fallback);
}

/**
 * The server command, and the folder it runs in: the extension's own, never the workspace
 * (Python would import a workspace's `gpu_lsp/` or `json.py` from it).
 */
function currentServerCommand(): { resolved: ResolvedCommand; cwd: string } {
  const config = vscode.workspace.getConfiguration('gpuLsp');
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const resolved = resolveServerCommand(
    {
      pythonPath: serverSetting(config, 'server.pythonPath', 'python3'),
      command: serverSetting<string[]>(config, 'server.command', []),
      extraArgs: serverSetting<string[]>(config, 'server.extraArgs', []),
    },
    workspaceFolder,
    vscode.workspace.isTrusted,
  );
  return { resolved, cwd: neutralCwd };
}

/** Checks that `python` can `import gpu_lsp`; resolves to an error text, or undefined when it can. */
function checkImport(python: string, cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', IMPORT_CHECK],
      { cwd, env: serverEnvironment(), timeout: 30_000, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) {
          output.appendLine(`Using gpu_lsp ${stdout.trim()} from ${python}.`);
          resolve(undefined);
        } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve(`the interpreter "${python}" was not found`);
        } else {
          const lastLine = stderr.trim().split(/\r?\n/).pop() ?? error.message;
          resolve(lastLine || error.message);
        }
      },
    );
  });
}

async function reportMissingServer(python: string, reason: string): Promise<void> {
  const install = installCommand(python);
  output.appendLine(`Cannot start gpu-lsp: ${reason}.`);
  output.appendLine(`Install the server from a gpu-lsp checkout (it is not on PyPI): ${install}`);
  const copy = 'Copy Install Command';
  const settings = 'Choose Interpreter';
  const choice = await vscode.window.showErrorMessage(
    `gpu-lsp: the Python interpreter "${python}" cannot import gpu_lsp (${reason}). Install the server from a gpu-lsp checkout (it is not on PyPI): ${install}`,
    copy,
    settings,
  );
  if (choice === copy) {
    await vscode.env.clipboard.writeText(install);
  } else if (choice === settings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'gpuLsp.server.pythonPath');
  }
}

/** Sends clicks on the server's "Run on GPU" code lens through the client command. */
function retargetLens(lens: vscode.CodeLens): vscode.CodeLens {
  if (lens.command?.command === SERVER_COMMANDS.runOnGpu) {
    lens.command = { ...lens.command, command: COMMANDS.runOnGpu };
  }
  return lens;
}

export const middleware: Middleware = {
  async provideCodeLenses(document, token, next) {
    const lenses = await next(document, token);
    return lenses?.map(retargetLens);
  },
  async resolveCodeLens(lens, token, next) {
    const resolved = await next(lens, token);
    return resolved ? retargetLens(resolved) : resolved;
  },
  // The client also registers the server's own `gpu-lsp.*` commands: Run on GPU is refused in
  // Restricted Mode whichever way it is invoked.
  async executeCommand(command, args, next) {
    if (command === SERVER_COMMANDS.runOnGpu && !vscode.workspace.isTrusted) return refuseRun();
    if ((command === SERVER_COMMANDS.runLitTest || command === SERVER_COMMANDS.updateCheckLines) && !litMlirOptIsTheUsers()) {
      throw new Error('gpu-lsp: in Restricted Mode the lit tests run only the mlir-opt of your user settings (gpuLsp.lit.mlirOpt).');
    }
    return next(command, args);
  },
};

/** Whether the `mlir-opt` lit runs and pipelines would use is the user's own (always, in a trusted workspace). */
function litMlirOptIsTheUsers(): boolean {
  const config = vscode.workspace.getConfiguration('gpuLsp');
  return config.get<string | null>('lit.mlirOpt', null) === serverSetting<string | null>(config, 'lit.mlirOpt', null);
}

async function startClient(): Promise<void> {
  if (client) return;
  setStatus('starting');
  const { resolved, cwd } = currentServerCommand();
  if (!vscode.workspace.isTrusted) {
    output.appendLine('Restricted Mode: the server command comes from the user settings only; Run on GPU is disabled.');
  }
  for (const key of resolved.ignored) {
    output.appendLine(`Restricted Mode: gpuLsp.${key} points into the workspace and is ignored.`);
  }
  output.appendLine(`Starting: ${[resolved.command, ...resolved.args].join(' ')} (in ${cwd})`);

  if (resolved.python) {
    const problem = await checkImport(resolved.python, cwd);
    if (problem) {
      setStatus('error', 'gpu_lsp not importable');
      void reportMissingServer(resolved.python, problem);
      return;
    }
  }

  const serverOptions: ServerOptions = {
    command: resolved.command,
    args: resolved.args,
    options: { cwd, env: serverEnvironment() },
  };
  const config = vscode.workspace.getConfiguration('gpuLsp');
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    initializationOptions: buildInitializationOptions((key, fallback) => config.get(key, fallback)),
    synchronize: { configurationSection: 'gpuLsp' },
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware,
    initializationFailedHandler: (error) => {
      output.appendLine(`Initialization failed: ${error instanceof Error ? error.message : String(error)}`);
      setStatus('error', 'initialization failed');
      return false;
    },
  };

  const newClient = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  newClient.onDidChangeState(({ newState }) => {
    if (client !== newClient) return;
    if (newState === State.Starting) setStatus('starting');
    else if (newState === State.Running) setStatus('ready');
    else setStatus(statusItem.text.includes('$(error)') ? 'error' : 'stopped');
  });
  client = newClient;
  try {
    await newClient.start();
    setStatus('ready');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`The server failed to start: ${message}`);
    setStatus('error', 'failed to start');
    client = undefined;
    await newClient.dispose().catch(() => undefined);
    const show = 'Show Output';
    void vscode.window
      .showErrorMessage(`gpu-lsp: the server failed to start: ${message}`, show)
      .then((choice) => (choice === show ? output.show(true) : undefined));
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (!old) return;
  try {
    if (old.isRunning()) await old.stop(5_000);
  } catch (error) {
    output.appendLine(`Stopping the server: ${error instanceof Error ? error.message : String(error)}`);
  }
  await old.dispose().catch(() => undefined);
  setStatus('stopped');
}

async function restartClient(): Promise<void> {
  await stopClient();
  await startClient();
}

// ---------------------------------------------------------------------------
// Commands

async function executeServerCommand(command: string, args: unknown[]): Promise<unknown> {
  await lifecycle;
  if (!client || client.state !== State.Running) {
    const restart = 'Restart Server';
    const choice = await vscode.window.showErrorMessage('gpu-lsp: the server is not running.', restart);
    if (choice === restart) await vscode.commands.executeCommand(COMMANDS.restartServer);
    return undefined;
  }
  try {
    return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.appendLine(`${command} failed: ${message}`);
    void vscode.window.showErrorMessage(`gpu-lsp: ${command} failed: ${message}`);
    throw error;
  }
}

function activeMlirEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== LANGUAGE_ID) {
    void vscode.window.showWarningMessage('gpu-lsp: open an MLIR file first.');
    return undefined;
  }
  return editor;
}

function documentLines(document: vscode.TextDocument): string[] {
  return document.getText().split(/\r?\n/);
}

/** Why Run on GPU is refused in an untrusted workspace. */
export const RUN_REFUSED =
  "gpu-lsp: Run on GPU is disabled in Restricted Mode: it executes this workspace's code on your machine. Trust the workspace to run it.";

function refuseRun(): undefined {
  output.appendLine(RUN_REFUSED);
  const manage = 'Manage Workspace Trust';
  void vscode.window
    .showWarningMessage(RUN_REFUSED, manage)
    .then((choice) => (choice === manage ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
  return undefined;
}

/** `gpuLsp.runOnGpu`: from the code lens with (uri, functionName), or on the function at the cursor. */
async function runOnGpu(uriArg?: unknown, functionArg?: unknown): Promise<unknown> {
  if (!vscode.workspace.isTrusted) return refuseRun();
  let uri: string;
  let functionName: string;
  if (typeof uriArg === 'string' && typeof functionArg === 'string') {
    uri = uriArg;
    functionName = functionArg;
  } else {
    const editor = activeMlirEditor();
    if (!editor) return undefined;
    const lines = documentLines(editor.document);
    const found = findEnclosingFunction(lines, editor.selection.active.line);
    let name = found?.name;
    if (!name) {
      const all = listFunctions(lines);
      if (all.length === 0) {
        void vscode.window.showWarningMessage('gpu-lsp: no func.func in this file to run.');
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        all.map((f) => ({ label: `@${f.name}`, description: `line ${f.line + 1}`, name: f.name })),
        { placeHolder: 'Host function to run on the GPU' },
      );
      name = pick?.name;
    }
    if (!name) return undefined;
    uri = editor.document.uri.toString();
    functionName = name;
  }

  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `gpu-lsp: running @${functionName}…` },
    () => executeServerCommand(SERVER_COMMANDS.runOnGpu, [uri, functionName]),
  );
  runOutput.appendLine(`[${new Date().toLocaleTimeString()}] @${functionName} (${uri})`);
  if (result !== undefined && result !== null) {
    for (const line of formatRunResult(result)) runOutput.appendLine(line);
    runOutput.show(true);
    const summary = summarizeResult(result);
    if (summary) void vscode.window.showInformationMessage(`gpu-lsp: @${functionName}: ${summary}`);
  }
  return result;
}

async function forwardAtCursor(command: string, what: string): Promise<unknown> {
  const editor = activeMlirEditor();
  if (!editor) return undefined;
  const { line, character } = editor.selection.active;
  const result = await executeServerCommand(command, [editor.document.uri.toString(), line, character]);
  const summary = summarizeResult(result);
  if (summary) void vscode.window.showInformationMessage(`gpu-lsp: ${what}: ${summary}`);
  return result;
}

async function fixAll(uriArg?: unknown): Promise<unknown> {
  let uri: string;
  if (typeof uriArg === 'string') uri = uriArg;
  else if (uriArg instanceof vscode.Uri) uri = uriArg.toString();
  else {
    const editor = activeMlirEditor();
    if (!editor) return undefined;
    uri = editor.document.uri.toString();
  }
  return executeServerCommand(SERVER_COMMANDS.fixAll, [uri]);
}
