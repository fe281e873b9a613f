"""Handlers for host-side GPU runtime ops (alloc, memcpy, launches, waits) and the async dialect."""

from __future__ import annotations

import time

import numpy as np

from gpu_lsp.diagnostics.sanitizer.limits import MAX_BLOCK_DIMS, MAX_GRID_DIMS, MAX_THREADS_PER_BLOCK
from gpu_lsp.ir.core import Operation, Region
from gpu_lsp.ir.operands import split_by_segments
from gpu_lsp.ir.views import FuncView, LaunchFuncView, async_token, attribution_counts
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter, handles
from gpu_lsp.runner.lanes import is_uniform
from gpu_lsp.runner.memory import DEVICE, SHARED, MemRef, contiguous_strides
from gpu_lsp.runner.ops_core import layout_is_identity, memref_type, shape_from
from gpu_lsp.runner.program import launch_kernel_name
from gpu_lsp.runner.tokens import Token


def host_only(ctx: Ctx, op: Operation) -> None:
    if ctx.device:
        raise RunError(f"'{op.name}' op is a host operation but runs inside a kernel", op)


def split_segments(op: Operation, values: list) -> dict[str, list]:
    """The runtime `values` of `op`'s operands by declared operand name."""
    groups = split_by_segments(op, values)
    if groups is None:
        raise Unsupported(f"'{op.name}' without operand segments is not supported by the runner", op)
    return groups


def _xyz(groups: dict[str, list], prefix: str) -> list:
    return [v for d in "XYZ" for v in groups[prefix + d]]


def tokens_of(op: Operation, values: list) -> list[Token]:
    for v in values:
        if not isinstance(v, Token):
            raise RunError(f"'{op.name}' op depends on a value that is not an async token", op)
    return list(values)


def is_async(op: Operation) -> bool:
    return async_token(op) is not None


class GpuOp:
    """One host-side GPU operation: its dependencies, stream, happens-before node and token."""

    def __init__(self, it: Interpreter, op: Operation, deps: list[Token]) -> None:
        self.it = it
        self.op = op
        self.deps = deps
        self.is_async = is_async(op)
        if not self.is_async and deps:
            # A synchronous op with dependencies: the host waits for them first.
            it.backend.wait_host(deps)
            it.tracker.host_wait(deps)
        self.stream = it.backend.stream_for(deps if self.is_async else [], op)
        self.node = it.tracker.begin(op, deps)

    def touch(self, mem: MemRef, write: bool) -> None:
        if mem.buf.freed:
            raise RunError(f"'{self.op.name}' op uses memory that was already freed (allocated at {self.it.locator.where(mem.buf.op)})", self.op)
        self.it.tracker.touch(self.node, mem.buf, write)

    def finish(self) -> list:
        self.it.tracker.end(self.node, self.is_async)
        if not self.is_async:
            self.it.backend.sync_stream(self.stream)
            return []
        tok = self.it.tracker.token(self.node, self.op)
        tok.stream = self.stream
        tok.event = self.it.backend.record(self.stream)
        return [tok]


@handles("gpu.wait")
def _wait(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    deps = tokens_of(op, it.operands(op, env))
    if is_async(op):
        g = GpuOp(it, op, deps)
        it.set_results(op, g.finish(), env, ctx, mask)
        return
    started = time.perf_counter()
    it.backend.wait_host(deps)
    it.tracker.host_wait(deps, op, started)


@handles("gpu.alloc")
def _alloc(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    groups = split_segments(op, it.operands(op, env))
    deps, dyn, syms = groups["asyncDependencies"], groups["dynamicSizes"], groups["symbolOperands"]
    ty, dt = memref_type(op, op.results[0].type)
    if not layout_is_identity(ty) or syms:
        raise Unsupported(f"'gpu.alloc' of {ty} with a layout is not supported by the runner", op)
    sizes = shape_from(op, ty, dyn)
    g = GpuOp(it, op, tokens_of(op, deps))
    kind = SHARED if op.get_attr("hostShared") is not None else DEVICE
    count = int(np.prod(sizes)) if sizes else 1
    buf = it.backend.alloc(it.pool, count * dt.itemsize, kind, op)
    mem = MemRef(buf, dt, 0, sizes, contiguous_strides(sizes), ty)
    g.touch(mem, True)
    it.set_results(op, [mem] + g.finish(), env, ctx, mask)


@handles("gpu.dealloc")
def _dealloc(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    *deps, mem = it.operands(op, env)
    if mem.buf.kind not in (DEVICE, SHARED):
        raise RunError(f"'gpu.dealloc' op frees memory allocated by '{mem.buf.op.name}' at {it.locator.where(mem.buf.op)}", op)
    if mem.buf.freed:
        raise RunError(f"'gpu.dealloc' op frees memory that was already freed (allocated at {it.locator.where(mem.buf.op)})", op)
    g = GpuOp(it, op, tokens_of(op, deps))
    g.touch(mem, True)
    it.backend.free(it.pool, mem.buf)
    it.set_results(op, g.finish(), env, ctx, mask)


def _contiguous(mem: MemRef) -> bool:
    return is_uniform(mem.offset) and mem.identity_strides()


@handles("gpu.memcpy")
def _memcpy(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    *deps, dst, src = it.operands(op, env)
    if dst.dtype != src.dtype:
        raise RunError(f"'gpu.memcpy' op copies {src.dtype} elements into a memref of {dst.dtype}", op)
    if src.num_elements() != dst.num_elements():
        raise RunError(f"'gpu.memcpy' op copies {src.num_elements()} elements into a memref of {dst.num_elements()}", op)
    if not _contiguous(src) or not _contiguous(dst):
        raise Unsupported("'gpu.memcpy' of non-contiguous memrefs is not supported by the runner", op)
    g = GpuOp(it, op, tokens_of(op, deps))
    g.touch(src, False)
    g.touch(dst, True)
    it.backend.memcpy(dst, src, g.stream, op)
    it.set_results(op, g.finish(), env, ctx, mask)


@handles("gpu.memset")
def _memset(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    *deps, dst, value = it.operands(op, env)
    if not _contiguous(dst):
        raise Unsupported("'gpu.memset' of a non-contiguous memref is not supported by the runner", op)
    g = GpuOp(it, op, tokens_of(op, deps))
    g.touch(dst, True)
    it.backend.memset(dst, value, g.stream, op)
    it.set_results(op, g.finish(), env, ctx, mask)


@handles("gpu.host_register", "gpu.host_unregister")
def _host_register(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    (mem,) = it.operands(op, env)
    register = op.name == "gpu.host_register"
    if register:
        it.backend.register(mem.buf, op)
    else:
        it.backend.unregister(mem.buf, op)


@handles("gpu.set_default_device")
def _set_default_device(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    (dev,) = it.operands(op, env)
    it.backend.set_device(int(dev), op)


def _dims(op: Operation, values: list, what: str) -> tuple[int, ...]:
    out = []
    for v in values:
        if not is_uniform(v):
            raise RunError(f"'{op.name}' op {what} size is not a host value", op)
        out.append(int(v))
    return tuple(out)


def check_launch(op: Operation, grid, block, cluster, dsm: int) -> None:
    """The launch limits a CUDA device enforces ("invalid configuration argument")."""
    for name, dims in (("grid", grid), ("block", block)) + ((("cluster", cluster),) if cluster else ()):
        for d, v in zip("xyz", dims):
            if v <= 0:
                raise RunError(f"'{op.name}' op has {name} size {v} in dimension {d}: a CUDA launch needs positive sizes", op)
    threads = block[0] * block[1] * block[2]
    if threads > MAX_THREADS_PER_BLOCK:
        raise RunError(f"'{op.name}' op launches {threads} threads per block; CUDA allows at most {MAX_THREADS_PER_BLOCK}", op)
    for d, v, lim in zip("xyz", block, MAX_BLOCK_DIMS):
        if v > lim:
            raise RunError(f"'{op.name}' op has block size {v} in dimension {d}; CUDA allows at most {lim}", op)
    for d, v, lim in zip("xyz", grid, MAX_GRID_DIMS):
        if v > lim:
            raise RunError(f"'{op.name}' op has grid size {v} in dimension {d}; CUDA allows at most {lim}", op)
    if cluster:
        for d, g, c in zip("xyz", grid, cluster):
            if g % c:
                raise RunError(f"'{op.name}' op has grid size {g} in dimension {d}, not a multiple of the cluster size {c}", op)
    if dsm < 0:
        raise RunError(f"'{op.name}' op asks for {dsm} bytes of dynamic shared memory", op)


class Kernel:
    """What a launch runs: a gpu.func, or the body of a gpu.launch with the host env it sees."""

    def __init__(self, op: Operation, region: Region, name: str, parent_env: Env | None) -> None:
        self.op = op
        self.region = region
        self.name = name
        self.parent_env = parent_env
        self.is_launch = op.name == "gpu.launch"

    @property
    def attributions(self) -> tuple[int, int]:
        return attribution_counts(self.op)


def _launch_common(it: Interpreter, op: Operation, g: GpuOp, kernel: Kernel, grid, block, cluster, dsm, args, captured) -> None:
    check_launch(op, grid, block, cluster, dsm)
    written = it.program.written_memrefs(kernel)
    for index, value in enumerate(args):
        if isinstance(value, MemRef):
            g.touch(value, index in written or written == "all")
    for v, value in captured:
        if isinstance(value, MemRef):
            g.touch(value, v in written or written == "all")
    it.backend.launch(it, kernel, op, grid, block, cluster, dsm, args, g.stream)


@handles("gpu.launch_func")
def _launch_func(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    groups = split_segments(op, it.operands(op, env))
    deps, dsm, args = groups["asyncDependencies"], groups["dynamicSharedMemorySize"], groups["kernelOperands"]
    if groups["asyncObject"]:
        raise Unsupported("'gpu.launch_func' with an explicit stream (async object) is not supported by the runner", op)
    sym = LaunchFuncView(op).kernel
    if sym is None:
        raise RunError("'gpu.launch_func' op has no kernel symbol", op)
    func = it.program.lookup_kernel(op, sym)
    grid = _dims(op, _xyz(groups, "gridSize"), "grid")
    block = _dims(op, _xyz(groups, "blockSize"), "block")
    cluster = _dims(op, _xyz(groups, "clusterSize"), "cluster") if groups["clusterSizeX"] else None
    dsm_bytes = int(dsm[0]) if dsm else 0
    region = func.regions[0]
    ftype = FuncView(func).function_type
    nparams = len(ftype.inputs) if ftype is not None else len(args)
    if len(args) != nparams:
        raise RunError(f"'gpu.launch_func' op passes {len(args)} arguments to @{sym.leaf}, which takes {nparams}", op)
    g = GpuOp(it, op, tokens_of(op, deps))
    kernel = Kernel(func, region, sym.leaf, None)
    _launch_common(it, op, g, kernel, grid, block, cluster, dsm_bytes, args, [])
    it.set_results(op, g.finish(), env, ctx, mask)


@handles("gpu.launch")
def _launch(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    groups = split_segments(op, it.operands(op, env))
    deps, dsm = groups["asyncDependencies"], groups["dynamicSharedMemorySize"]
    grid = _dims(op, _xyz(groups, "gridSize"), "grid")
    block = _dims(op, _xyz(groups, "blockSize"), "block")
    cluster = _dims(op, _xyz(groups, "clusterSize"), "cluster") if groups["clusterSizeX"] else None
    dsm_bytes = int(dsm[0]) if dsm else 0
    g = GpuOp(it, op, tokens_of(op, deps))
    kernel = Kernel(op, op.regions[0], launch_kernel_name(op), env)
    captured = [(v, env.get(v)) for v in it.program.captured_values(op)]
    _launch_common(it, op, g, kernel, grid, block, cluster, dsm_bytes, [], captured)
    it.set_results(op, g.finish(), env, ctx, mask)


# --- async dialect -----------------------------------------------------------------------------


class AsyncValue:
    """An `!async.value<T>`: the payload computed by an async.execute region."""

    def __init__(self, value, token: Token) -> None:
        self.value = value
        self.token = token

    def same_as(self, other) -> bool:
        return self is other


class AsyncGroup:
    def __init__(self, size: int) -> None:
        self.size = size
        self.members: list[Token] = []


def _async_token(it: Interpreter, v) -> Token:
    if isinstance(v, AsyncValue):
        return v.token
    if isinstance(v, Token):
        return v
    raise RunError("expected an !async.token or !async.value")


@handles("async.execute")
def _execute(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    host_only(ctx, op)
    vals = it.operands(op, env)
    ndeps, nargs = op.facts.segments or (len(vals), 0)
    deps = [_async_token(it, v) for v in vals[:ndeps]]
    for t in deps:
        t.consumed = True
    args = []
    for v in vals[ndeps : ndeps + nargs]:
        if not isinstance(v, AsyncValue):
            raise RunError("'async.execute' op takes an operand that is not an !async.value", op)
        v.token.consumed = True
        args.append(v.value)
    out = it.run_region(op.regions[0], args, Env(env), ctx, mask) or []
    tok = it.tracker.token(None, op)
    results = [tok] + [AsyncValue(v, tok) for v in out]
    it.set_results(op, results, env, ctx, mask)


@handles("async.await")
def _await(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (v,) = it.operands(op, env)
    tok = _async_token(it, v)
    tok.consumed = True
    tok.waited = True
    if op.results:
        if not isinstance(v, AsyncValue):
            raise RunError("'async.await' op awaits a token but has a result", op)
        it.set_results(op, [v.value], env, ctx, mask)


@handles("async.create_group")
def _create_group(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (size,) = it.operands(op, env)
    env.vals[op.results[0]] = AsyncGroup(int(size))


@handles("async.add_to_group")
def _add_to_group(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    v, group = it.operands(op, env)
    tok = _async_token(it, v)
    tok.consumed = True
    if len(group.members) >= group.size:
        raise RunError(f"'async.add_to_group' op adds a member to a full group of size {group.size}", op)
    group.members.append(tok)
    env.vals[op.results[0]] = np.int64(len(group.members) - 1)


@handles("async.await_all")
def _await_all(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (group,) = it.operands(op, env)
    for tok in group.members:
        tok.waited = True

