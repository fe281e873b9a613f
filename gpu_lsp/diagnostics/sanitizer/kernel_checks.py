"""The launch sites of a kernel (sizes, constant parameters) and its verdicts, computed once per chunk."""

from __future__ import annotations

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.sanitizer.accesses import DIM_OPS, Launch, axis_of
from gpu_lsp.diagnostics.sanitizer.host import kernel_of
from gpu_lsp.diagnostics.sanitizer.verdicts import Verdicts, check_kernel, params_of
from gpu_lsp.ir.attributes import DenseArrayAttr, IntegerAttr, SymbolRefAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.traits import constant_int
from gpu_lsp.ir.views import LaunchFuncView, LaunchView

_LAUNCH_ARG_ROLES = (("bid", 0), ("bid", 1), ("bid", 2), ("tid", 0), ("tid", 1), ("tid", 2),
                     ("gdim", 0), ("gdim", 1), ("gdim", 2), ("bdim", 0), ("bdim", 1), ("bdim", 2))


def _agreed(sizes: list[list[Value]]) -> tuple[int | None, int | None, int | None]:
    """Per axis, the size every launch site passes as the same constant."""
    out: list[int | None] = []
    for axis in range(3):
        seen = {constant_int(s[axis]) if len(s) > axis else None for s in sizes}
        out.append(seen.pop() if len(seen) == 1 else None)
    return out[0], out[1], out[2]


def _known(func: Operation, name: str) -> tuple[int | None, int | None, int | None]:
    attr = func.get_attr(name)
    if isinstance(attr, DenseArrayAttr) and len(attr.values) == 3:
        return attr.values[0], attr.values[1], attr.values[2]
    return None, None, None


def _either(
    sites: tuple[int | None, int | None, int | None], known: tuple[int | None, int | None, int | None]
) -> tuple[int | None, int | None, int | None]:
    """Per axis, the launch sites' size, else the kernel's `known_*_size`."""
    return (
        sites[0] if sites[0] is not None else known[0],
        sites[1] if sites[1] is not None else known[1],
        sites[2] if sites[2] is not None else known[2],
    )


def _launch_sites(ctx: RuleContext) -> dict[int, list[Operation]]:
    """id of each `gpu.func` of the rules' view -> the `gpu.launch_func`s of the chunk launching it,
    found once per view (in the whole chunk: an incremental lint's view of one kernel holds none)."""
    key = ("sanitizer.launch_sites",)
    found = ctx.cache.get(key)
    if found is None:
        found = {}
        kernels = {name for op in ctx.index.named("gpu.func") if (name := symbol_name(op)) is not None}
        for op in ctx.chunk_ops("gpu.launch_func", kernels) if kernels else ():
            func = kernel_of(op, ctx)
            if func is not None:
                found.setdefault(id(func), []).append(op)
        ctx.cache[key] = found
    return found


def size_bounds(kernel: Operation) -> dict[tuple[str, int], int]:
    """("bdim" | "gdim", axis) -> the least `upper_bound` the body's id ops put on that size."""
    # An id stays below its upper_bound and a size is at most it (beyond is undefined behaviour):
    # `gpu.thread_id x upper_bound 16` and `gpu.block_dim x upper_bound 16` both bound the block's x size by 16.
    out: dict[tuple[str, int], int] = {}
    for op in kernel.walk():
        kind = DIM_OPS.get(op.name)
        if kind is None:
            continue
        attr = op.properties.get("upper_bound") or op.attributes.get("upper_bound")
        axis = axis_of(op)
        if axis is None or not isinstance(attr, IntegerAttr) or isinstance(attr.value, bool):
            continue
        key = ("bdim" if kind in ("tid", "bdim") else "gdim", axis)
        out[key] = min(out.get(key, attr.value), attr.value)
    return out


def kernel_launch(kernel: Operation, ctx: RuleContext) -> Launch:
    """What the launch sites of `kernel` (a `gpu.func` or a `gpu.launch`) fix about it."""
    launch = _sites_launch(kernel, ctx)
    if None in launch.block or None in launch.grid:  # what bounds a size the sites leave open (the solver's `terms.Threads.size`)
        launch.size_bounds = size_bounds(kernel)
    return launch


def _sites_launch(kernel: Operation, ctx: RuleContext) -> Launch:
    if kernel.name == "gpu.launch":
        view = LaunchView(kernel)
        entry = view.entry
        launch = Launch(block=_agreed([[v for v in view.block_sizes if v is not None]]),
                        grid=_agreed([[v for v in view.grid_sizes if v is not None]]))
        if entry is not None:
            launch.launch_args = dict(zip(entry.arguments[:12], _LAUNCH_ARG_ROLES))
        return launch
    sites = _launch_sites(ctx).get(id(kernel), [])
    entry = kernel.regions[0].blocks[0] if kernel.regions and kernel.regions[0].blocks else None
    if not sites:
        return Launch(block=_known(kernel, "known_block_size"), grid=_known(kernel, "known_grid_size"))
    sites_views = [LaunchFuncView(op) for op in sites]
    launch = Launch(
        block=_either(_agreed([v.block_sizes for v in sites_views]), _known(kernel, "known_block_size")),
        grid=_either(_agreed([v.grid_sizes for v in sites_views]), _known(kernel, "known_grid_size")),
    )
    if entry is not None:
        passed: dict[Value, list[int | None]] = {arg: [] for arg in entry.arguments}
        for site in sites_views:
            for arg, value in zip(entry.arguments, site.kernel_operands):
                passed[arg].append(constant_int(value))
        launch.params = params_of(passed)
    return launch


def callee_of(call: Operation, ctx: RuleContext) -> Operation | None:
    """The `func.func` with a body that a `func.call` calls, when it is in this chunk."""
    ref = call.properties.get("callee") or call.attributes.get("callee")
    if not isinstance(ref, SymbolRefAttr):
        return None
    target = ctx.symbols.lookup_nearest(call, ref)
    if target is None or target.name != "func.func" or not target.regions or not target.regions[0].blocks:
        return None
    return target


def cached_verdicts(kernel: Operation, ctx: RuleContext) -> Verdicts:
    """`check_kernel` of a kernel body with its launch, once per chunk."""
    key = ("sanitizer.verdicts", id(kernel))
    found = ctx.cache.get(key)
    if found is None:
        found = ctx.cache[key] = check_kernel(kernel, kernel_launch(kernel, ctx), lambda call: callee_of(call, ctx))
    return found
