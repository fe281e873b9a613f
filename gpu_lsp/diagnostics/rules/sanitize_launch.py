"""GPU413: constant launch sizes a CUDA device rejects, or that contradict the kernel's known sizes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at
from gpu_lsp.diagnostics.sanitizer.host import kernel_of
from gpu_lsp.diagnostics.sanitizer.limits import (
    MAX_BLOCK_DIMS,
    MAX_GRID_DIMS,
    MAX_THREADS_PER_BLOCK,
)
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.traits import constant_int
from gpu_lsp.ir.views import LaunchFuncView, LaunchView

AXES = "xyz"


def _constants(values: Sequence[Value | None]) -> list[int | None]:
    return [constant_int(v) if v is not None else None for v in values]


def limit_problems(grid: list[int | None], block: list[int | None]) -> list[str]:
    """What CUDA rejects in these sizes (None: not a constant), in the order a launch checks them."""
    out: list[str] = []
    for what, sizes in (("grid", grid), ("block", block)):
        for axis, size in zip(AXES, sizes):
            if size is not None and size <= 0:
                out.append(f"{what} size {size} in dimension {axis}: a launch needs positive sizes")
    positive = [b for b in block if b is not None and b > 0]
    if len(block) == 3 and len(positive) == 3:
        threads = positive[0] * positive[1] * positive[2]
        if threads > MAX_THREADS_PER_BLOCK:
            out.append(f"{threads} threads per block: CUDA allows at most {MAX_THREADS_PER_BLOCK}")
    for what, sizes, limits in (("block", block, MAX_BLOCK_DIMS), ("grid", grid, MAX_GRID_DIMS)):
        for axis, size, limit in zip(AXES, sizes, limits):
            if size is not None and size > limit:
                out.append(f"{what} size {size} in dimension {axis}: CUDA allows at most {limit}")
    return out


def _known(func: Operation, name: str) -> tuple[int, ...] | None:
    attr = func.get_attr(name)
    return tuple(attr.values) if isinstance(attr, DenseArrayAttr) and len(attr.values) == 3 else None


@rule("GPU413", "launch-size-out-of-limits", Severity.WARNING, ops=("gpu.launch", "gpu.launch_func"), whole_module=True)
def launch_size_out_of_limits(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the constant grid and block sizes of `gpu.launch` and `gpu.launch_func`: a
    zero or negative size, more than 1024 threads per block, a block larger than 1024 in
    x or y or 64 in z, a grid larger than 2³¹-1 in x or 65535 in y or z, and sizes that
    differ from the `known_block_size` / `known_grid_size` of the launched `gpu.func`.

    ## Why is this bad?
    A CUDA device refuses such a launch ("invalid configuration argument") and the kernel
    never runs; the program goes on with whatever the buffers held. A launch that
    contradicts `known_block_size` runs a kernel compiled under a false assumption (the
    compiler folded `gpu.block_dim` to the known value), so its indexing is wrong.

    ## Example
    ```mlir
    %c2048 = arith.constant 2048 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2048, %c1, %c1)
    ```
    Use instead: at most 1024 threads per block, and more blocks:
    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c1024, %c1, %c1)
    ```

    ## Fix safety
    There is no fix: the kernel's indexing decides how the work should be split.

    ## References
    - [CUDA C++ Programming Guide: compute capabilities](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#features-and-technical-specifications)
    - [`gpu.func` known sizes](https://mlir.llvm.org/docs/Dialects/GPU/#gpufunc-gpugpufuncop)
    """
    if op.name == "gpu.launch":
        view = LaunchView(op)
        if not view.well_formed:
            return
        grid, block = _constants(view.grid_sizes), _constants(view.block_sizes)
        func = None
    else:
        fview = LaunchFuncView(op)
        if fview.segments is None:
            return
        grid, block = _constants(fview.grid_sizes), _constants(fview.block_sizes)
        func = kernel_of(op, ctx)
    problems = limit_problems(grid, block)
    if problems:
        yield Violation(f"`{op.name}` has {'; '.join(problems)}", at(op))
    if func is None or problems:
        return
    for what, sizes, attr in (("block", block, "known_block_size"), ("grid", grid, "known_grid_size")):
        known = _known(func, attr)
        if known is None or len(sizes) != 3 or any(s is None for s in sizes) or tuple(sizes) == known:
            continue
        yield Violation(
            f"`{op.name}` launches with {what} size ({', '.join(map(str, sizes))}) but the kernel declares "
            f"`{attr} = array<i32: {', '.join(map(str, known))}>`",
            at(op),
            related=(Related(f"`{attr}` is declared here", at(func)),),
        )
