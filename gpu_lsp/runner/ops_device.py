"""Handlers for device-side gpu ops: ids and dims, barriers, shuffles, reductions, printf, shared memory."""

from __future__ import annotations

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, IntegerAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.dtypes import dtype_of, unsigned_of
from gpu_lsp.runner.elementwise import fix
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter, handles, result_dtype
from gpu_lsp.runner.lanes import BX, TX, KernelValue, Lin, Space, is_uniform, materialize
from gpu_lsp.runner.memory import MemRef
from gpu_lsp.runner.runtime import pack_printf_args, vprintf

SUBGROUP = 32
INDEX = np.dtype(np.int64)


def device_only(ctx: Ctx, op: Operation) -> Space:
    if not ctx.device or ctx.space is None:
        raise RunError(f"'{op.name}' op runs outside a kernel", op)
    return ctx.space


def _dim(op: Operation) -> int:
    attr = op.get_attr("dimension")
    body = attr.body if isinstance(attr, DialectAttr) and attr.body else str(attr)
    d = body.split()[-1]
    if d not in ("x", "y", "z"):
        raise RunError(f"'{op.name}' op has an unknown dimension {body}", op)
    return "xyz".index(d)


def _lane_lin(space: Space) -> Lin | None:
    """The lane id as an affine form when a block fits in one subgroup."""
    if space.N > SUBGROUP:
        return None
    return Lin(0, tuple(space.enum_strides[:3]) + (0, 0, 0), INDEX)


def lane_ids(space: Space) -> np.ndarray:
    return space.tl % SUBGROUP


@handles("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id",
         "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_dim_blocks", "gpu.cluster_block_id")
def _ids(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    d = _dim(op)
    launch = ctx.launch
    kind = op.name[4:]
    cluster = launch.cluster or (1, 1, 1)
    value: KernelValue
    if kind == "thread_id":
        value = Lin.var(TX + d)
    elif kind == "block_id":
        value = Lin.var(BX + d)
    elif kind == "block_dim":
        value = np.int64(launch.block[d])
    elif kind == "grid_dim":
        value = np.int64(launch.grid[d])
    elif kind == "global_id":
        coeffs = [0] * 6
        coeffs[TX + d] = 1
        coeffs[BX + d] = launch.block[d]
        value = Lin(0, tuple(coeffs), INDEX)
    elif kind == "cluster_dim_blocks":
        value = np.int64(cluster[d])
    elif kind == "cluster_dim":
        value = np.int64(launch.grid[d] // cluster[d])
    elif kind == "cluster_block_id":
        value = Lin.var(BX + d) if cluster[d] == launch.grid[d] else (space.base[BX + d] % cluster[d])
        if cluster[d] == 1:
            value = np.int64(0)
    else:  # cluster_id
        value = Lin.var(BX + d) if cluster[d] == 1 else space.base[BX + d] // cluster[d]
    it.assign(env, op.results[0], value, ctx, mask)


@handles("gpu.lane_id")
def _lane_id(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    lin = _lane_lin(space)
    it.assign(env, op.results[0], lin if lin is not None else lane_ids(space), ctx, mask)


@handles("gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size")
def _subgroup(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    value: KernelValue
    if op.name == "gpu.subgroup_size":
        value = np.int64(SUBGROUP)
    elif op.name == "gpu.num_subgroups":
        value = np.int64((space.N + SUBGROUP - 1) // SUBGROUP)
    else:
        value = np.int64(0) if space.N <= SUBGROUP else space.tl // SUBGROUP
    it.assign(env, op.results[0], value, ctx, mask)


@handles("gpu.barrier")
def _barrier(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    # Threads of a chunk run in lockstep: every op before the barrier has completed
    # for every thread before any op after it starts.
    device_only(ctx, op)
    if ctx.access.recorder is not None:
        ctx.access.recorder.barrier(op, mask)


def _full(value, space: Space) -> np.ndarray:
    return np.broadcast_to(materialize(value, space), space.shape)


def _first(bad, space: Space) -> str:
    b, t = np.argwhere(np.broadcast_to(bad, space.shape))[0]
    return space.describe(int(b), int(t))


def _active_full(mask, space: Space) -> np.ndarray:
    if mask is None:
        return np.ones(space.shape, bool)
    return np.broadcast_to(mask, space.shape)


@handles("gpu.shuffle")
def _shuffle(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    value, offset, width = it.operands(op, env)
    mode = _enum(op.get_attr("mode"))
    lane = lane_ids(space)
    off = np.asarray(materialize(offset, space)).astype(np.int64)
    wid = np.asarray(materialize(width, space)).astype(np.int64)
    if np.any((wid < 1) | (wid > SUBGROUP)):
        raise RunError(f"'gpu.shuffle' op has width {int(np.min(wid)) if np.any(wid < 1) else int(np.max(wid))}; it must be in 1..{SUBGROUP}", op)
    if mode == "xor":
        j = lane ^ off
        valid = j <= wid - 1
    elif mode == "down":
        j = lane + off
        valid = j <= wid - 1
    elif mode == "up":
        j = lane - off
        valid = j >= SUBGROUP - wid
    elif mode == "idx":
        j = off & (SUBGROUP - 1)
        valid = j <= wid - 1
    else:
        raise Unsupported(f"'gpu.shuffle' mode {mode} is not supported by the runner", op)
    # Lanes at or beyond `width` get `false` (and their own value, standing for poison).
    valid = valid & (lane < wid)
    src_lane = np.where(valid, j, lane)
    src = (space.tl - lane) + src_lane
    active = _active_full(mask, space)
    missing = np.broadcast_to(src >= space.N, space.shape) & active
    if missing.any():
        raise RunError(f"'gpu.shuffle' op reads a lane that does not exist: the block has {space.N} threads ({_first(missing, space)})", op)
    src_full = np.broadcast_to(src, space.shape)
    if mask is not None:
        src_active = np.take_along_axis(active, np.minimum(src_full, space.N - 1), axis=1)
        idle = active & ~src_active
        if idle.any():
            raise RunError(f"'gpu.shuffle' op reads from an inactive lane ({_first(idle, space)}): the result is undefined on a GPU", op)
    if is_uniform(value):
        result = value
    else:
        result = np.take_along_axis(_full(value, space), np.minimum(src_full, space.N - 1), axis=1)
    it.set_results(op, [result, fix(valid) if not isinstance(valid, np.ndarray) else valid], env, ctx, mask)


@handles("gpu.rotate")
def _rotate(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    (value,) = it.operands(op, env)
    offset = _int_attr(op, "offset")
    width = _int_attr(op, "width")
    lane = lane_ids(space)
    valid = lane < width
    src_lane = np.where(valid, (lane + offset) % width + (lane - lane % width), lane)
    src = (space.tl - lane) + src_lane
    if np.any(np.broadcast_to(src >= space.N, space.shape) & _active_full(mask, space)):
        raise RunError(f"'gpu.rotate' op reads a lane that does not exist: the block has {space.N} threads", op)
    result = value if is_uniform(value) else np.take_along_axis(_full(value, space), np.broadcast_to(np.minimum(src, space.N - 1), space.shape), axis=1)
    it.set_results(op, [result, valid], env, ctx, mask)


@handles("gpu.subgroup_broadcast")
def _subgroup_broadcast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    vals = it.operands(op, env)
    value = vals[0]
    kind = _enum(op.get_attr("broadcast_type"))
    lane = lane_ids(space)
    base = space.tl - lane
    active = _active_full(mask, space)
    if kind == "specific_lane":
        src = base + np.asarray(materialize(vals[1], space)).astype(np.int64)
    else:
        # The lowest active lane of each subgroup.
        warp = np.broadcast_to(space.tl // SUBGROUP, space.shape)
        nwarps = (space.N + SUBGROUP - 1) // SUBGROUP
        first = np.full((space.B, nwarps), space.N, np.int64)
        tl = np.broadcast_to(space.tl, space.shape)
        np.minimum.at(first, (np.nonzero(active)[0], warp[active]), tl[active])
        src = np.take_along_axis(first, warp, axis=1)
    src = np.broadcast_to(src, space.shape)
    if np.any((src >= space.N) & active):
        raise RunError("'gpu.subgroup_broadcast' op reads a lane that does not exist", op)
    result = value if is_uniform(value) else np.take_along_axis(_full(value, space), np.minimum(src, space.N - 1), axis=1)
    it.assign(env, op.results[0], result, ctx, mask)


def _enum(attr) -> str:
    if isinstance(attr, DialectAttr):
        return (attr.body or attr.name).split()[-1]
    return str(attr).split()[-1].strip('">')


def _int_attr(op: Operation, name: str) -> int:
    attr = op.get_attr(name)
    if not isinstance(attr, IntegerAttr):
        raise RunError(f"'{op.name}' op has no '{name}'", op)
    return int(attr.value)


# --- reductions --------------------------------------------------------------------------------


def reduce_kind(kind: str, x: np.ndarray, axis: int, op: Operation) -> np.ndarray:
    dt = x.dtype
    with np.errstate(all="ignore"):
        if kind == "add":
            return np.add.reduce(x, axis=axis, dtype=dt) if dt != np.bool_ else np.logical_xor.reduce(x, axis=axis)
        if kind == "mul":
            return np.multiply.reduce(x, axis=axis, dtype=dt) if dt != np.bool_ else np.logical_and.reduce(x, axis=axis)
        if kind in ("and", "or", "xor"):
            if dt.kind == "f":
                raise RunError(f"'{op.name}' op '{kind}' reduction of a float", op)
            fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind]
            return fn.reduce(x, axis=axis)
        if kind in ("minsi", "maxsi"):
            return (np.min if kind == "minsi" else np.max)(x, axis=axis)
        if kind in ("minui", "maxui"):
            u = x.astype(unsigned_of(dt)) if dt != np.bool_ else x
            r = (np.min if kind == "minui" else np.max)(u, axis=axis)
            return r.astype(dt)
        if kind in ("minnumf", "maxnumf"):
            return (np.fmin if kind == "minnumf" else np.fmax).reduce(x, axis=axis)
        if kind in ("minimumf", "maximumf"):
            return (np.minimum if kind == "minimumf" else np.maximum).reduce(x, axis=axis)
    raise Unsupported(f"'{op.name}' kind '{kind}' is not supported by the runner", op)


def _region_reduce(it: Interpreter, op: Operation, region, x: np.ndarray, env: Env, ctx: Ctx) -> np.ndarray:
    """Tree reduction along the last axis with the op's region as the combiner."""
    while x.shape[-1] > 1:
        n = x.shape[-1]
        half = n // 2
        a, b = x[..., :half], x[..., half : 2 * half]
        out = it.run_region(region, [a, b], Env(env), ctx, None)
        if not out:
            raise RunError(f"'{op.name}' op's reduction region yields no value", op)
        combined = np.broadcast_to(materialize(out[0], ctx.space), a.shape).astype(x.dtype, copy=False)
        if n % 2:
            combined = np.concatenate([combined, x[..., 2 * half :]], axis=-1)
        x = combined
    return x[..., 0]


@handles("gpu.all_reduce")
def _all_reduce(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    (value,) = it.operands(op, env)
    if mask is not None:
        m = np.broadcast_to(mask, space.shape)
        partial = m.any(axis=1) & ~m.all(axis=1)
        if partial.any():
            b = int(np.argmax(partial))
            t = int(np.argmin(m[b]))
            raise RunError(f"'gpu.all_reduce' op is reached by only some threads of a block ({space.describe(b, t)} does not reach it)", op)
    dt = result_dtype(op)
    x = np.ascontiguousarray(_full(value, space)).astype(dt, copy=False)
    kind = op.get_attr("op")
    if kind is not None:
        r = reduce_kind(_enum(kind), x, 1, op)
    else:
        if not op.regions or not op.regions[0].blocks:
            raise RunError("'gpu.all_reduce' op has neither a kind nor a region", op)
        r = _region_reduce(it, op, op.regions[0], x, env, ctx)
    it.assign(env, op.results[0], np.asarray(r).reshape(space.B, 1).astype(dt, copy=False), ctx, mask)


@handles("gpu.subgroup_reduce")
def _subgroup_reduce(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    (value,) = it.operands(op, env)
    if isinstance(op.operands[0].type, T.VectorType):
        raise Unsupported("'gpu.subgroup_reduce' of a vector is not supported by the runner", op)
    dt = result_dtype(op)
    size = _int_attr(op, "cluster_size") if op.get_attr("cluster_size") is not None else SUBGROUP
    stride = _int_attr(op, "cluster_stride") if op.get_attr("cluster_stride") is not None else 1
    if size * stride > SUBGROUP or size < 1 or stride < 1:
        raise RunError(f"'gpu.subgroup_reduce' op has a cluster of size {size} and stride {stride}, beyond a subgroup of {SUBGROUP}", op)
    kind = _enum(op.get_attr("op"))
    if mask is None and stride == 1 and SUBGROUP % size == 0 and space.N % size == 0:
        x = np.ascontiguousarray(_full(value, space)).astype(dt, copy=False)
        r = reduce_kind(kind, x.reshape(space.B, space.N // size, size), 2, op)
        it.assign(env, op.results[0], np.repeat(np.asarray(r).astype(dt, copy=False), size, axis=1), ctx, mask)
        return
    tl = space.tl.reshape(-1)
    lane = tl % SUBGROUP
    base = tl - lane + (lane // (size * stride)) * (size * stride) + lane % stride
    members = base[:, None] + stride * np.arange(size)[None, :]
    active = _active_full(mask, space)
    if (members >= space.N).any():
        need = np.any(members >= space.N, axis=1)
        who = np.broadcast_to(need[None, :], space.shape) & active
        if who.any():
            raise RunError(f"'gpu.subgroup_reduce' op reduces over lanes that do not exist: the block has {space.N} threads ({_first(who, space)})", op)
    clipped = np.minimum(members, space.N - 1)
    if mask is not None:
        member_active = active[:, clipped]  # (B, N, size)
        idle = active & ~member_active.all(axis=2)
        if idle.any():
            raise RunError(f"'gpu.subgroup_reduce' op is reached by only some lanes of a cluster ({_first(idle, space)})", op)
    x = np.ascontiguousarray(_full(value, space)).astype(dt, copy=False)
    gathered = x[:, clipped]  # (B, N, size)
    r = reduce_kind(kind, gathered, 2, op)
    it.assign(env, op.results[0], np.asarray(r).astype(dt, copy=False), ctx, mask)


# --- printf and memory ---------------------------------------------------------------------------


@handles("gpu.printf")
def _printf(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    fmt = op.get_attr("format")
    text = fmt.value if isinstance(fmt, StringAttr) else ""
    values = it.operands(op, env)
    types = [v.type for v in op.operands]
    for ty in types:
        if dtype_of(ty) is None:
            raise Unsupported(f"'gpu.printf' of a {ty} argument is not supported by the runner", op)
    full = [_full(v, space) for v in values]
    active = _active_full(mask, space)
    out = []
    for b, t in np.argwhere(active):
        args = pack_printf_args([f[b, t] for f in full], types)
        try:
            out.append(vprintf(text, args))
        except ValueError as exc:
            raise Unsupported(f"'gpu.printf' op: {exc}", op) from exc
    it.output("".join(out))


@handles("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    space = device_only(ctx, op)
    launch = ctx.launch
    buf = launch.dynamic_buffer(it, space, op)
    size = launch.dsm
    mem = MemRef(buf, np.dtype(np.int8), space.linear_block().scale(size), (size,), (1,), op.results[0].type)
    it.assign(env, op.results[0], mem, ctx, mask)
