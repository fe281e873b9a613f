'use strict';
// Builds the .vsix (typecheck + esbuild bundle + vsce package, offline) and checks what
// VS Code would read from it: extension/package.json and the files it points to.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EXTENSION_ROOT, readZip } = require('./helpers');

const EXPECTED_COMMANDS = [
  'gpuLsp.restartServer',
  'gpuLsp.runOnGpu',
  'gpuLsp.outlineKernel',
  'gpuLsp.makeAsync',
  'gpuLsp.fixAll',
  'gpuLsp.showOutput',
  'gpuLsp.showAsyncGraph',
  'gpuLsp.showPipeline',
  'gpuLsp.pipelineNext',
  'gpuLsp.pipelinePrevious',
];

const EXPECTED_SETTINGS = {
  'gpuLsp.server.pythonPath': { type: 'string', default: 'python3' },
  'gpuLsp.server.command': { type: 'array', default: [] },
  'gpuLsp.server.extraArgs': { type: 'array', default: [] },
  'gpuLsp.trace.server': { type: 'string', default: 'off', enum: ['off', 'messages', 'verbose'] },
  'gpuLsp.lint.select': { type: 'array', default: [] },
  'gpuLsp.lint.ignore': { type: 'array', default: [] },
  'gpuLsp.lint.severity': { type: 'object', default: {} },
  'gpuLsp.lint.mlirVersion': { type: ['integer', 'null'], default: null },
  'gpuLsp.lint.reportUndecided': { type: 'boolean', default: false },
  'gpuLsp.runner.backend': { type: 'string', default: 'auto', enum: ['auto', 'cupy', 'numpy'] },
  'gpuLsp.runner.timeout': { type: 'number', default: 60 },
  'gpuLsp.runner.maxMemory': { type: 'integer', default: 4294967296 },
  'gpuLsp.lit.mlirOpt': { type: ['string', 'null'], default: null },
};

let tmp;
let files;
let manifest;

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-vsix-'));
  const vsix = path.join(tmp, 'gpu-lsp.vsix');
  const vsce = path.join(EXTENSION_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], {
    cwd: EXTENSION_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  files = readZip(vsix);
  manifest = JSON.parse(files.get('extension/package.json').toString('utf8'));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function packaged(relative) {
  const name = `extension/${relative.replace(/^\.\//, '')}`;
  assert.ok(files.has(name), `${name} is missing from the .vsix (has: ${[...files.keys()].join(', ')})`);
  return files.get(name);
}

test('the .vsix holds the bundle, grammar, language configuration, README, CHANGELOG and LICENSE only', () => {
  const names = [...files.keys()].filter((n) => n.startsWith('extension/')).sort();
  assert.deepEqual(names, [
    'extension/LICENSE.txt',
    'extension/changelog.md',
    'extension/language-configuration.json',
    'extension/out/extension.js',
    'extension/package.json',
    'extension/readme.md',
    'extension/syntaxes/mlir.tmLanguage.json',
  ]);
});

test('identity, engine and entry point', () => {
  assert.equal(manifest.name, 'gpu-lsp');
  assert.equal(manifest.license, 'MIT');
  assert.ok(manifest.repository && manifest.repository.url, 'repository field');
  assert.equal(manifest.engines.vscode, '^1.91.0');
  assert.equal(manifest.main, './out/extension.js');
  assert.ok(manifest.activationEvents.includes('onLanguage:mlir'));
  const bundle = packaged(manifest.main).toString('utf8');
  // Packaged with --no-dependencies: the language client must be inside the bundle.
  assert.doesNotMatch(bundle, /require\(["']vscode-languageclient/);
  assert.match(bundle, /require\(["']vscode["']\)/);
});

test('declares the mlir language with its configuration', () => {
  const mlir = manifest.contributes.languages.find((l) => l.id === 'mlir');
  assert.ok(mlir, 'language mlir');
  assert.deepEqual(mlir.extensions, ['.mlir']);
  const config = JSON.parse(packaged(mlir.configuration).toString('utf8'));
  assert.equal(config.comments.lineComment, '//');
  for (const pair of [['(', ')'], ['[', ']'], ['{', '}'], ['<', '>']]) {
    assert.ok(config.brackets.some((b) => b[0] === pair[0] && b[1] === pair[1]), `bracket ${pair.join('')}`);
  }
  assert.ok(config.autoClosingPairs.length >= 4);
  assert.ok(config.folding && config.folding.markers, 'folding markers');
});

test('declares the source.mlir grammar and packages it', () => {
  const grammar = manifest.contributes.grammars.find((g) => g.language === 'mlir');
  assert.ok(grammar, 'grammar for mlir');
  assert.equal(grammar.scopeName, 'source.mlir');
  const json = JSON.parse(packaged(grammar.path).toString('utf8'));
  assert.equal(json.scopeName, 'source.mlir');
  for (const rule of ['split-marker', 'gpu-op', 'ssa-value', 'async-dependencies', 'type', 'attribute']) {
    assert.ok(json.repository[rule], `grammar rule ${rule}`);
  }
});

test('contributes every command, each registered by the bundle', () => {
  const ids = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(ids, [...EXPECTED_COMMANDS].sort());
  const bundle = packaged(manifest.main).toString('utf8');
  for (const c of manifest.contributes.commands) {
    assert.ok(c.title && c.category, `${c.command} has a title and category`);
    assert.ok(bundle.includes(`"${c.command}"`), `${c.command} appears in the bundle`);
    assert.ok(!c.command.startsWith('gpuLsp.server.'), `${c.command} must not clash with the server's gpuLsp.server.* ids`);
  }
  // The server-side ids are sent with workspace/executeCommand.
  for (const server of ['gpuLsp.server.runOnGpu', 'gpuLsp.server.outlineKernel', 'gpuLsp.server.makeAsync', 'gpuLsp.server.fixAll', 'gpuLsp.server.runLitTest']) {
    assert.ok(bundle.includes(`"${server}"`), `${server} appears in the bundle`);
  }
});

test('contributes every setting with its type, default and choices', () => {
  const props = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), Object.keys(EXPECTED_SETTINGS).sort());
  for (const [key, expected] of Object.entries(EXPECTED_SETTINGS)) {
    const actual = props[key];
    assert.deepEqual(actual.type, expected.type, `${key}.type`);
    assert.deepEqual(actual.default, expected.default, `${key}.default`);
    if (expected.enum) assert.deepEqual(actual.enum, expected.enum, `${key}.enum`);
    if (expected.type === 'array') assert.equal(actual.items.type, 'string', `${key}.items`);
    assert.ok(actual.description || actual.markdownDescription, `${key} is documented`);
  }
});

test('limited support in untrusted workspaces: the settings that choose a program are restricted', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.match(trust.description, /Run on GPU/);
  assert.deepEqual(
    [...trust.restrictedConfigurations].sort(),
    ['gpuLsp.lit.mlirOpt', 'gpuLsp.server.command', 'gpuLsp.server.extraArgs', 'gpuLsp.server.pythonPath'],
  );
  for (const key of trust.restrictedConfigurations) {
    assert.ok(manifest.contributes.configuration.properties[key], `${key} is a contributed setting`);
  }
  // The extension reads exactly these through userOnlyValue when untrusted.
  const bundle = packaged(manifest.main).toString('utf8');
  for (const key of trust.restrictedConfigurations) assert.ok(bundle.includes(`"${key.slice('gpuLsp.'.length)}"`), key);
});

test('menus only refer to contributed commands', () => {
  const ids = new Set(manifest.contributes.commands.map((c) => c.command));
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
  }
});
