"""GPU412: device memory read before anything wrote it."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name
from gpu_lsp.diagnostics.sanitizer.host import UNINITIALIZED, chunk_hazards


@rule("GPU412", "uninitialized-device-read", Severity.WARNING, whole_module=True)
def uninitialized_device_read(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a read of a `gpu.alloc` buffer before any write to it: copied out by
    `gpu.memcpy`, loaded by a kernel that never stores to it, or loaded on the host (for a
    `host_shared` buffer), when no `gpu.memcpy` into it, `gpu.memset`, kernel store or host
    store came first in the same block.

    ## Why is this bad?
    `gpu.alloc` does not clear memory: the read sees whatever the previous owner of the
    memory left there, so results change from run to run (compute-sanitizer's initcheck
    finds this at run time).

    ## Example
    ```mlir
    %dev = gpu.alloc () : memref<64xf32>
    gpu.memcpy %host, %dev : memref<64xf32>, memref<64xf32>
    ```
    Use instead: fill the buffer first:
    ```mlir
    %dev = gpu.alloc () : memref<64xf32>
    gpu.memset %dev, %zero : memref<64xf32>, f32
    gpu.memcpy %host, %dev : memref<64xf32>, memref<64xf32>
    ```

    ## Fix safety
    There is no fix: what the buffer should hold is the author's decision.

    ## References
    - [`gpu.alloc`](https://mlir.llvm.org/docs/Dialects/GPU/#gpualloc-gpuallocop)
    - [compute-sanitizer initcheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#initcheck-tool)
    """
    for hazard in chunk_hazards(ctx):
        if hazard.kind == UNINITIALIZED and hazard.other is not None:  # the allocation
            name = value_name(hazard.buffer)
            yield Violation(
                f"`{hazard.op.name}` reads `{name}` before anything wrote it: `gpu.alloc` leaves memory uninitialized",
                at(hazard.op),
                related=(Related(f"`{name}` is allocated here", at(hazard.other)),),
            )
