// lit tests in the Testing view: each open .mlir document with `// RUN:` lines is a test, each
// `// -----` chunk a child (with -split-input-file). A run asks the server's `gpu-lsp.runLitTest`
// (gpu-opt --lit in a child process; docs/lit.md) and marks each chunk passed, failed (with
// the failed CHECK line's message at its location) or skipped (no result: no checks, or a RUN
// line gpu-opt cannot run).

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { SERVER_COMMANDS, litChunks } from './util';

interface LitRow {
  run: number;
  chunk: number;
  passed: boolean;
  line: number;
  message: string;
}

/** Registers the `gpuLsp.lit` test controller; `client()` is the running client, if any. */
export function registerLitTests(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  const controller = vscode.tests.createTestController('gpuLsp.lit', 'gpu-lsp lit tests');
  context.subscriptions.push(controller);

  const discover = (document: vscode.TextDocument): void => {
    if (document.languageId !== 'mlir') return;
    const id = document.uri.toString();
    const text = document.getText();
    if (!/^\s*\/\/\s*RUN:/m.test(text)) {
      controller.items.delete(id);
      return;
    }
    const item = controller.items.get(id) ?? controller.createTestItem(id, vscode.workspace.asRelativePath(document.uri), document.uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    const chunks = litChunks(text);
    item.children.replace(
      chunks.length > 1
        ? chunks.map((c) => {
            const child = controller.createTestItem(`${id}#${c.index}`, `chunk ${c.index} (line ${c.line + 1})`, document.uri);
            child.range = new vscode.Range(c.line, 0, c.line, 0);
            return child;
          })
        : [],
    );
    controller.items.add(item);
  };

  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(discover),
    vscode.workspace.onDidChangeTextDocument((event) => discover(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => controller.items.delete(document.uri.toString())),
  );
  vscode.workspace.textDocuments.forEach(discover);

  controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, async (request, token) => {
    const run = controller.createTestRun(request);
    const roots: vscode.TestItem[] = [];
    if (request.include) request.include.forEach((item) => roots.push(item));
    else controller.items.forEach((item) => roots.push(item));
    for (const item of roots) {
      if (token.isCancellationRequested) break;
      await runItem(client(), run, item);
    }
    run.end();
  });
}

async function runItem(client: LanguageClient | undefined, run: vscode.TestRun, item: vscode.TestItem): Promise<void> {
  const [uri, chunkId] = item.id.split('#');
  const chunk = chunkId === undefined ? 0 : Number(chunkId);
  const items: vscode.TestItem[] = [];
  if (chunkId === undefined && item.children.size > 0) item.children.forEach((child) => items.push(child));
  else items.push(item);
  items.forEach((i) => run.started(i));
  if (client === undefined) {
    items.forEach((i) => run.errored(i, new vscode.TestMessage('The gpu-lsp server is not running.')));
    return;
  }
  let rows: LitRow[];
  try {
    // Through the command the client registers, so the extension's middleware sees it.
    const result = (await vscode.commands.executeCommand(SERVER_COMMANDS.runLitTest, uri, 0, chunk)) as { results?: LitRow[] } | null;
    rows = result?.results ?? [];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    items.forEach((i) => run.errored(i, new vscode.TestMessage(message)));
    return;
  }
  for (const i of items) {
    const index = i.id.includes('#') ? Number(i.id.split('#')[1]) : undefined;
    const mine = rows.filter((r) => index === undefined || r.chunk === index);
    const failed = mine.filter((r) => !r.passed);
    if (mine.length === 0) {
      run.skipped(i);
    } else if (failed.length === 0) {
      run.passed(i);
    } else {
      run.failed(
        i,
        failed.map((r) => {
          const message = new vscode.TestMessage(`RUN ${r.run}: ${r.message}`);
          message.location = new vscode.Location(vscode.Uri.parse(uri), new vscode.Position(Math.max(0, r.line - 1), 0));
          return message;
        }),
      );
    }
  }
}
