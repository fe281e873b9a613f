'use strict';
// The "Show Async Graph" webview (src/graph.ts) against a stub of the `vscode` API and a stub
// client: the request it sends, the page it shows, clicks revealing ops, edits refreshing it.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { EXTENSION_ROOT, requireTs } = require('./helpers');

const URI = 'file:///work/a.mlir';

function setup() {
  const calls = { requests: [], panels: [], shown: [], warnings: [] };
  const handlers = { change: [] };
  const document = { languageId: 'mlir', fileName: '/work/a.mlir', uri: { toString: () => URI } };
  class Range {
    constructor(a, b, c, d) {
      Object.assign(this, { start: { line: a, character: b }, end: { line: c, character: d } });
    }
  }
  const stub = {
    Range,
    ViewColumn: { Beside: -2 },
    TextEditorRevealType: { InCenterIfOutsideViewport: 2 },
    commands: { registerCommand: (id, fn) => { calls.command = { id, fn }; return { dispose() {} }; } },
    window: {
      activeTextEditor: { document, viewColumn: 1 },
      visibleTextEditors: [{ document, viewColumn: 1 }],
      showWarningMessage: (msg) => calls.warnings.push(msg),
      createWebviewPanel: (viewType, title, show, options) => {
        const panel = {
          viewType, title, show, options, disposed: [],
          webview: { html: '', onDidReceiveMessage: (fn) => { panel.onMessage = fn; return { dispose: () => panel.disposed.push('message') }; } },
          onDidDispose: (fn) => { panel.dispose = fn; },
        };
        calls.panels.push(panel);
        return panel;
      },
      showTextDocument: async (doc, options) => {
        const editor = { revealed: [], revealRange: (range) => editor.revealed.push(range) };
        calls.shown.push({ doc, options, editor });
        return editor;
      },
    },
    workspace: { onDidChangeTextDocument: (fn) => { handlers.change.push(fn); return { dispose: () => handlers.change.splice(0) }; } },
  };
  let page = 0;
  const client = {
    sendRequest: async (method, params) => {
      calls.requests.push({ method, params });
      page += 1;
      return `<!DOCTYPE html><p>page ${page}</p>`;
    },
  };
  const graph = requireTs(path.join(EXTENSION_ROOT, 'src', 'graph.ts'), stub);
  graph.registerAsyncGraph({ subscriptions: [] }, () => client);
  return { calls, handlers, document, graph };
}

test('opens the server page beside the editor, scripts on, no local resources', async () => {
  const { calls, graph } = setup();
  assert.equal(calls.command.id, graph.SHOW_ASYNC_GRAPH);
  await calls.command.fn();
  assert.deepEqual(calls.requests, [{ method: 'gpu-lsp/asyncGraph', params: { textDocument: { uri: URI }, format: 'html' } }]);
  const [panel] = calls.panels;
  assert.equal(panel.title, 'Async graph: a.mlir');
  assert.equal(panel.show.viewColumn, -2);
  assert.deepEqual(panel.options, { enableScripts: true, localResourceRoots: [] });
  assert.equal(panel.webview.html, '<!DOCTYPE html><p>page 1</p>');
});

test('the code lens arguments (uri, function) ask for that function of that document', async () => {
  const { calls } = setup();
  await calls.command.fn(URI, 'main');
  assert.deepEqual(calls.requests, [
    { method: 'gpu-lsp/asyncGraph', params: { textDocument: { uri: URI }, format: 'html', function: 'main' } },
  ]);
  assert.equal(calls.panels[0].title, 'Async graph: @main in a.mlir');
  await calls.command.fn('file:///work/closed.mlir', 'main');
  assert.equal(calls.panels.length, 1, 'no panel for a document no editor shows');
  assert.deepEqual(calls.warnings, ['gpu-lsp: open an MLIR file first.']);
});

test('a click on an op reveals its range in the editor', async () => {
  const { calls, document } = setup();
  await calls.command.fn();
  const range = { start: { line: 3, character: 4 }, end: { line: 3, character: 19 } };
  await calls.panels[0].onMessage({ type: 'reveal', range });
  await calls.panels[0].onMessage({ type: 'other' });
  assert.equal(calls.shown.length, 1);
  const { doc, options, editor } = calls.shown[0];
  assert.equal(doc, document);
  assert.deepEqual({ ...options.selection }, { start: range.start, end: range.end });
  assert.equal(editor.revealed.length, 1);
});

test('edits of the document refresh the page; closing the panel stops listening', async () => {
  const { calls, handlers, document } = setup();
  await calls.command.fn();
  handlers.change[0]({ document: { uri: { toString: () => 'file:///other.mlir' } } });
  handlers.change[0]({ document });
  handlers.change[0]({ document });
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.equal(calls.requests.length, 2, 'one refresh for two quick edits, none for another file');
  assert.equal(calls.panels[0].webview.html, '<!DOCTYPE html><p>page 2</p>');
  calls.panels[0].dispose();
  assert.equal(handlers.change.length, 0);
});
