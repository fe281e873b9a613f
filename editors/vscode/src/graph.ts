// The async dependency graph in a webview beside the editor: the page the server draws for
// `gpu-lsp/asyncGraph` (self-contained, no network, its own content security policy), refreshed
// as the document changes; clicking an op reveals it in the editor.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { COMMANDS } from './manifest';

export const SHOW_ASYNC_GRAPH = COMMANDS.showAsyncGraph;
const REQUEST = 'gpu-lsp/asyncGraph';
const REFRESH_MS = 400;

interface Position {
  line: number;
  character: number;
}
interface RevealMessage {
  type: 'reveal';
  range: { start: Position; end: Position };
}

function isReveal(message: unknown): message is RevealMessage {
  const m = message as RevealMessage | undefined;
  return m?.type === 'reveal' && typeof m.range?.start?.line === 'number' && typeof m.range?.end?.line === 'number';
}

/** Registers `gpuLsp.showAsyncGraph`; `client()` is the running client, if any. The server's
 * "Show async graph" code lens runs it with `(uri, function)`; the palette with no arguments. */
export function registerAsyncGraph(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_ASYNC_GRAPH, (uri?: unknown, fn?: unknown) =>
      showAsyncGraph(client, typeof uri === 'string' ? uri : undefined, typeof fn === 'string' ? fn : undefined),
    ),
  );
}

/** The editor showing `uri` (the active one when `uri` is not given). */
function editorOf(uri: string | undefined): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (uri === undefined || active?.document.uri.toString() === uri) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
}

async function showAsyncGraph(client: () => LanguageClient | undefined, target?: string, fn?: string): Promise<void> {
  const editor = editorOf(target);
  if (!editor || editor.document.languageId !== 'mlir') {
    void vscode.window.showWarningMessage('gpu-lsp: open an MLIR file first.');
    return;
  }
  const document = editor.document;
  const uri = document.uri.toString();
  const name = document.fileName.split(/[\\/]/).pop() ?? uri;
  const panel = vscode.window.createWebviewPanel(
    'gpuLspAsyncGraph',
    `Async graph: ${fn ? `@${fn} in ` : ''}${name}`,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: true, localResourceRoots: [] },
  );
  const params = { textDocument: { uri }, format: 'html', ...(fn ? { function: fn } : {}) };
  const refresh = async (): Promise<void> => {
    const running = client();
    if (!running) {
      panel.webview.html = '<!DOCTYPE html><p>The gpu-lsp server is not running.</p>';
      return;
    }
    const page = await running.sendRequest<string | null>(REQUEST, params);
    panel.webview.html = page ?? '<!DOCTYPE html><p>The document is not open in the server.</p>';
  };
  let timer: NodeJS.Timeout | undefined;
  const listeners = [
    panel.webview.onDidReceiveMessage(async (message: unknown) => {
      if (!isReveal(message)) return;
      const { start, end } = message.range;
      const range = new vscode.Range(start.line, start.character, end.line, end.character);
      const shown = await vscode.window.showTextDocument(document, { viewColumn: editor.viewColumn, selection: range });
      shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() !== uri) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void refresh(), REFRESH_MS);
    }),
  ];
  panel.onDidDispose(() => {
    if (timer) clearTimeout(timer);
    for (const listener of listeners) listener.dispose();
  });
  await refresh();
}
