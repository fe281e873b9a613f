"""GPU4xx and GPU5xx codes that gpu-run and gpu-opt's passes emit (gpu-lint never does)."""

from __future__ import annotations

from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import declare

declare(
    "GPU401",
    "run-error",
    Severity.ERROR,
    """
    ## What it does
    `gpu-run` reports a fault of the program it executes, at the op where it happened: an
    out-of-bounds access, a use of freed memory, a deadlock at a barrier, a time or memory
    limit reached.

    ## Why is this bad?
    The program has undefined behaviour (or runs too long) on a real GPU as well; the
    runner stops where the fault shows instead of producing wrong numbers.

    ## Example
    ```mlir
    %x = memref.load %buf[%c64] : memref<64xf32>
    ```

    ## Fix safety
    There is no fix.

    ## References
    - `gpu_lsp/runner/README.md`
    """,
    checked_by="gpu_lsp/runner (gpu-run)",
    upstream=False,
    linted=False,
)

declare(
    "GPU402",
    "run-unsupported",
    Severity.ERROR,
    """
    ## What it does
    `gpu-run` reports an op, or a form of an op, that it cannot execute faithfully (a
    tensor op, an op gpu-lsp does not know, an affine map it cannot evaluate).

    ## Why is this bad?
    The program may be valid; the runner cannot say what it computes.

    ## Example
    ```mlir
    %t = tensor.empty() : tensor<4xf32>
    ```

    ## Fix safety
    There is no fix.

    ## References
    - `gpu_lsp/runner/README.md`
    """,
    checked_by="gpu_lsp/runner (gpu-run)",
    upstream=False,
    linted=False,
)

declare(
    "GPU403",
    "run-warning",
    Severity.WARNING,
    """
    ## What it does
    `gpu-run` reports what it noticed about async ops while executing, without stopping:
    two ops using a buffer with no async token ordering them, the host using a buffer an
    async op may still use, an async token never waited on.

    ## Why is this bad?
    The run finished in one order, but on a real GPU the async work runs when it runs:
    the result may differ.

    ## Example
    ```mlir
    %t = gpu.memcpy async %dev, %host : memref<4xf32>, memref<4xf32>
    %x = memref.load %host[%c0] : memref<4xf32>
    ```

    ## Fix safety
    There is no fix.

    ## References
    - `gpu_lsp/runner/README.md`
    """,
    checked_by="gpu_lsp/runner (gpu-run)",
    upstream=False,
    linted=False,
)

declare(
    "GPU501",
    "pass-error",
    Severity.ERROR,
    """
    ## What it does
    `gpu-opt` reports a pass that failed (`signalPassFailure`), with the pass's message at
    the op it names, as mlir-opt prints it.

    ## Why is this bad?
    The pass pipeline stopped; its output, if any, is not what the pipeline should give.

    ## Example
    `gpu-opt --gpu-kernel-outlining` on a `gpu.launch` whose body calls a symbol it cannot
    clone into the kernel module.

    ## Fix safety
    There is no fix.

    ## References
    - `docs/passes.md`
    """,
    checked_by="gpu_lsp/passes (gpu-opt)",
    upstream=False,
    linted=False,
)
