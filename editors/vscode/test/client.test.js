'use strict';
// Drives the real gpu-lsp server over stdio the way VS Code's language client does:
// initialize -> initialized -> didChangeConfiguration -> didOpen -> publishDiagnostics ->
// codeAction -> codeLens -> executeCommand gpuLsp.server.fixAll (-> workspace/applyEdit ->
// didChange -> publishDiagnostics) -> shutdown -> exit.
//
//   npm run test:client
//   GPU_LSP_PYTHON=/path/to/python npm run test:client
//
// The interpreter comes from GPU_LSP_PYTHON (default ../../.venv/bin/python, relative to
// editors/vscode) and is started as `<python> -m gpu_lsp` in the repository root.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');

const EXTENSION_ROOT = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(EXTENSION_ROOT, '..', '..');
const PYTHON = process.env.GPU_LSP_PYTHON || path.resolve(EXTENSION_ROOT, '..', '..', '.venv', 'bin', 'python');
const FIXTURE = path.join(__dirname, 'fixtures', 'two_deps.mlir');
const WAIT_MS = 15_000;
const REQUEST_MS = 30_000;

const SERVER_COMMANDS = ['gpuLsp.server.runOnGpu', 'gpuLsp.server.outlineKernel', 'gpuLsp.server.makeAsync', 'gpuLsp.server.fixAll'];

/** What VS Code sends for the `gpuLsp` section (initializationOptions + configuration). */
const GPU_LSP_SETTINGS = {
  server: { pythonPath: PYTHON, command: [], extraArgs: [] },
  trace: { server: 'off' },
  lint: { select: [], ignore: [] },
  runner: { backend: 'numpy' },
};

/** A trimmed copy of the client capabilities VS Code 1.91 + vscode-languageclient 11 send. */
const VSCODE_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ['create', 'rename', 'delete'],
      failureHandling: 'textOnlyTransactional',
      normalizesLineEndings: true,
      changeAnnotationSupport: { groupsOnLabel: true },
    },
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    executeCommand: { dynamicRegistration: true },
    workspaceFolders: true,
    codeLens: { refreshSupport: true },
    diagnostics: { refreshSupport: true },
    symbol: { dynamicRegistration: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: false,
      tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true,
      dataSupport: true,
    },
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports', 'source.fixAll'],
        },
      },
      honorsChangeAnnotations: true,
    },
    codeLens: { dynamicRegistration: true },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
    completion: {
      dynamicRegistration: true,
      contextSupport: true,
      completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'], insertReplaceSupport: true },
    },
    definition: { dynamicRegistration: true, linkSupport: true },
    references: { dynamicRegistration: true },
    documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
  },
  window: {
    workDoneProgress: true,
    showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
    showDocument: { support: true },
  },
  general: {
    staleRequestSupport: { cancel: true, retryOnContentModified: [] },
    regularExpressions: { engine: 'ECMAScript', version: 'ES2020' },
    markdown: { parser: 'marked', version: '1.1.0' },
    positionEncodings: ['utf-16'],
  },
};

// ---------------------------------------------------------------------------
// Small helpers

function offsetAt(text, position) {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + position.character, text.length);
}

/** Applies LSP TextEdits (non-overlapping, original coordinates) to `text`. */
function applyTextEdits(text, edits) {
  const resolved = edits
    .map((e, i) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText, i }))
    .sort((a, b) => b.start - a.start || b.i - a.i);
  for (const e of resolved) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
  return text;
}

/** The TextEdits of a WorkspaceEdit for one document (`changes` or `documentChanges`). */
function editsFor(workspaceEdit, uri) {
  const edits = [];
  if (workspaceEdit.changes && workspaceEdit.changes[uri]) edits.push(...workspaceEdit.changes[uri]);
  for (const change of workspaceEdit.documentChanges ?? []) {
    if (change.textDocument && change.textDocument.uri === uri) edits.push(...change.edits);
  }
  return edits;
}

/** Dependencies of every `gpu.launch_func async [...]` in `text`. */
function launchFuncDependencies(text) {
  return [...text.matchAll(/gpu\.launch_func\s+async\s*\[([^\]]*)\]/g)].map((m) =>
    m[1].split(',').map((s) => s.trim()).filter(Boolean),
  );
}

/** Records every message from the server and lets tests wait for one after a given point. */
class Inbox {
  constructor() {
    this.items = [];
    this.waiters = [];
    this.failure = undefined;
  }

  push(kind, method, params) {
    this.items.push({ kind, method, params });
    this.waiters = this.waiters.filter((w) => !this.tryResolve(w));
  }

  fail(error) {
    this.failure = error;
    for (const w of this.waiters) w.reject(error);
    this.waiters = [];
  }

  tryResolve(w) {
    for (let i = w.from; i < this.items.length; i++) {
      const item = this.items[i];
      if (item.method === w.method && w.predicate(item.params)) {
        clearTimeout(w.timer);
        w.resolve(item.params);
        return true;
      }
    }
    return false;
  }

  /** Position to pass as `from` to only see messages arriving after now. */
  mark() {
    return this.items.length;
  }

  waitFor(method, predicate = () => true, { from = 0, timeout = WAIT_MS, what = method } = {}) {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const w = { method, predicate, from, resolve, reject };
      if (this.tryResolve(w)) return;
      w.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out after ${timeout} ms waiting for ${what}`));
      }, timeout);
      this.waiters.push(w);
    });
  }
}

// ---------------------------------------------------------------------------

test('gpu-lsp over stdio, driven like VS Code', { timeout: 120_000 }, async (t) => {
  if (process.env.GPU_LSP_PYTHON === undefined) {
    assert.ok(fs.existsSync(PYTHON), `no interpreter at ${PYTHON}: create the venv (make test) or set GPU_LSP_PYTHON`);
  }

  const server = spawn(PYTHON, ['-m', 'gpu_lsp'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));

  const inbox = new Inbox();
  let shuttingDown = false;
  let died;
  const death = new Promise((_resolve, reject) => {
    died = reject;
  });
  death.catch(() => undefined); // only observed through `request`
  let deathReason;
  const fail = (error) => {
    deathReason ??= error;
    inbox.fail(error);
    died(error);
  };
  /** Runs a step as a subtest, skipped once the server has died (the first failure says why). */
  const step = (name, fn) => t.test(name, { skip: deathReason ? `the server died: ${deathReason.message.split(/[;\n]/)[0]}` : false }, fn);
  server.on('error', (error) => fail(new Error(`cannot start ${PYTHON} -m gpu_lsp: ${error.message}`)));
  server.on('exit', (code, signal) => {
    if (!shuttingDown) fail(new Error(`the server exited early (code ${code}, signal ${signal}); stderr:\n${stderr}`));
  });

  const connection = createProtocolConnection(
    new StreamMessageReader(server.stdout),
    new StreamMessageWriter(server.stdin),
  );

  const uri = pathToFileURL(FIXTURE).href;
  const document = { uri, version: 1, text: fs.readFileSync(FIXTURE, 'utf8') };
  const appliedEdits = [];

  connection.onNotification((method, params) => inbox.push('notification', method, params));
  connection.onRequest((method, params) => {
    inbox.push('request', method, params);
    switch (method) {
      case 'workspace/configuration':
        return params.items.map((item) => {
          if (!item.section) return null;
          if (item.section === 'gpuLsp') return GPU_LSP_SETTINGS;
          if (item.section.startsWith('gpuLsp.')) {
            return item.section.split('.').slice(1).reduce((v, k) => (v == null ? v : v[k]), GPU_LSP_SETTINGS) ?? null;
          }
          return null;
        });
      case 'workspace/workspaceFolders':
        return [{ uri: pathToFileURL(REPO_ROOT).href, name: 'gpu-lsp' }];
      case 'workspace/applyEdit': {
        const edits = editsFor(params.edit, document.uri);
        if (edits.length === 0) return { applied: false, failureReason: 'no edits for the open document' };
        document.text = applyTextEdits(document.text, edits);
        document.version += 1;
        appliedEdits.push(params);
        connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: document.uri, version: document.version },
          contentChanges: [{ text: document.text }],
        });
        return { applied: true };
      }
      default:
        // client/registerCapability, window/workDoneProgress/create, */refresh,
        // window/showMessageRequest, window/showDocument, ...
        return null;
    }
  });
  connection.onError(([error]) => fail(error));
  connection.listen();

  /** sendRequest that fails fast when the server dies, and after REQUEST_MS. */
  const request = (method, params) => {
    let timer;
    const timeout = new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${REQUEST_MS} ms`)), REQUEST_MS);
    });
    const answer = Promise.resolve().then(() => connection.sendRequest(method, params));
    return Promise.race([answer, death, timeout]).finally(() => clearTimeout(timer));
  };

  try {
    let capabilities;
    await step('initialize', async () => {
      const result = await request('initialize', {
        processId: process.pid,
        clientInfo: { name: 'Visual Studio Code', version: '1.91.0' },
        locale: 'en',
        rootPath: REPO_ROOT,
        rootUri: pathToFileURL(REPO_ROOT).href,
        workspaceFolders: [{ uri: pathToFileURL(REPO_ROOT).href, name: 'gpu-lsp' }],
        capabilities: VSCODE_CAPABILITIES,
        initializationOptions: { lint: GPU_LSP_SETTINGS.lint, runner: GPU_LSP_SETTINGS.runner },
        trace: 'off',
      });
      capabilities = result.capabilities;
      t.diagnostic(`serverInfo: ${JSON.stringify(result.serverInfo)}`);
      assert.ok(capabilities.textDocumentSync !== undefined, 'textDocumentSync');
      assert.ok(capabilities.codeActionProvider, 'codeActionProvider');
      assert.ok(capabilities.codeLensProvider, 'codeLensProvider');
      const commands = capabilities.executeCommandProvider?.commands ?? [];
      for (const command of SERVER_COMMANDS) assert.ok(commands.includes(command), `executeCommandProvider lists ${command}`);
      connection.sendNotification('initialized', {});
      connection.sendNotification('workspace/didChangeConfiguration', { settings: { gpuLsp: GPU_LSP_SETTINGS } });
    });

    const launchLine = document.text.split('\n').findIndex((l) => l.includes('gpu.launch_func async [%t2, %t3]'));
    assert.ok(launchLine > 0, 'fixture has the two-dependency launch');
    let diagnostic;
    await step('didOpen publishes a diagnostic on the two-dependency gpu.launch_func', async () => {
      const from = inbox.mark();
      connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'mlir', version: document.version, text: document.text },
      });
      const published = await inbox.waitFor(
        'textDocument/publishDiagnostics',
        (p) => p.uri === uri && p.diagnostics.length > 0,
        { from, what: `diagnostics for ${uri}` },
      );
      t.diagnostic(`diagnostics: ${JSON.stringify(published.diagnostics.map((d) => [d.range.start.line, d.code, d.message]))}`);
      diagnostic = published.diagnostics.find((d) => d.range.start.line <= launchLine && launchLine <= d.range.end.line);
      assert.ok(diagnostic, `a diagnostic on line ${launchLine + 1}`);
      assert.match(diagnostic.message, /depend|async|token|wait/i);
      assert.ok([1, 2, 3, 4].includes(diagnostic.severity ?? 1), 'severity');
    });

    await step('codeAction at the diagnostic offers a quick fix that leaves one dependency', async () => {
      assert.ok(diagnostic, 'needs the diagnostic');
      const actions = await request('textDocument/codeAction', {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic], triggerKind: 1 },
      });
      assert.ok(Array.isArray(actions) && actions.length > 0, 'some code actions');
      t.diagnostic(`actions: ${JSON.stringify(actions.map((a) => [a.title, a.kind]))}`);
      let fix = actions.find((a) => typeof a.kind === 'string' && a.kind.startsWith('quickfix'));
      assert.ok(fix, 'a quickfix action');
      if (!fix.edit && !fix.command && capabilities.codeActionProvider.resolveProvider) {
        fix = await request('codeAction/resolve', fix);
      }
      assert.ok(fix.edit || fix.command, 'the quick fix has an edit or a command');
      if (fix.edit) {
        const fixed = applyTextEdits(document.text, editsFor(fix.edit, uri));
        assert.notEqual(fixed, document.text);
        for (const deps of launchFuncDependencies(fixed)) assert.ok(deps.length <= 1, `launch_func deps after the fix: ${deps}`);
      }
    });

    await step('codeLens offers "Run on GPU" for @main', async () => {
      const lenses = (await request('textDocument/codeLens', { textDocument: { uri } })) ?? [];
      const resolved = [];
      for (const lens of lenses) {
        resolved.push(
          !lens.command && capabilities.codeLensProvider.resolveProvider
            ? await request('codeLens/resolve', lens)
            : lens,
        );
      }
      t.diagnostic(`lenses: ${JSON.stringify(resolved.map((l) => l.command))}`);
      const run = resolved.find((l) => l.command && l.command.command === 'gpuLsp.server.runOnGpu');
      assert.ok(run, 'a lens with command gpuLsp.server.runOnGpu');
      assert.match(run.command.title, /Run on GPU/);
      assert.deepEqual(run.command.arguments?.slice(0, 2), [uri, 'main']);
    });

    await step('executeCommand gpuLsp.server.fixAll edits the document through workspace/applyEdit', async () => {
      assert.ok(diagnostic, 'needs the diagnostic');
      const from = inbox.mark();
      const before = document.text;
      await request('workspace/executeCommand', { command: 'gpuLsp.server.fixAll', arguments: [uri] });
      await inbox.waitFor('workspace/applyEdit', () => true, { from, what: 'workspace/applyEdit' });
      assert.ok(appliedEdits.length > 0, 'an edit for the open document');
      assert.notEqual(document.text, before);
      const deps = launchFuncDependencies(document.text);
      assert.ok(deps.length > 0, 'the launch is still async');
      for (const d of deps) assert.ok(d.length <= 1, `launch_func deps after fixAll: ${d}`);
      const joined = [...document.text.matchAll(/gpu\.wait\s+async\s*\[([^\]]*)\]/g)].some(
        (m) => m[1].includes('%t2') && m[1].includes('%t3'),
      );
      assert.ok(joined, 'a gpu.wait async joins %t2 and %t3');

      // After the didChange the server re-publishes, without the original problem.
      const republished = await inbox.waitFor(
        'textDocument/publishDiagnostics',
        (p) => p.uri === uri && (p.version === undefined || p.version === null || p.version >= document.version),
        { from, what: 'diagnostics after the fix' },
      );
      const same = republished.diagnostics.filter((d) =>
        diagnostic.code !== undefined ? d.code === diagnostic.code : d.message === diagnostic.message,
      );
      assert.deepEqual(same, [], 'the two-dependency diagnostic is gone');
    });

    await step('shutdown and exit', async () => {
      shuttingDown = true;
      const result = await request('shutdown');
      assert.equal(result ?? null, null);
      connection.sendNotification('exit');
      let timer;
      const deadline = new Promise((resolve) => {
        timer = setTimeout(() => resolve('timeout'), 5_000);
      });
      const outcome = await Promise.race([exited, deadline]).finally(() => clearTimeout(timer));
      assert.notEqual(outcome, 'timeout', 'the server exits within 5 s of exit');
      assert.equal(outcome.code, 0, `exit code; stderr:\n${stderr}`);
    });
  } finally {
    shuttingDown = true;
    connection.dispose();
    if (server.exitCode === null && server.signalCode === null) server.kill();
    if (stderr.trim()) process.stderr.write(`--- gpu-lsp server stderr (last 40 lines) ---\n${stderr.trim().split('\n').slice(-40).join('\n')}\n`);
  }
});
