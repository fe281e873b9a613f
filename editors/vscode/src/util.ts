// Pure helpers for the extension: no `vscode` import, so test/util.test.js can load
// this file in plain node.

import * as os from 'node:os';
import * as path from 'node:path';

/** The `gpuLsp` settings that matter when starting the server. */
export interface ServerSettings {
  pythonPath?: string;
  command?: string[];
  extraArgs?: string[];
}

export interface ResolvedCommand {
  command: string;
  args: string[];
  /** The interpreter when the server is started as `<python> -m gpu_lsp`; null for a custom command. */
  python: string | null;
  /** Settings left out because they point into an untrusted workspace. */
  ignored: string[];
}

// Command ids and the restricted settings come from the manifest (generated from gpu_lsp/lsp/manifest.py).
export { RESTRICTED_SETTINGS, SERVER_COMMANDS } from './manifest';

/** The `// -----` chunks of a lit test (1-based index, 0-based first line): one per marker line plus the first. */
export function litChunks(text: string): { index: number; line: number }[] {
  const out = [{ index: 1, line: 0 }];
  text.split('\n').forEach((line, number) => {
    if (/^\/\/ -----/.test(line)) out.push({ index: out.length + 1, line: number + 1 });
  });
  return out;
}

/** A pass a pipeline may name (the server's `gpu-lsp/passes`). */
export interface PassInfo {
  name: string;
  summary: string;
}

/** The quick pick's items for a typed pipeline: the text itself, then completions of its last pass. */
export function pipelineItems(value: string, passes: PassInfo[]): { label: string; description: string }[] {
  const cut = Math.max(value.lastIndexOf(','), value.lastIndexOf('('));
  const head = value.slice(0, cut + 1);
  const tail = value.slice(cut + 1);
  const items = value ? [{ label: value, description: 'run this pipeline' }] : [];
  for (const p of passes) {
    if (p.name.startsWith(tail) && head + p.name !== value) items.push({ label: head + p.name, description: p.summary });
  }
  return items;
}

/** Expands a leading `~` and `${workspaceFolder}` / `${userHome}` / `${env:NAME}`. */
export function expandPath(
  value: string,
  workspaceFolder: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, key: string, name?: string) => {
    if (key === 'workspaceFolder') return workspaceFolder ?? whole;
    if (key === 'userHome') return os.homedir();
    return env[name ?? ''] ?? '';
  });
  if (out === '~' || out.startsWith('~/')) {
    out = path.join(os.homedir(), out.slice(1));
  }
  if (workspaceFolder && (out.startsWith('./') || out.startsWith('../'))) {
    out = path.resolve(workspaceFolder, out);
  }
  return out;
}

/** Whether a setting's value names something inside the workspace (`${workspaceFolder}`, `./`, `../`). */
export function pointsIntoWorkspace(value: string): boolean {
  const v = value.trim();
  return v.includes('${workspaceFolder}') || v === '.' || v === '..' || /^\.\.?[\\/]/.test(v);
}

/**
 * The process to spawn: `server.command` (non-empty) wins over
 * `<server.pythonPath> -m gpu_lsp`; `server.extraArgs` are appended to either. In an
 * untrusted workspace (`trusted` false) a value that points into the workspace is not
 * expanded into it: it is left out (the default is used) and named in `ignored`.
 */
export function resolveServerCommand(settings: ServerSettings, workspaceFolder?: string, trusted = true): ResolvedCommand {
  const ignored: string[] = [];
  const allowed = (key: string, values: string[]) => {
    if (trusted || !values.some(pointsIntoWorkspace)) return true;
    ignored.push(key);
    return false;
  };
  const extraArgs = settings.extraArgs ?? [];
  const extra = allowed('server.extraArgs', extraArgs) ? extraArgs.map((a) => expandPath(a, workspaceFolder)) : [];
  const custom = (settings.command ?? []).filter((part) => part.trim() !== '');
  if (custom.length > 0 && allowed('server.command', custom)) {
    const [cmd, ...rest] = custom.map((p) => expandPath(p, workspaceFolder));
    return { command: cmd, args: [...rest, ...extra], python: null, ignored };
  }
  const chosen = (settings.pythonPath ?? '').trim();
  const python = expandPath(chosen && allowed('server.pythonPath', [chosen]) ? chosen : 'python3', workspaceFolder);
  return { command: python, args: ['-m', 'gpu_lsp', ...extra], python, ignored };
}

/** What the install check runs: the server and the dependencies it imports at start-up. */
export const IMPORT_CHECK =
  'import gpu_lsp, pygls, lsprotocol, lark, sys; sys.stdout.write(getattr(gpu_lsp, "__version__", "unknown"))';

/**
 * The environment of the install check and the server: Python keeps the working directory
 * (and so a workspace's own `gpu_lsp/` or `json.py`) off `sys.path`, in the server's children too.
 */
export function serverEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PYTHONSAFEPATH: '1', PYTHONUNBUFFERED: '1' };
}

/** The shell command a user runs, in a gpu-lsp checkout, to install the server into `python`. */
export function installCommand(python: string): string {
  const quoted = /[\s"'$`\\]/.test(python) ? `"${python.replace(/(["\\$`])/g, '\\$1')}"` : python;
  return `${quoted} -m pip install .`;
}

/** What `WorkspaceConfiguration.inspect` reports for one setting (the scopes that matter here). */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * The value of a setting that decides which program runs: in a trusted workspace the
 * effective value, in an untrusted one the user's own (or the default), never the workspace's.
 */
export function userOnlyValue<T>(inspected: InspectedSetting<T> | undefined, fallback: T): T {
  return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
}

/** initializationOptions / the `gpuLsp` configuration section, as the server expects it. */
export interface ServerOptionsPayload {
  lint: { select: string[]; ignore: string[]; severity: Record<string, string> };
  runner: { backend: 'auto' | 'cupy' | 'numpy'; timeout?: number; maxMemory?: number };
}

/**
 * The server's settings from `get` (the `gpuLsp` section). VS Code supplies package.json's
 * defaults; a limit that is not a positive number is left out, so the server keeps its own.
 */
export function buildInitializationOptions(get: <T>(key: string, fallback: T) => T): ServerOptionsPayload {
  const backend = get<string>('runner.backend', 'auto');
  const runner: ServerOptionsPayload['runner'] = { backend: backend === 'cupy' || backend === 'numpy' ? backend : 'auto' };
  for (const key of ['timeout', 'maxMemory'] as const) {
    const value = get<unknown>(`runner.${key}`, undefined);
    if (typeof value === 'number' && value > 0) runner[key] = value;
  }
  return {
    lint: {
      select: [...get<string[]>('lint.select', [])],
      ignore: [...get<string[]>('lint.ignore', [])],
      severity: { ...get<Record<string, string>>('lint.severity', {}) },
    },
    runner,
  };
}

export interface FunctionLocation {
  name: string;
  /** 0-based line of the `func.func` keyword. */
  line: number;
}

// `func.func [visibility] @name`. The generic form (`"func.func"() <{sym_name = ...}>`) is
// not recognised: this is only the cursor heuristic, the server knows the real structure.
const FUNC_RE = /(?:^|[\s=])func\.func\s+(?:(?:public|private|nested)\s+)?@("(?:[^"\\]|\\.)*"|[\w$.\-]+)/;

function unquoteSymbol(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replace(/\\(.)/g, '$1') : name;
}

function matchFunction(text: string, line: number): FunctionLocation | undefined {
  const m = FUNC_RE.exec(stripComment(text));
  return m ? { name: unquoteSymbol(m[1]), line } : undefined;
}

/** Every host function (`func.func @name`) in a document, in order. */
export function listFunctions(lines: readonly string[]): FunctionLocation[] {
  const out: FunctionLocation[] = [];
  lines.forEach((text, line) => {
    const loc = matchFunction(text, line);
    if (loc) out.push(loc);
  });
  return out;
}

/**
 * The `func.func` enclosing `line`, found by searching backwards from `line` (the same
 * heuristic as `:GpuLspRun` in Neovim). The search stops at a `// -----` split marker.
 */
export function findEnclosingFunction(lines: readonly string[], line: number): FunctionLocation | undefined {
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    if (/^\s*\/\/\s?-----\s*$/.test(lines[i])) return undefined;
    const loc = matchFunction(lines[i], i);
    if (loc) return loc;
  }
  return undefined;
}

function stripComment(text: string): string {
  // `//` outside of a string starts a comment.
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '/' && text[i + 1] === '/') {
      return text.slice(0, i);
    }
  }
  return text;
}

/** The result of `gpu-lsp.runOnGpu` as text: its summary, then the program's output and errors as printed. */
export function formatRunResult(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [String(result)];
  const r = result as Record<string, unknown>;
  const text = (key: string) => (typeof r[key] === 'string' ? (r[key] as string) : '');
  const lines = [text('message') || text('error') || JSON.stringify(result)];
  const section = (title: string, body: string) => {
    if (!body) return;
    lines.push(`${title}:`, ...body.replace(/\n$/, '').split('\n'));
  };
  section('note', text('note'));
  section('stdout', text('stdout'));
  section('stderr', text('stderr'));
  if (text('message')) section('error', text('error'));
  return lines;
}

/** A short, single-line rendering of an executeCommand result for a notification. */
export function summarizeResult(result: unknown, max = 200): string {
  if (result === null || result === undefined) return '';
  let text: string;
  if (typeof result === 'string') text = result;
  else if (typeof result === 'object' && result !== null && typeof (result as { message?: unknown }).message === 'string') {
    text = (result as { message: string }).message;
  } else text = JSON.stringify(result);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
