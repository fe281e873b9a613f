'use strict';
// Unit tests for src/util.ts (compiled on the fly with esbuild; no VS Code needed).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const os = require('node:os');
const path = require('node:path');
const { EXTENSION_ROOT, requireTs } = require('./helpers');

const util = requireTs(path.join(EXTENSION_ROOT, 'src', 'util.ts'));

test('resolveServerCommand: <pythonPath> -m gpu_lsp by default', () => {
  assert.deepEqual(util.resolveServerCommand({}), { command: 'python3', args: ['-m', 'gpu_lsp'], python: 'python3', ignored: [] });
  assert.deepEqual(util.resolveServerCommand({ pythonPath: '  ', extraArgs: ['--log', 'debug'] }), {
    command: 'python3',
    args: ['-m', 'gpu_lsp', '--log', 'debug'],
    python: 'python3',
    ignored: [],
  });
});

test('resolveServerCommand: a non-empty command overrides the interpreter', () => {
  assert.deepEqual(
    util.resolveServerCommand({ pythonPath: '/usr/bin/python3', command: ['gpu-lsp', '--stdio'], extraArgs: ['-v'] }),
    { command: 'gpu-lsp', args: ['--stdio', '-v'], python: null, ignored: [] },
  );
  // An empty or blank array does not.
  assert.equal(util.resolveServerCommand({ pythonPath: 'py', command: [''] }).command, 'py');
});

test('resolveServerCommand: expands ~, ${workspaceFolder}, ${env:X} and ./relative paths', () => {
  const ws = path.join(os.tmpdir(), 'ws');
  assert.equal(
    util.resolveServerCommand({ pythonPath: '${workspaceFolder}/.venv/bin/python' }, ws).command,
    `${ws}/.venv/bin/python`,
  );
  assert.equal(util.resolveServerCommand({ pythonPath: './.venv/bin/python' }, ws).command, path.join(ws, '.venv/bin/python'));
  assert.equal(util.resolveServerCommand({ pythonPath: '~/venv/bin/python' }).command, path.join(os.homedir(), 'venv/bin/python'));
  assert.equal(util.expandPath('${env:GPU_LSP_TEST_X}/py', undefined, { GPU_LSP_TEST_X: '/opt' }), '/opt/py');
});

test('installCommand installs the checkout (the package is not on PyPI) and quotes paths with spaces', () => {
  assert.equal(util.installCommand('python3'), 'python3 -m pip install .');
  assert.equal(util.installCommand('/My Envs/bin/python'), '"/My Envs/bin/python" -m pip install .');
});

test('buildInitializationOptions matches the server contract', () => {
  const settings = {
    'lint.select': ['GPU1'],
    'lint.ignore': ['GPU101'],
    'lint.severity': { GPU3: 'hint' },
    'runner.backend': 'numpy',
    'runner.timeout': 5,
    'runner.maxMemory': 1024,
  };
  const get = (key, fallback) => (key in settings ? settings[key] : fallback);
  assert.deepEqual(util.buildInitializationOptions(get), {
    lint: { select: ['GPU1'], ignore: ['GPU101'], severity: { GPU3: 'hint' } },
    runner: { backend: 'numpy', timeout: 5, maxMemory: 1024 },
  });
  assert.deepEqual(util.buildInitializationOptions((_k, fallback) => fallback), {
    lint: { select: [], ignore: [], severity: {} },
    runner: { backend: 'auto' },
  });
  assert.equal(util.buildInitializationOptions((k, f) => (k === 'runner.backend' ? 'bogus' : f)).runner.backend, 'auto');
  assert.deepEqual(util.buildInitializationOptions((k, f) => (k === 'runner.timeout' ? -1 : f)).runner, { backend: 'auto' });
});

test('formatRunResult: the summary, then the program output by stream', () => {
  assert.deepEqual(
    util.formatRunResult({ ok: true, message: '@main finished on numpy in 0.10 s', stdout: '2.5\n1\n', stderr: '', backend: 'numpy' }),
    ['@main finished on numpy in 0.10 s', 'stdout:', '2.5', '1'],
  );
  assert.deepEqual(util.formatRunResult({ ok: false, message: '@f failed on numpy: boom', error: 'boom', stderr: 'x\n' }), [
    '@f failed on numpy: boom',
    'stderr:',
    'x',
    'error:',
    'boom',
  ]);
  assert.deepEqual(util.formatRunResult({ ok: false, error: 'RunError: no' }), ['RunError: no']);
  assert.deepEqual(util.formatRunResult('text'), ['text']);
});

test('userOnlyValue: the user setting or the default, never the workspace value', () => {
  assert.deepEqual(
    util.userOnlyValue({ defaultValue: [], globalValue: ['/usr/bin/gpu-lsp'], workspaceValue: ['/tmp/evil'] }, []),
    ['/usr/bin/gpu-lsp'],
  );
  assert.equal(util.userOnlyValue({ defaultValue: 'python3', workspaceFolderValue: './evil' }, 'x'), 'python3');
  assert.equal(util.userOnlyValue(undefined, 'python3'), 'python3');
});

const DOC = `module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @first(%n: index) {
    // func.func @commented_out() {
    %c = arith.constant 1 : index
    return
  }
  func.func private @"quoted name"() {
    %s = "test.op"() {text = "func.func @in_string()"} : () -> i32
    return
  }
}
// -----
func.func @after_split() {
  return
}`.split('\n');

test('findEnclosingFunction searches backwards for func.func', () => {
  assert.equal(util.findEnclosingFunction(DOC, 3), undefined, 'inside a gpu.func with no func.func above');
  assert.deepEqual(util.findEnclosingFunction(DOC, 8), { name: 'first', line: 6 });
  assert.deepEqual(util.findEnclosingFunction(DOC, 7), { name: 'first', line: 6 }, 'comments are ignored');
  assert.deepEqual(util.findEnclosingFunction(DOC, 12), { name: 'quoted name', line: 11 }, 'strings are not comments');
  assert.deepEqual(util.findEnclosingFunction(DOC, 11), { name: 'quoted name', line: 11 }, 'on the func.func line');
  assert.equal(util.findEnclosingFunction(DOC, 16), undefined, 'stops at the split marker');
  assert.deepEqual(util.findEnclosingFunction(DOC, 18), { name: 'after_split', line: 17 });
});

test('listFunctions lists host functions', () => {
  assert.deepEqual(
    util.listFunctions(DOC).map((f) => f.name),
    ['first', 'quoted name', 'after_split'],
  );
});

test('summarizeResult', () => {
  assert.equal(util.summarizeResult(undefined), '');
  assert.equal(util.summarizeResult('ok\n  done'), 'ok done');
  assert.equal(util.summarizeResult({ message: 'ran in 3 ms' }), 'ran in 3 ms');
  assert.equal(util.summarizeResult({ a: 1 }), '{"a":1}');
  assert.equal(util.summarizeResult('x'.repeat(300)).length, 200);
});

test('resolveServerCommand: an untrusted workspace is never expanded into', () => {
  const ws = '/work/project';
  for (const value of ['${workspaceFolder}/.venv/bin/python', './.venv/bin/python', '../x/python']) {
    const resolved = util.resolveServerCommand({ pythonPath: value }, ws, false);
    assert.equal(resolved.command, 'python3', value);
    assert.deepEqual(resolved.ignored, ['server.pythonPath']);
  }
  const custom = util.resolveServerCommand({ command: ['${workspaceFolder}/run'], extraArgs: ['./x'] }, ws, false);
  assert.deepEqual([custom.command, custom.args, custom.ignored], ['python3', ['-m', 'gpu_lsp'], ['server.extraArgs', 'server.command']]);
  assert.equal(util.resolveServerCommand({ pythonPath: '/usr/bin/python3.12' }, ws, false).command, '/usr/bin/python3.12');
  assert.equal(util.resolveServerCommand({ pythonPath: './.venv/bin/python' }, ws, true).command, path.join(ws, '.venv/bin/python'));
});

test('serverEnvironment keeps the working directory off sys.path', () => {
  assert.equal(util.serverEnvironment({ PATH: '/bin' }).PYTHONSAFEPATH, '1');
  assert.equal(util.serverEnvironment({ PATH: '/bin' }).PATH, '/bin');
  assert.match(util.IMPORT_CHECK, /^import gpu_lsp, pygls, lsprotocol, lark\b/);
});

test('pipelineItems: the typed pipeline, then completions of its last pass', () => {
  const passes = [
    { name: 'gpu-kernel-outlining', summary: 'outline' },
    { name: 'gpu-launch-sink-index-computations', summary: 'sink' },
  ];
  assert.deepEqual(
    util.pipelineItems('gpu-launch-sink-index-computations,gpu-ker', passes).map((i) => i.label),
    ['gpu-launch-sink-index-computations,gpu-ker', 'gpu-launch-sink-index-computations,gpu-kernel-outlining'],
  );
  assert.deepEqual(util.pipelineItems('func.func(gpu-l', passes).map((i) => i.label), ['func.func(gpu-l', 'func.func(gpu-launch-sink-index-computations']);
  assert.deepEqual(util.pipelineItems('', passes).map((i) => i.label), ['gpu-kernel-outlining', 'gpu-launch-sink-index-computations']);
});
