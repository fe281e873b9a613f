"""GPU411: device buffer lifetime (leaks, double free, use after free, free while async work runs)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Violation, rule
from gpu_lsp.diagnostics.rules._util import (
    at,
    fix,
    insert_line_before,
    value_name,
    wait_before,
)
from gpu_lsp.diagnostics.sanitizer.host import (
    DOUBLE_FREE,
    FREE_IN_USE,
    LEAK,
    USE_AFTER_FREE,
    Hazard,
    chunk_hazards,
)
from gpu_lsp.ir.views import async_token


def _leak(hazard: Hazard, ctx: RuleContext) -> Violation:
    name = value_name(hazard.buffer)
    the_fix = None
    block = hazard.op.parent
    terminator = block.terminator if block is not None else None
    if hazard.fixable and terminator is not None and terminator is not hazard.op and hazard.buffer.name:
        the_fix = fix(
            f"Free `{name}` before `{terminator.name}`",
            [insert_line_before(ctx, terminator, f"gpu.dealloc {name} : {hazard.buffer.type}")],
        )
    return Violation(
        f"`{name}` allocated by `gpu.alloc` is never freed: add `gpu.dealloc {name}` once the work using it is done",
        at(hazard.op),
        the_fix,
    )


MESSAGES = {
    DOUBLE_FREE: ("`gpu.dealloc` frees `{buf}` a second time", "`{buf}` is first freed here"),
    USE_AFTER_FREE: ("`{op}` uses `{buf}` after it was freed", "`{buf}` is freed here"),
    FREE_IN_USE: (
        "`gpu.dealloc` frees `{buf}` while {other} may still be using it: make the free depend on its token",
        "`{buf}` is used here, asynchronously",
    ),
}


@rule("GPU411", "device-buffer-lifetime", Severity.WARNING, fix=FixAvailability.SOMETIMES, whole_module=True)
def device_buffer_lifetime(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Follows each `gpu.alloc` through the block of host code that makes it and reports a
    buffer never freed (when it does not escape: not returned, yielded, stored or passed
    to a call), a second `gpu.dealloc` of a freed buffer, a GPU op or host access using a
    freed buffer, and an async `gpu.dealloc` that does not wait for async work still using
    the buffer. A leak is a warning, the others are errors.

    ## Why is this bad?
    Device memory is scarce and not reclaimed until the process exits: a leak in a loop
    or a long-running service runs out of it. A double free or a use after free corrupts
    the allocator or reads memory another allocation now owns; freeing memory a kernel
    still uses is the same fault, only timing-dependent (what compute-sanitizer's memcheck
    reports at run time).

    ## Example
    ```mlir
    %buf, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<64xf32>)
    %t3 = gpu.dealloc async [%t1] %buf : memref<64xf32>
    ```
    Use instead: free after the kernel:
    ```mlir
    %t3 = gpu.dealloc async [%t2] %buf : memref<64xf32>
    ```

    ## Fix safety
    For a leak, when no async work may still use the buffer at the end of the block, the
    fix inserts `gpu.dealloc` before the block's terminator. It is safe: nothing after
    that point in the block uses the buffer, and the buffer does not leave the block.
    For a free while async work may use the buffer, the fix inserts a blocking `gpu.wait`
    on that work's token before the free (when the token is named); it is unsafe: the host
    stalls there.

    ## References
    - [`gpu.alloc`](https://mlir.llvm.org/docs/Dialects/GPU/#gpualloc-gpuallocop),
      [`gpu.dealloc`](https://mlir.llvm.org/docs/Dialects/GPU/#gpudealloc-gpudeallocop)
    - [compute-sanitizer memcheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#memcheck-tool)
    """
    for hazard in chunk_hazards(ctx):
        if hazard.kind == LEAK:
            yield _leak(hazard, ctx)
            continue
        texts = MESSAGES.get(hazard.kind)
        if texts is None:
            continue
        other = hazard.other
        token = async_token(other) if other is not None else None
        running = f"`{other.name}`" if other is not None else ""
        if token is not None:
            running += f" (token `{value_name(token)}`)"
        names = {"buf": value_name(hazard.buffer), "op": hazard.op.name, "other": running}
        message, note = (t.format(**names) for t in texts)
        related = (Related(note, at(hazard.other)),) if hazard.other is not None else ()
        the_fix = wait_before(ctx, hazard.other, hazard.op) if hazard.kind == FREE_IN_USE and hazard.other is not None else None
        yield Violation(message, at(hazard.op), the_fix, related)
