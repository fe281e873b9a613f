'use strict';
// The extension in real VS Code: code-server serves the workbench, headless Chromium (driven
// by playwright-core) shows it. Installs the .vsix from `make vsix` into a throw-away profile,
// opens a workspace with the two-dependency fixture and asserts through the workbench.
// Opt-in (not yet in `make test`): needs code-server (Node 24) and playwright-core, named by
//   CODE_SERVER_NODE (node 24), CODE_SERVER_ENTRY (code-server's out/node/entry.js),
//   PLAYWRIGHT_CORE (the package folder), CHROMIUM (default /usr/bin/chromium),
//   GPU_LSP_PYTHON (an interpreter that imports gpu_lsp).
// Screenshots of a failure go to $GPU_LSP_SCREENSHOTS (default: the run's temporary folder).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { EXTENSION_ROOT } = require('../helpers');

const env = process.env;
const missing = ['CODE_SERVER_NODE', 'CODE_SERVER_ENTRY', 'PLAYWRIGHT_CORE', 'GPU_LSP_PYTHON'].filter((k) => !env[k]);
const VERSION = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8')).version;
const VSIX = path.join(EXTENSION_ROOT, `gpu-lsp-${VERSION}.vsix`);
const FIXTURE = path.join(EXTENSION_ROOT, 'test', 'fixtures', 'two_deps.mlir');

/** A code-server with its own profile, the .vsix installed, serving `ws`; `close()` kills its process group. */
async function startCodeServer(root, userSettings, ws) {
  const ud = path.join(root, 'user');
  const ed = path.join(root, 'extensions');
  fs.mkdirSync(path.join(ud, 'User'), { recursive: true });
  fs.writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', ...userSettings }));
  const base = [env.CODE_SERVER_ENTRY, '--extensions-dir', ed, '--user-data-dir', ud];
  execFileSync(env.CODE_SERVER_NODE, [...base, '--install-extension', VSIX], { stdio: 'ignore', timeout: 60_000 });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    env.CODE_SERVER_NODE,
    [...base, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', ws],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
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

/** Runs `body(page)` in a workbench for `ws`; screenshots and the server log on failure. */
async function withWorkbench(name, userSettings, ws, body) {
  const { chromium } = require(env.PLAYWRIGHT_CORE);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `gpu-lsp-vscode-${name}-`));
  const server = await startCodeServer(root, userSettings, ws);
  const browser = await chromium.launch({ executablePath: env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(server.url);
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await page.click('.explorer-folders-view .monaco-list-row:has-text("two_deps.mlir")', { timeout: 60_000 });
    await body(page);
  } catch (error) {
    const shots = env.GPU_LSP_SCREENSHOTS || root;
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}-failure.png`) }).catch(() => undefined);
    error.message += `\nscreenshot: ${path.join(shots, `${name}-failure.png`)}\ncode-server log (tail):\n${server.log().slice(-2000)}`;
    throw error;
  } finally {
    await browser.close();
    server.close();
    if (!env.GPU_LSP_SCREENSHOTS) fs.rmSync(root, { recursive: true, force: true });
  }
}

async function problemRow(page) {
  await page.keyboard.press('Control+Shift+M');
  const row = await page.waitForSelector('.markers-panel .monaco-tl-row:has-text("GPU201")', { timeout: 90_000 });
  return (await row.innerText()).replace(/\s+/g, ' ');
}

function workspace(extraFiles = {}) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-lsp-ws-'));
  fs.copyFileSync(FIXTURE, path.join(ws, 'two_deps.mlir'));
  for (const [name, text] of Object.entries(extraFiles)) {
    fs.mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    fs.writeFileSync(path.join(ws, name), text, { mode: 0o755 });
  }
  return ws;
}

const skip = missing.length ? `set ${missing.join(', ')} (see the top of this file)` : false;
const serverCommand = () => [env.GPU_LSP_PYTHON, '-m', 'gpu_lsp'];

test('trusted: diagnostics in the Problems panel with code and range, the server version in the status bar', { skip, timeout: 300_000 }, async () => {
  assert.ok(fs.existsSync(VSIX), `${VSIX} is missing: run make vsix`);
  const ws = workspace();
  try {
    const settings = { 'gpuLsp.server.command': serverCommand(), 'gpuLsp.runner.backend': 'numpy', 'security.workspace.trust.enabled': false };
    await withWorkbench('trusted', settings, ws, async (page) => {
      const row = await problemRow(page);
      assert.match(row, /`gpu\.launch_func` depends on 2 tokens/);
      assert.match(row, /gpu-lint\s*\(?GPU201\)? \[Ln 24, Col 11\]/);
      await page.waitForSelector(`.statusbar-item:has-text("GPU LSP ${VERSION}")`, { timeout: 30_000 });
      await page.waitForSelector('.codelens-decoration:has-text("Run on GPU")', { timeout: 30_000 });
    });
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});

test('untrusted: the workspace cannot choose the server command, diagnostics still appear, Run is refused', { skip, timeout: 300_000 }, async () => {
  const marker = path.join(os.tmpdir(), `gpu-lsp-evil-${process.pid}`);
  const ws = workspace({
    'evil-server': `#!/bin/sh\ntouch "${marker}"\nexit 1\n`,
  });
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(
    path.join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'gpuLsp.server.command': [path.join(ws, 'evil-server')], 'gpuLsp.server.pythonPath': path.join(ws, 'evil-server') }),
  );
  try {
    const settings = {
      'gpuLsp.server.command': serverCommand(),
      'gpuLsp.runner.backend': 'numpy',
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
      'security.workspace.trust.emptyWindow': false,
    };
    await withWorkbench('untrusted', settings, ws, async (page) => {
      const row = await problemRow(page);
      assert.match(row, /GPU201/);
      await page.keyboard.press('Control+Shift+P');
      await page.keyboard.type('GPU LSP: Run Function on GPU');
      await page.waitForTimeout(500);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.notification-toast:has-text("disabled in Restricted Mode")', { timeout: 30_000 });
    });
    assert.ok(!fs.existsSync(marker), 'the workspace-chosen server command was run');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  }
});
