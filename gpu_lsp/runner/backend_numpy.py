"""The NumPy backend: device memory is host memory, kernels run vectorised over chunks of blocks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.views import LaunchView
from gpu_lsp.runner.dtypes import dtype_of, static_shape
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter
from gpu_lsp.runner.lanes import BX, TX, Lin, Space
from gpu_lsp.runner.memory import PRIVATE, WORKGROUP, Access, Buffer, MemoryPool, MemRef, contiguous_strides

if TYPE_CHECKING:
    from gpu_lsp.runner.ops_host import Kernel

# Threads per chunk: blocks run in groups of about this many threads.
CHUNK_THREADS = 1 << 20


@dataclass(eq=False)
class KernelLaunch:
    """The configuration of one launch, seen by device ops through `ctx.launch`, and the
    buffers it allocated."""

    kernel: Kernel
    op: Operation
    grid: Any  # sizes x, y, z
    block: Any
    cluster: Any  # None when the launch has no clusters
    dsm: int
    buffers: list[Buffer] = field(default_factory=list)
    _dsm_buf: tuple[Space, Buffer] | None = None

    def dynamic_buffer(self, it: Interpreter, space: Space, op: Operation) -> Buffer:
        if self._dsm_buf is None or self._dsm_buf[0] is not space:
            buf = it.pool.allocate(self.dsm * space.B, WORKGROUP, op)
            self.buffers.append(buf)
            self._dsm_buf = (space, buf)
        return self._dsm_buf[1]


class NumpyBackend:
    """Runs everything on the CPU with the semantics of the CUDA runtime calls upstream emits."""

    name = "numpy"

    def __init__(self, chunk_threads: int = CHUNK_THREADS) -> None:
        self.chunk_threads = chunk_threads
        self.timings: list[tuple[str, float]] = []

    # --- memory ------------------------------------------------------------------------------

    def alloc(self, pool: MemoryPool, nbytes: int, kind: str, op: Operation) -> Buffer:
        return pool.allocate(nbytes, kind, op)

    def free(self, pool: MemoryPool, buf: Buffer) -> None:
        pool.free(buf)

    def memcpy(self, dst: MemRef, src: MemRef, stream, op: Operation) -> None:
        n = src.num_elements()
        d, s = int(dst.offset), int(src.offset)
        dst.data[d : d + n] = src.data[s : s + n]

    def memset(self, dst: MemRef, value, stream, op: Operation) -> None:
        n = dst.num_elements()
        d = int(dst.offset)
        dst.data[d : d + n] = value

    def register(self, buf: Buffer, op: Operation) -> None:
        buf.registered = True

    def unregister(self, buf: Buffer, op: Operation) -> None:
        buf.registered = False

    def set_device(self, index: int, op: Operation) -> None:
        if index != 0:
            raise RunError(f"device {index} does not exist: the NumPy backend has one device", op)

    # --- streams -----------------------------------------------------------------------------

    def stream_for(self, deps: list, op: Operation):
        return None

    def record(self, stream):
        return None

    def wait_host(self, tokens: list) -> None:
        pass

    def sync_stream(self, stream) -> None:
        pass

    def synchronize(self) -> None:
        pass

    # --- kernels -----------------------------------------------------------------------------

    def launch(self, it: Interpreter, kernel, op: Operation, grid, block, cluster, dsm: int, args: list, stream) -> None:
        start = time.perf_counter()
        launch = KernelLaunch(kernel, op, grid, block, cluster, dsm)
        n = block[0] * block[1] * block[2]
        total = grid[0] * grid[1] * grid[2]
        per_chunk = max(1, self.chunk_threads // n)
        region = kernel.region
        entry = region.blocks[0]
        try:
            for b0 in range(0, total, per_chunk):
                b1 = min(total, b0 + per_chunk)
                space = Space(grid, block, b0, b1)
                access = Access(space, True, it.locator.where)
                if it.racecheck is not None:
                    access.recorder = it.racecheck.chunk(space)
                ctx = Ctx(space, True, access, launch)
                env = Env(kernel.parent_env)
                fixed = self._entry_values(kernel, launch, space, args)
                attrs = self._attributions(it, kernel, entry, len(fixed), space, launch)
                it.run_region(region, fixed + attrs, env, ctx, None)
                for buf in ctx.allocas:
                    it.pool.free(buf)
                for buf in launch.buffers:
                    it.pool.free(buf)
                launch.buffers.clear()
        finally:
            for buf in launch.buffers:
                it.pool.free(buf)
            if it.racecheck is not None:
                it.racecheck.end_launch()
        self.timings.append((kernel.name, time.perf_counter() - start))

    def _entry_values(self, kernel, launch: KernelLaunch, space: Space, args: list) -> list:
        if not kernel.is_launch:
            return list(args)
        ids = [Lin.var(BX + d) for d in range(3)] + [Lin.var(TX + d) for d in range(3)]
        sizes = [np.int64(v) for v in launch.grid] + [np.int64(v) for v in launch.block]
        out = ids + sizes
        if LaunchView(kernel.op).has_clusters:
            cluster = launch.cluster
            out += [space.base[BX + d] // cluster[d] for d in range(3)] + [np.int64(c) for c in cluster]
        return out

    def _attributions(self, it: Interpreter, kernel, entry, first: int, space: Space, launch: KernelLaunch) -> list:
        workgroup, private = kernel.attributions
        out = []
        for k, arg in enumerate(entry.arguments[first : first + workgroup + private]):
            ty = arg.type
            dims = static_shape(ty)
            if not isinstance(ty, T.MemRefType) or dims is None:
                raise Unsupported(f"attribution of type {ty} is not supported by the runner", kernel.op)
            dt = dtype_of(ty.element)
            if dt is None:
                raise Unsupported(f"attribution of type {ty} is not supported by the runner", kernel.op)
            count = int(np.prod(dims)) if dims else 1
            if k < workgroup:
                buf = it.pool.allocate(count * dt.itemsize * space.B, WORKGROUP, kernel.op)
                offset = space.linear_block().scale(count)
            else:
                buf = it.pool.allocate(count * dt.itemsize * space.B * space.N, PRIVATE, kernel.op)
                offset = space.linear_thread().scale(count)
            launch.buffers.append(buf)
            if it.racecheck is not None and arg.name:
                it.racecheck.names[buf.id] = f"%{arg.name}"
            out.append(MemRef(buf, dt, offset, tuple(ty.shape), contiguous_strides(ty.shape), ty))
        return out
