"""`gpu-opt --lit FILE...`: a lit test's RUN lines, chunk by chunk, with FileCheck's verdict per chunk.

    gpu-opt --lit [--mlir-opt PATH] [-v | --json] FILE...

`mlir-opt` in a RUN line is gpu-opt itself (in process) unless --mlir-opt names a
real one; FileCheck is the `filecheck` package. With --json, one JSON object per
chunk result and line (what the Neovim plugin's :GpuLitRun reads into the quickfix
list). The exit status is 1 when a chunk fails, 2 for a usage error or a file that
cannot be read.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from gpu_lsp.lit.report import as_json, render
from gpu_lsp.lit.runner import ExternalTool, Tool, run_file

USAGE = "usage: gpu-opt --lit [--mlir-opt PATH] [-v | --json] FILE..."


def main(argv: Sequence[str], gpu_opt: Tool) -> int:
    """Run the lit tests named in `argv` (what follows `--lit`); `gpu_opt` is gpu-opt in process."""
    files: list[str] = []
    mlir_opt: str | None = None
    verbose = as_lines = False
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, value = arg.lstrip("-").partition("=")
        if arg.startswith("-") and name == "mlir-opt":
            if not eq and not args:
                sys.stderr.write(f"gpu-opt: option --mlir-opt needs a path\n{USAGE}\n")
                return 2
            mlir_opt = value if eq else args.pop(0)
        elif arg in ("-v", "--verbose"):
            verbose = True
        elif arg in ("-json", "--json"):
            as_lines = True
        elif arg.startswith("-") and arg != "-":
            sys.stderr.write(f"gpu-opt: unknown option '{arg}' with --lit\n{USAGE}\n")
            return 2
        else:
            files.append(arg)
    if not files:
        sys.stderr.write(f"gpu-opt: --lit needs a test file\n{USAGE}\n")
        return 2
    tool = ExternalTool(mlir_opt) if mlir_opt else gpu_opt
    status = 0
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                text = f.read()
        except OSError as exc:
            sys.stderr.write(f"gpu-opt: could not open input file '{path}': {exc.strerror}\n")
            status = 2
            continue
        result = run_file(text, path, tool)
        sys.stdout.write(as_json(result) if as_lines else render(result, tool, verbose))
        if result.failed and status == 0:
            status = 1
    return status
