"""GPU410: two GPU ops access one buffer, at least one writing, with nothing ordering them."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name, wait_before
from gpu_lsp.diagnostics.sanitizer.host import RACE, chunk_hazards
from gpu_lsp.ir.views import async_token


@rule("GPU410", "unordered-buffer-access", Severity.WARNING, fix=FixAvailability.SOMETIMES, whole_module=True)
def unordered_buffer_access(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports two GPU ops (kernel launches, `gpu.memcpy`, `gpu.memset`, `gpu.alloc`) that
    access the same buffer, at least one of them writing, when neither is ordered before
    the other: no async token path leads from one to the other, and no blocking
    `gpu.wait` or synchronous GPU op waited for the first before the second was issued.

    ## Why is this bad?
    Async GPU ops run in streams; ops on different streams run concurrently. Two
    unordered writes, or a write and a read, give a result that depends on scheduling:
    a data race that compute-sanitizer's racecheck finds only at run time, if the timing
    happens to show it.

    What a kernel reads and writes comes from its body (loads, stores, atomics and
    copies through each memref argument, views included), summarized once per kernel.
    Each block of host code is followed in program order; work that leaves it (a call,
    a region holding GPU ops) is taken to wait for everything, so a report is certain
    whenever the block runs and the kernels take the paths that make the accesses. Host
    accesses racing with GPU work are GPU208's.

    ## Example
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    %t2 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    ```
    Use instead: make the second launch wait for the first:
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    ```

    ## Fix safety
    When the first op has a named token, the fix inserts a blocking `gpu.wait` on it before
    the second op. It is unsafe: the race goes away, but the host now stalls there, and the
    author may rather have meant the other order, or a token dependency.

    ## References
    - [`gpu` dialect: async execution](https://mlir.llvm.org/docs/Dialects/GPU/)
    - [compute-sanitizer racecheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#racecheck-tool)
    """
    for hazard in chunk_hazards(ctx):
        other = hazard.other  # the op racing with `hazard.op`
        if hazard.kind != RACE or other is None:
            continue
        verb = "writes" if hazard.write else "reads"
        token = async_token(other)
        running = f"`{other.name}` (token `{value_name(token)}`)" if token is not None else f"`{other.name}`"
        yield Violation(
            f"`{hazard.op.name}` {verb} `{value_name(hazard.buffer)}` while {running} may still be using it: "
            "no async token or host wait orders them (a data race on the GPU)",
            at(hazard.op),
            wait_before(ctx, other, hazard.op),
            (Related(f"`{other.name}` uses `{value_name(hazard.buffer)}` here", at(other)),),
        )

