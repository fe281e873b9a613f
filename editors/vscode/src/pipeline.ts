// "Show IR after each pass" (docs/pipelines.md): a pipeline typed in a quick pick (pass names
// complete from the server's `gpu-lsp/passes`) runs through `gpu-lsp/pipelineSteps` on the chunk
// at the cursor; each step is a read-only virtual document `gpu-lsp-ir:/N/STEP.mlir`, and two
// consecutive steps open side by side in a diff editor. Next/previous move the pair; Go to
// Definition in a step jumps to the source of the op on that line, when the op survives from it.
// With gpuLsp.lit.mlirOpt set, the server runs the pipeline through that mlir-opt instead.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { COMMANDS } from './manifest';
import { pipelineItems, type PassInfo } from './util';

export const PIPELINE_COMMANDS = {
  show: COMMANDS.showPipeline,
  next: COMMANDS.pipelineNext,
  previous: COMMANDS.pipelinePrevious,
} as const;
const SCHEME = 'gpu-lsp-ir';

interface Step {
  name: string;
  text: string;
  origins: [number, number, number][];
}

let steps: Step[] = [];
let source: vscode.Uri | undefined;
let at = 0;
const changed = new vscode.EventEmitter<vscode.Uri>();

function stepUri(index: number): vscode.Uri {
  return vscode.Uri.parse(`${SCHEME}:/${index}/${steps[index].name.replace(/[^\w.-]+/g, '_')}.mlir`);
}

function stepIndex(uri: vscode.Uri): number {
  return Number(uri.path.split('/')[1]);
}

async function showPair(index: number): Promise<void> {
  if (steps.length < 2) return;
  at = Math.max(0, Math.min(index, steps.length - 2));
  const left = stepUri(at);
  const right = stepUri(at + 1);
  changed.fire(left);
  changed.fire(right);
  await vscode.commands.executeCommand('vscode.diff', left, right, `${steps[at].name} ↔ ${steps[at + 1].name}`);
}

async function askPipeline(client: LanguageClient): Promise<string | undefined> {
  const passes = ((await client.sendRequest('gpu-lsp/passes', {})) as PassInfo[] | null) ?? [];
  const pick = vscode.window.createQuickPick();
  pick.placeholder = 'A pass pipeline, e.g. gpu-launch-sink-index-computations,gpu-kernel-outlining';
  pick.items = pipelineItems('', passes);
  pick.onDidChangeValue((value) => (pick.items = pipelineItems(value, passes)));
  return new Promise((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.label ?? pick.value);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
}

async function showPipeline(client: () => LanguageClient | undefined, mlirOptIsTheUsers: () => boolean, pipeline?: unknown): Promise<void> {
  const running = client();
  const editor = vscode.window.activeTextEditor;
  if (!running || !editor) {
    void vscode.window.showErrorMessage('gpu-lsp: open an .mlir file with the server running to show a pipeline.');
    return;
  }
  if (!mlirOptIsTheUsers()) {
    void vscode.window.showErrorMessage('gpu-lsp: in Restricted Mode a pipeline runs only the mlir-opt of your user settings (gpuLsp.lit.mlirOpt).');
    return;
  }
  const text = typeof pipeline === 'string' ? pipeline : await askPipeline(running);
  if (!text) return;
  try {
    const result = (await running.sendRequest('gpu-lsp/pipelineSteps', {
      textDocument: { uri: editor.document.uri.toString() },
      pipeline: text,
      line: editor.selection.active.line,
    })) as { steps: Step[] } | null;
    steps = result?.steps ?? [];
    source = editor.document.uri;
  } catch (error) {
    void vscode.window.showErrorMessage(`gpu-lsp: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  await showPair(0);
}

/** Registers the pipeline commands, the `gpu-lsp-ir` documents and their Go to Definition; a pipeline
 * runs only while the `mlir-opt` the server would run (gpuLsp.lit.mlirOpt) is the user's own. */
export function registerPipeline(context: vscode.ExtensionContext, client: () => LanguageClient | undefined, mlirOptIsTheUsers: () => boolean): void {
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => steps[stepIndex(uri)]?.text ?? '',
    }),
    vscode.languages.registerDefinitionProvider({ scheme: SCHEME }, {
      provideDefinition(document, position) {
        const step = steps[stepIndex(document.uri)];
        if (!step || !source) return undefined;
        const origin = [...step.origins].reverse().find((o) => o[0] <= position.line);
        return origin ? new vscode.Location(source, new vscode.Position(origin[1], origin[2])) : undefined;
      },
    }),
    vscode.commands.registerCommand(PIPELINE_COMMANDS.show, (pipeline?: unknown) => showPipeline(client, mlirOptIsTheUsers, pipeline)),
    vscode.commands.registerCommand(PIPELINE_COMMANDS.next, () => showPair(at + 1)),
    vscode.commands.registerCommand(PIPELINE_COMMANDS.previous, () => showPair(at - 1)),
  );
}
