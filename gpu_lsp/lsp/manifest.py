"""The editor manifest: every command, setting and capability option the server and its clients declare (data only).

One entry here is the whole declaration: `python -m gpu_lsp.lsp.editor_files --write` derives
VS Code's `package.json` contributions, the extension's and the Neovim plugin's id tables, the
settings table of docs/configuration.md and the capabilities the bootstrap answers with
(tests/lsp/test_editor_manifest.py fails while one of them is not current).

Command ids have one style: `gpuLsp.<name>` for what a client executes (VS Code's palette, a
Neovim `:command`, a client-side code lens), `gpuLsp.server.<name>` for what the server executes
(workspace/executeCommand); the refactorings' server commands are declared with the refactoring
(`passes/refactor.py`). The ids of the first release (`gpu-lsp.<name>`) are accepted, not advertised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpu_lsp.diagnostics.mlir_versions import NEWEST, OLDEST
from gpu_lsp.lsp.settings import BACKENDS, LEVELS, EditorSettings

SECTION = "gpuLsp"
SERVER_PREFIX = f"{SECTION}.server."


@dataclass(frozen=True)
class ClientCommand:
    """A command the editor clients offer: in VS Code's palette (`vscode`), as a Neovim `:command` (`nvim`).

    `summary`: the Neovim command's description; `mlir_only`: listed in the palette only in an MLIR editor; `context`: in the editor's context
    menu (in this order); `run_menu`: the editor title's run button; `nargs`: the Neovim command's.
    """

    id: str
    title: str
    summary: str = ""
    vscode: bool = True
    nvim: str | None = None
    nargs: int | str = 0
    icon: str | None = None
    mlir_only: bool = True
    context: bool = False
    run_menu: bool = False


# The server's own commands (with their arguments); the refactorings' are declared with the refactoring.
FIX_ALL = f"{SERVER_PREFIX}fixAll"  # (uri): apply every safe fix
RUN_ON_GPU = f"{SERVER_PREFIX}runOnGpu"  # (uri, function): run a host function through the runner
RUN_LIT = f"{SERVER_PREFIX}runLitTest"  # (uri, run, chunk; 0: all): run a lit test's RUN line on its chunks
UPDATE_CHECKS = f"{SERVER_PREFIX}updateCheckLines"  # (uri, run, chunk): rewrite a chunk's CHECK lines from its output

SERVER_COMMANDS: tuple[str, ...] = (FIX_ALL, RUN_ON_GPU, RUN_LIT, UPDATE_CHECKS)

# The server command ids of the first release (VS Code extension 0.1.0 and the Neovim plugin of
# then send them): accepted as aliases of `gpuLsp.server.<name>`, not advertised.
RELEASED_ALIASES: dict[str, str] = {
    f"gpu-lsp.{name}": f"{SERVER_PREFIX}{name}"
    for name in ("fixAll", "runOnGpu", "runLitTest", "updateCheckLines", "outlineKernel", "makeAsync")
}

SHOW_ASYNC_GRAPH = ClientCommand(
    f"{SECTION}.showAsyncGraph",
    "Show Async Graph",
    "show the async dependency graph of the buffer",
    nvim="GpuLspGraph",
    icon="$(type-hierarchy)",
)

CLIENT_COMMANDS: tuple[ClientCommand, ...] = (
    ClientCommand(f"{SECTION}.restartServer", "Restart Language Server", mlir_only=False),
    ClientCommand(
        f"{SECTION}.runOnGpu",
        "Run Function on GPU",
        "run a func.func (default: the one at the cursor) on the GPU",
        nvim="GpuLspRun",
        nargs="?",
        icon="$(play)",
        context=True,
        run_menu=True,
    ),
    ClientCommand(
        f"{SECTION}.outlineKernel",
        "Outline gpu.launch into a Kernel",
        "outline the gpu.launch at the cursor into a kernel",
        nvim="GpuLspOutline",
        context=True,
    ),
    ClientCommand(
        f"{SECTION}.makeAsync", "Make GPU Op Async", "make the gpu op at the cursor async", nvim="GpuLspMakeAsync", context=True
    ),
    ClientCommand(
        f"{SECTION}.fixAll",
        "Fix All Auto-fixable Problems",
        "apply every automatic fix in the buffer",
        nvim="GpuLspFixAll",
        context=True,
    ),
    ClientCommand(f"{SECTION}.showOutput", "Show Server Output", mlir_only=False),
    SHOW_ASYNC_GRAPH,
    ClientCommand(
        f"{SECTION}.showPipeline",
        "Show IR After Each Pass",
        "the IR after each pass of a pipeline, two steps side by side in diff mode",
        nvim="GpuLspPipeline",
        nargs=1,
    ),
    ClientCommand(
        f"{SECTION}.pipelineNext", "Pipeline: Next Step", "the next pair of pipeline steps", nvim="GpuLspPipelineNext", mlir_only=False
    ),
    ClientCommand(
        f"{SECTION}.pipelinePrevious",
        "Pipeline: Previous Step",
        "the previous pair of pipeline steps",
        nvim="GpuLspPipelinePrev",
        mlir_only=False,
    ),
    ClientCommand(
        f"{SECTION}.runLitTest",
        "Run Lit Test",
        "run the buffer's lit test chunk by chunk, failures into the quickfix list",
        vscode=False,  # VS Code runs lit tests from its Test view (src/litTests.ts)
        nvim="GpuLitRun",
    ),
    ClientCommand(
        f"{SECTION}.updateCheckLines",
        "Update CHECK Lines",
        "rewrite the CHECK lines of the chunk at the cursor from its output",
        vscode=False,  # a code action in VS Code
        nvim="GpuLitUpdate",
    ),
)


@dataclass(frozen=True)
class Setting:
    """One setting under `gpuLsp`: dotted key, JSON type, default, Markdown description.

    `enum`: the choices (of the values, for an object); `server`: read by the server (else only
    by a client, to start it); `restricted`: a workspace may not choose it in VS Code's
    Restricted Mode (it names a program to run); `scope`: VS Code's.
    """

    key: str
    type: str | tuple[str, ...]
    default: Any
    description: str
    enum: tuple[str, ...] = ()
    enum_descriptions: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    positive: bool = False
    server: bool = True
    restricted: bool = False
    scope: str = "resource"


_D = EditorSettings()
_MACHINE = "machine-overridable"
_USER_ONLY = "In Restricted Mode only your user setting is used."

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "server.pythonPath",
        "string",
        "python3",
        "Python interpreter that runs the server as `<pythonPath> -m gpu_lsp`. It must be able to `import gpu_lsp`: "
        "install it from a gpu-lsp checkout with `<pythonPath> -m pip install .` (the package is not on PyPI). "
        f"`~` and `${{workspaceFolder}}` are expanded. {_USER_ONLY}",
        server=False,
        restricted=True,
        scope=_MACHINE,
    ),
    Setting(
        "server.command",
        "array",
        [],
        'Full command that starts the server over stdio, e.g. `["/opt/venv/bin/python", "-m", "gpu_lsp"]`. '
        f"When non-empty it overrides `#gpuLsp.server.pythonPath#`. {_USER_ONLY}",
        server=False,
        restricted=True,
        scope=_MACHINE,
    ),
    Setting(
        "server.extraArgs",
        "array",
        [],
        f"Extra arguments appended to the server command. {_USER_ONLY}",
        server=False,
        restricted=True,
        scope=_MACHINE,
    ),
    Setting(
        "trace.server",
        "string",
        "off",
        "Traces the communication between VS Code and the gpu-lsp server in the output channel.",
        enum=("off", "messages", "verbose"),
        server=False,
        scope="window",
    ),
    Setting("lint.select", "array", list(_D.select), "Lint rule codes or prefixes to enable; empty: the server's default set."),
    Setting("lint.ignore", "array", list(_D.ignore), "Lint rule codes or prefixes to disable."),
    Setting(
        "lint.severity",
        "object",
        {code: level.label for code, level in _D.severity.items()},
        "Report rules at another level: a rule code or prefix mapped to "
        f"{', '.join(f'`{name}`' for name in list(LEVELS)[:-1])} or `{list(LEVELS)[-1]}` (as gpu-lint spells them), "
        'e.g. `{"GPU3": "hint"}`.',
        enum=tuple(LEVELS),
    ),
    Setting(
        "lint.mlirVersion",
        ("integer", "null"),
        _D.mlir_version,
        "The LLVM major version you compile with: lowering-readiness findings follow what that version's `gpu-to-llvm` "
        f"accepts. Null: `mlir-version` from the project's `[tool.gpu-lint]` / `gpu-lint.toml`, else {NEWEST}.",
        minimum=OLDEST,
        maximum=NEWEST,
    ),
    Setting(
        "lint.reportUndecided",
        "boolean",
        _D.report_undecided,
        "An info for each kernel access whose race (GPU416) or bounds (GPU417) check is undecided, saying why. "
        "False: the project's `report-undecided`.",
    ),
    Setting(
        "runner.backend",
        "string",
        _D.runner_backend,
        'Backend used by "Run on GPU".',
        enum=BACKENDS,
        enum_descriptions=(
            "CuPy when a GPU is visible, NumPy otherwise.",
            "Always CuPy (needs an NVIDIA GPU).",
            "Always NumPy on the CPU.",
        ),
    ),
    Setting("runner.timeout", "number", _D.run_timeout_s, 'Seconds a "Run on GPU" may take before the server stops it.', positive=True),
    Setting(
        "runner.maxMemory", "integer", _D.run_max_memory, f'Bytes a "Run on GPU" may allocate (default {_D.run_max_memory // 2**30} GiB).', minimum=1
    ),
    Setting(
        "lit.mlirOpt",
        ("string", "null"),
        _D.lit_mlir_opt,
        'The mlir-opt that lit RUN lines ("Run lit test", "Update CHECK lines") and "Show IR After Each Pass" run; '
        "null: gpu-opt, inside gpu-lsp (docs/lit.md, docs/pipelines.md).",
        restricted=True,
    ),
)

# The options of the capabilities the server registers (server.py); the rest of what it advertises
# follows from which features it registers (the bootstrap's copy is generated).
COMPLETION_TRIGGERS: tuple[str, ...] = ("%", "^", "@", "#", "!", ".", "[", ":", " ")
SIGNATURE_TRIGGERS: tuple[str, ...] = ("(", ",")
SIGNATURE_RETRIGGERS: tuple[str, ...] = (",",)
CODE_ACTION_KINDS: tuple[str, ...] = ("quickfix", "refactor.rewrite", "source.fixAll", "source.fixAll.gpu-lint")
CAPABILITIES: dict[str, Any] = {
    "codeActionProvider": {"codeActionKinds": list(CODE_ACTION_KINDS), "resolveProvider": True},
    "codeLensProvider": {"resolveProvider": False},
    "completionProvider": {"resolveProvider": False, "triggerCharacters": list(COMPLETION_TRIGGERS)},
    "definitionProvider": True,
    "documentFormattingProvider": True,
    "documentHighlightProvider": True,
    "documentRangeFormattingProvider": True,
    "documentSymbolProvider": True,
    "foldingRangeProvider": True,
    "hoverProvider": True,
    "inlayHintProvider": {"resolveProvider": False},
    "positionEncoding": "utf-16",
    "referencesProvider": True,
    "renameProvider": {"prepareProvider": True},
    "selectionRangeProvider": True,
    "signatureHelpProvider": {"retriggerCharacters": list(SIGNATURE_RETRIGGERS), "triggerCharacters": list(SIGNATURE_TRIGGERS)},
    "textDocumentSync": {"change": 2, "openClose": True, "save": {"includeText": False}},
    "workspace": {"fileOperations": {}, "workspaceFolders": {"changeNotifications": True, "supported": True}},
    "workspaceSymbolProvider": {"resolveProvider": False},
}
