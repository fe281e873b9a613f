'use strict';
// Activates the extension against a stub of the `vscode` API (no real VS Code can be
// downloaded here) with an interpreter that cannot import gpu_lsp, and checks the
// commands it registers and the error it reports.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EXTENSION_ROOT, requireTs } = require('./helpers');

/** `settings`: effective values (`gpuLsp.key`); `scopes`: per-key `inspect` results; `trusted`: workspace trust. */
function makeVscodeStub(settings, { scopes = {}, trusted = true, workspace = os.tmpdir() } = {}) {
  const calls = { errors: [], warnings: [], infos: [], commands: new Map(), channels: [], statusItems: [], testControllers: [], openHandlers: [] };
  const disposable = { dispose() {} };
  class Base {}
  const channel = (name) => {
    const lines = [];
    const ch = { name, lines, append: (s) => lines.push(s), appendLine: (s) => lines.push(s), show() {}, hide() {}, clear() {},
      replace() {}, dispose() {}, trace: (s) => lines.push(s), debug: (s) => lines.push(s), info: (s) => lines.push(s),
      warn: (s) => lines.push(s), error: (s) => lines.push(String(s)), logLevel: 2, onDidChangeLogLevel: () => disposable };
    calls.channels.push(ch);
    return ch;
  };
  const stub = {
    // Classes the language client extends when it is loaded.
    CompletionItem: class extends Base {},
    CodeLens: class extends Base {},
    DocumentLink: class extends Base {},
    CodeAction: class extends Base {},
    Diagnostic: class extends Base {},
    CallHierarchyItem: class extends Base {},
    TypeHierarchyItem: class extends Base {},
    SymbolInformation: class extends Base {},
    InlayHint: class extends Base {},
    CancellationError: class extends Error {},
    ThemeColor: class { constructor(id) { this.id = id; } },
    Uri: class {},
    StatusBarAlignment: { Left: 1, Right: 2 },
    Range: class { constructor(line, character) { this.line = line; this.character = character; } },
    TestRunProfileKind: { Run: 1 },
    EventEmitter: class { constructor() { this.event = () => disposable; } fire() {} dispose() {} },
    languages: { registerDefinitionProvider: () => disposable },
    tests: {
      createTestController: (id, label) => {
        const collection = () => {
          const map = new Map();
          return { map, get: (k) => map.get(k), add: (i) => map.set(i.id, i), delete: (k) => map.delete(k),
            replace: (items) => { map.clear(); items.forEach((i) => map.set(i.id, i)); }, forEach: (f) => map.forEach((i) => f(i)),
            get size() { return map.size; } };
        };
        const controller = { id, label, items: collection(), profiles: [], dispose() {},
          createTestItem: (itemId, itemLabel, uri) => ({ id: itemId, label: itemLabel, uri, children: collection() }),
          createRunProfile: (name, kind, run) => controller.profiles.push({ name, kind, run }) };
        calls.testControllers.push(controller);
        return controller;
      },
    },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    window: {
      activeTextEditor: undefined,
      createOutputChannel: channel,
      createStatusBarItem: (id) => {
        const item = { id, text: '', tooltip: '', command: undefined, visible: false, show() { this.visible = true; }, hide() {}, dispose() {} };
        calls.statusItems.push(item);
        return item;
      },
      showErrorMessage: (msg, ...items) => { calls.errors.push({ msg, items }); return Promise.resolve(undefined); },
      showWarningMessage: (msg) => { calls.warnings.push(msg); return Promise.resolve(undefined); },
      showInformationMessage: (msg) => { calls.infos.push(msg); return Promise.resolve(undefined); },
      createTerminal: () => ({ show() {}, sendText() {} }),
      withProgress: (_options, task) => task({ report() {} }, { isCancellationRequested: false }),
    },
    commands: {
      registerCommand: (id, fn) => { calls.commands.set(id, fn); return disposable; },
      executeCommand: () => Promise.resolve(undefined),
    },
    workspace: {
      workspaceFolders: [{ uri: { fsPath: workspace } }],
      isTrusted: trusted,
      getConfiguration: (section) => ({
        get: (key, fallback) => settings[`${section}.${key}`] ?? fallback,
        inspect: (key) => scopes[`${section}.${key}`],
      }),
      onDidChangeConfiguration: () => disposable,
      onDidGrantWorkspaceTrust: () => disposable,
      onDidOpenTextDocument: (handler) => { calls.openHandlers.push(handler); return disposable; },
      onDidChangeTextDocument: () => disposable,
      onDidCloseTextDocument: () => disposable,
      textDocuments: [],
      asRelativePath: (uri) => String(uri),
      registerTextDocumentContentProvider: () => disposable,
    },
    env: { clipboard: { writeText: () => Promise.resolve() } },
  };
  return { stub, calls };
}

function fakeInterpreter(dir, stderr) {
  const file = path.join(dir, 'python-without-gpu-lsp');
  fs.writeFileSync(file, `#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "${stderr}" >&2\nexit 1\n`, { mode: 0o755 });
  return file;
}

async function activateWith(settings, options) {
  const { stub, calls } = makeVscodeStub(settings, options);
  const extension = requireTs(path.join(EXTENSION_ROOT, 'src', 'extension.ts'), stub);
  const context = { subscriptions: [] };
  await extension.activate(context);
  return { extension, calls, context };
}

test('registers exactly the contributed commands', async () => {
  const { calls, extension } = await activateWith({ 'gpuLsp.server.pythonPath': '/nonexistent/bin/python3' });
  const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8'));
  assert.deepEqual([...calls.commands.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  await extension.deactivate();
});

test('a missing interpreter gives an error with the install command', async () => {
  const { calls } = await activateWith({ 'gpuLsp.server.pythonPath': '/nonexistent/bin/python3' });
  assert.equal(calls.errors.length, 1, JSON.stringify(calls.errors));
  const { msg, items } = calls.errors[0];
  assert.match(msg, /cannot import gpu_lsp/);
  assert.match(msg, /was not found/);
  assert.ok(msg.includes('/nonexistent/bin/python3 -m pip install .'), msg);
  assert.match(msg, /from a gpu-lsp checkout \(it is not on PyPI\)/);
  assert.deepEqual(items, ['Copy Install Command', 'Choose Interpreter']);
  const status = calls.statusItems[0];
  assert.ok(status.visible && status.text.includes('$(error)'), status.text);
  assert.equal(status.command, 'gpuLsp.restartServer');
});

test('an interpreter without the package reports the import error', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-py-'));
  try {
    const python = fakeInterpreter(dir, "ModuleNotFoundError: No module named 'gpu_lsp'");
    const { calls } = await activateWith({ 'gpuLsp.server.pythonPath': python });
    assert.equal(calls.errors.length, 1);
    assert.match(calls.errors[0].msg, /No module named 'gpu_lsp'/);
    assert.ok(calls.errors[0].msg.includes(`${python} -m pip install .`));
    const log = calls.channels.find((c) => c.name === 'GPU LSP').lines.join('\n');
    assert.match(log, /Install the server from a gpu-lsp checkout \(it is not on PyPI\): .* -m pip install \./);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('commands that need the server say so when it is not running', async () => {
  const { calls } = await activateWith({ 'gpuLsp.server.pythonPath': '/nonexistent/bin/python3' });
  calls.errors.length = 0;
  await calls.commands.get('gpuLsp.runOnGpu')('file:///x.mlir', 'main');
  assert.match(calls.errors.at(-1).msg, /server is not running/);
  // Without an MLIR editor, cursor commands only warn.
  await calls.commands.get('gpuLsp.outlineKernel')();
  assert.match(calls.warnings.at(-1), /open an MLIR file/);
});

test('an untrusted workspace cannot choose the server command, and Run on GPU is refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-trust-'));
  try {
    const marker = path.join(dir, 'ran');
    const evil = path.join(dir, 'evil-server');
    fs.writeFileSync(evil, `#!/bin/sh\ntouch "${marker}"\n`, { mode: 0o755 });
    const user = fakeInterpreter(dir, "ModuleNotFoundError: No module named 'gpu_lsp'");
    // The effective values are the workspace's (as a host without restricted settings would give).
    const settings = { 'gpuLsp.server.command': [evil], 'gpuLsp.server.pythonPath': evil };
    const scopes = {
      'gpuLsp.server.command': { defaultValue: [], workspaceValue: [evil] },
      'gpuLsp.server.pythonPath': { defaultValue: 'python3', globalValue: user, workspaceValue: evil },
      'gpuLsp.server.extraArgs': { defaultValue: [], workspaceValue: ['--evil'] },
    };
    const { calls, extension } = await activateWith(settings, { scopes, trusted: false });
    assert.ok(!fs.existsSync(marker), 'the workspace command ran');
    const log = calls.channels.find((c) => c.name === 'GPU LSP').lines.join('\n');
    assert.match(log, /Restricted Mode: the server command comes from the user settings only/);
    assert.ok(log.includes(`Starting: ${user} -m gpu_lsp (in`), log);
    assert.ok(!log.includes('--evil'), log);
    // The user's interpreter was the one checked.
    assert.match(calls.errors[0].msg, new RegExp(`"${user}" cannot import gpu_lsp`));
    calls.errors.length = 0;
    const result = await calls.commands.get('gpuLsp.runOnGpu')('file:///x.mlir', 'main');
    assert.equal(result, undefined);
    assert.equal(calls.warnings.at(-1), extension.RUN_REFUSED);
    assert.match(extension.RUN_REFUSED, /disabled in Restricted Mode/);
    assert.deepEqual(calls.errors, [], 'refused before trying the server');
    assert.match(calls.statusItems[0].tooltip, /Restricted Mode/);
    // The client's own registration of the server command is refused too; other commands pass.
    const sent = [];
    const next = (command, args) => sent.push([command, args]);
    assert.equal(await extension.middleware.executeCommand('gpuLsp.server.runOnGpu', ['file:///x.mlir', 'main'], next), undefined);
    await extension.middleware.executeCommand('gpuLsp.server.fixAll', ['file:///x.mlir'], next);
    assert.deepEqual(sent, [['gpuLsp.server.fixAll', ['file:///x.mlir']]]);
    await extension.deactivate();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a trusted workspace uses the effective settings', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-trust-'));
  try {
    const workspacePython = fakeInterpreter(dir, 'boom');
    const scopes = { 'gpuLsp.server.pythonPath': { defaultValue: 'python3', workspaceValue: workspacePython } };
    const { calls, extension } = await activateWith({ 'gpuLsp.server.pythonPath': workspacePython }, { scopes, trusted: true });
    assert.match(calls.errors[0].msg, new RegExp(`"${workspacePython}" cannot import gpu_lsp`));
    await extension.deactivate();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// --- a hostile workspace (issue 29): its own gpu_lsp/ and json.py must never be imported ---

const REAL_PYTHON = process.env.GPU_LSP_PYTHON || path.join(EXTENSION_ROOT, '..', '..', '.venv', 'bin', 'python');

/** A workspace whose gpu_lsp/, json.py, pygls/ and lark.py write `marker` when imported. */
function hostileWorkspace(dir) {
  const workspace = path.join(dir, 'repo');
  const marker = path.join(dir, 'IMPORTED');
  const payload = `open(${JSON.stringify(marker)}, 'a').write(__name__ + '\\n')\n`;
  for (const file of ['gpu_lsp/__init__.py', 'json.py', 'pygls/__init__.py', 'lark.py']) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), payload);
  }
  return { workspace, marker };
}

/** Runs the real interpreter as asked, records where and how, then fails so that activation stops after the check. */
function recordingInterpreter(dir) {
  const file = path.join(dir, 'python-recording');
  const record = path.join(dir, 'record.json');
  fs.writeFileSync(
    file,
    `#!/bin/sh\n"${REAL_PYTHON}" "$@" >/dev/null 2>&1\n` +
      `"${REAL_PYTHON}" -c 'import json, os, sys; json.dump({"cwd": os.getcwd(), "safe": os.environ.get("PYTHONSAFEPATH"), "args": sys.argv[1:]}, open(sys.argv[1], "w"))' "${record}" "$@"\n` +
      'echo "stopped after the check" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return { python: file, record };
}

for (const trusted of [true, false]) {
  test(`a hostile ${trusted ? 'trusted' : 'untrusted'} workspace: the install check imports nothing from it`, { skip: !fs.existsSync(REAL_PYTHON) && 'no .venv' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-hostile-'));
    try {
      const { workspace, marker } = hostileWorkspace(dir);
      const { python, record } = recordingInterpreter(dir);
      const scopes = { 'gpuLsp.server.pythonPath': { defaultValue: 'python3', globalValue: python } };
      const { calls, extension } = await activateWith({ 'gpuLsp.server.pythonPath': python }, { scopes, trusted, workspace });
      assert.ok(!fs.existsSync(marker), `workspace code ran: ${fs.existsSync(marker) && fs.readFileSync(marker, 'utf8')}`);
      const seen = JSON.parse(fs.readFileSync(record, 'utf8'));
      assert.ok(!seen.cwd.startsWith(workspace), seen.cwd);
      assert.equal(seen.safe, '1');
      assert.match(seen.args.join(' '), /import gpu_lsp, pygls, lsprotocol, lark/);
      assert.match(calls.errors[0].msg, /stopped after the check/);
      await extension.deactivate();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('an untrusted workspace: a user pythonPath pointing into it is ignored', async () => {
  const scopes = { 'gpuLsp.server.pythonPath': { defaultValue: 'python3', globalValue: '${workspaceFolder}/.venv/bin/python' } };
  const settings = { 'gpuLsp.server.pythonPath': '${workspaceFolder}/.venv/bin/python' };
  const { calls, extension } = await activateWith(settings, { scopes, trusted: false });
  const log = calls.channels.find((c) => c.name === 'GPU LSP').lines.join('\n');
  assert.match(log, /gpuLsp.server.pythonPath points into the workspace and is ignored/);
  assert.match(log, /Starting: python3 -m gpu_lsp \(in /);
  await extension.deactivate();
});

test('an opened lit test is in the Testing view, one child per // ----- chunk', async () => {
  const { calls } = await activateWith({});
  const [controller] = calls.testControllers;
  assert.equal(controller.id, 'gpuLsp.lit');
  assert.deepEqual(controller.profiles.map((p) => p.name), ['Run']);
  const text = '// RUN: mlir-opt %s -split-input-file | FileCheck %s\nfunc.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  return\n}\n';
  const uri = { toString: () => 'file:///t.mlir' };
  calls.openHandlers.forEach((open) => open({ languageId: 'mlir', uri, getText: () => text }));
  const item = controller.items.get('file:///t.mlir');
  assert.ok(item, 'the document is a test');
  const children = [];
  item.children.forEach((c) => children.push([c.id, c.label]));
  assert.deepEqual(children, [['file:///t.mlir#1', 'chunk 1 (line 1)'], ['file:///t.mlir#2', 'chunk 2 (line 6)']]);
  calls.openHandlers.forEach((open) => open({ languageId: 'mlir', uri: { toString: () => 'file:///plain.mlir' }, getText: () => 'func.func @a() {\n}\n' }));
  assert.equal(controller.items.get('file:///plain.mlir'), undefined);
});
