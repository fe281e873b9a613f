"""GPU4xx and GPU5xx codes that gpu-run and gpu-opt's passes emit (gpu-lint never does)."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import declare

_RUNNER = ("gpu_lsp/runner (gpu-run)", "`gpu_lsp/runner/README.md`")
_PASSES = ("gpu_lsp/passes (gpu-opt)", "`docs/passes.md`")


def _tool_code(code: str, name: str, severity: Severity, what: str, why: str, example: str, tool: tuple[str, str]) -> None:
    """Register a code another tool emits; its page has no fix and points at the tool's documentation."""
    doc = (
        f"## What it does\n{what}\n\n## Why is this bad?\n{why}\n\n## Example\n{example}\n\n"
        f"## Fix safety\nThere is no fix.\n\n## References\n- {tool[1]}\n"
    )
    declare(code, name, severity, doc, checked_by=tool[0], upstream=False, linted=False)


_tool_code(
    "GPU401",
    "run-error",
    Severity.ERROR,
    "`gpu-run` reports a fault of the program it executes, at the op where it happened: an\n"
    "out-of-bounds access, a use of freed memory, a deadlock at a barrier, a time or memory\n"
    "limit reached.",
    "The program has undefined behaviour (or runs too long) on a real GPU as well; the\n"
    "runner stops where the fault shows instead of producing wrong numbers.",
    "```mlir\n%x = memref.load %buf[%c64] : memref<64xf32>\n```",
    _RUNNER,
)
_tool_code(
    "GPU402",
    "run-unsupported",
    Severity.ERROR,
    "`gpu-run` reports an op, or a form of an op, that it cannot execute faithfully (a\n"
    "tensor op, an op gpu-lsp does not know, an affine map it cannot evaluate).",
    "The program may be valid; the runner cannot say what it computes.",
    "```mlir\n%t = tensor.empty() : tensor<4xf32>\n```",
    _RUNNER,
)
_tool_code(
    "GPU403",
    "run-warning",
    Severity.WARNING,
    "`gpu-run` reports what it noticed about async ops while executing, without stopping:\n"
    "two ops using a buffer with no async token ordering them, the host using a buffer an\n"
    "async op may still use, an async token never waited on.",
    "The run finished in one order, but on a real GPU the async work runs when it runs:\n"
    "the result may differ.",
    "```mlir\n%t = gpu.memcpy async %dev, %host : memref<4xf32>, memref<4xf32>\n"
    "%x = memref.load %host[%c0] : memref<4xf32>\n```",
    _RUNNER,
)
_tool_code(
    "GPU501",
    "pass-error",
    Severity.ERROR,
    "`gpu-opt` reports a pass that failed (`signalPassFailure`), with the pass's message at\n"
    "the op it names, as mlir-opt prints it.",
    "The pass pipeline stopped; its output, if any, is not what the pipeline should give.",
    "`gpu-opt --gpu-kernel-outlining` on a `gpu.launch` whose body calls a symbol it cannot\n"
    "clone into the kernel module.",
    _PASSES,
)
