"""GPU415 (alias GPU210): device-only ops in host code, kernels on plain host memory, host accesses to device memory."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name
from gpu_lsp.diagnostics.rules.async_tokens import device_memory_on_host, direct_access
from gpu_lsp.diagnostics.sanitizer.host import HOST_MEMORY_IN_KERNEL, chunk_hazards, in_host_function
from gpu_lsp.ir import effects

DEVICE_ONLY = (
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id", "gpu.lane_id",
    "gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size", "gpu.cluster_id", "gpu.cluster_dim",
    "gpu.cluster_block_id", "gpu.barrier", "gpu.shuffle", "gpu.subgroup_reduce", "gpu.all_reduce",
)


@rule("GPU415", "host-device-mismatch", Severity.WARNING, whole_module=True)
def host_device_mismatch(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports device-only ops (`gpu.thread_id`, `gpu.block_id`, `gpu.barrier`,
    `gpu.shuffle`, ...) in a host function (one outside any `gpu.module` and kernel that
    itself allocates, copies, launches or waits), a kernel reading or writing a host
    buffer from `memref.alloc`/`memref.alloca` that was not `gpu.host_register`ed, and a
    host op reading, writing or freeing a `gpu.alloc` buffer that is not `host_shared`
    (through views too): a load, store, copy or `memref.dealloc`, any op whose declaration
    puts `MemRead`, `MemWrite` or `MemFree` on the operand. The last finding was also GPU210
    (host-access-to-device-memory); GPU210 is now an alias of GPU415 (selecting, ignoring
    or suppressing GPU210 means GPU415) and its code is not reused.

    ## Why is this bad?
    Thread and block ids only exist on the device: on the host the lowering fails or the
    value is meaningless. Plain host memory is not addressable by a kernel and device
    memory is not addressable by the host: the access faults (an illegal address on the
    GPU, a segmentation fault on the host).

    ## Example
    ```mlir
    %host = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%host : memref<64xf32>)
    ```
    Use instead: register the host buffer (or copy it to a `gpu.alloc` buffer):
    ```mlir
    %host = memref.alloc() : memref<64xf32>
    %any = memref.cast %host : memref<64xf32> to memref<*xf32>
    gpu.host_register %any : memref<*xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%host : memref<64xf32>)
    ```

    ## Fix safety
    There is no fix: where the data should live is the author's decision.

    ## References
    - [`gpu.host_register`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuhost_register-gpuhostregisterop)
    - [`gpu.alloc` `host_shared`](https://mlir.llvm.org/docs/Dialects/GPU/#gpualloc-gpuallocop)
    """
    for op in ctx.index.named(*DEVICE_ONLY):
        func = in_host_function(op, ctx)
        if func is not None:
            yield Violation(
                f"`{op.name}` is a device op but runs in host code: move it into a kernel",
                at(op),
                related=(Related("this function issues GPU work from the host", at(func)),),
            )
    for hazard in chunk_hazards(ctx):
        if hazard.other is None or hazard.kind != HOST_MEMORY_IN_KERNEL:  # a leak (another rule's), or below
            continue
        name = value_name(hazard.buffer)
        message = (
            f"the kernel of `{hazard.op.name}` accesses `{name}`, host memory from `{hazard.other.name}` that is "
            "not registered: register it with `gpu.host_register` or copy it to a `gpu.alloc` buffer"
        )
        yield Violation(message, at(hazard.op), related=(Related(f"`{name}` is allocated on the host here", at(hazard.other)),))
    touching = {name for name in ctx.index.by_name if effects.may_touch(name)}
    for op in ctx.index.ops:
        if op.name in touching and direct_access(op):
            yield from device_memory_on_host(op)
