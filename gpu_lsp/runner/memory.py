"""Buffers and memref descriptors, with bounds-checked, thread-vectorised loads and stores."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import MemoryLimit, RunError
from gpu_lsp.runner.lanes import Lin, Space, materialize

HOST = "host"  # memref.alloc / alloca / globals: host memory
DEVICE = "device"  # gpu.alloc: device memory
SHARED = "host_shared"  # gpu.alloc host_shared: visible to both
WORKGROUP = "workgroup"  # per-block memory (attributions, dynamic shared memory)
PRIVATE = "private"  # per-thread memory

_ids = itertools.count(1)


class Buffer:
    """One allocation: raw bytes plus where it lives and who made it."""

    __slots__ = ("id", "raw", "size", "kind", "op", "registered", "freed", "address", "device_data")

    def __init__(self, nbytes: int, kind: str, op: Operation | None, host: bool = True) -> None:
        self.id = next(_ids)
        self.size = max(nbytes, 0)
        # Device-only memory of a GPU backend has no host bytes.
        self.raw = np.zeros(self.size if host else 0, dtype=np.uint8)
        self.kind = kind
        self.op = op
        self.registered = False
        self.freed = False
        # A plausible, 64-byte aligned address for printMemref's `base@`.
        self.address = 0x7F0000000000 + self.id * 0x100000
        self.device_data: Any = None  # backend-specific mirror (a cupy allocation; cupy has no type stubs)

    @property
    def nbytes(self) -> int:
        return self.size


class MemoryPool:
    """Counts live bytes against an optional cap."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.live = 0
        self.peak = 0

    def allocate(self, nbytes: int, kind: str, op: Operation | None, host: bool = True) -> Buffer:
        if self.limit is not None and self.live + nbytes > self.limit:
            raise MemoryLimit(
                f"allocating {nbytes} bytes would exceed the memory limit of {self.limit} bytes "
                f"({self.live} bytes live)",
                op,
            )
        self.live += nbytes
        self.peak = max(self.peak, self.live)
        return Buffer(nbytes, kind, op, host)

    def free(self, buf: Buffer) -> None:
        if not buf.freed:
            buf.freed = True
            self.live -= buf.nbytes


class MemRef:
    """A strided view of a buffer: element dtype, offset, sizes and strides (in elements).

    In a kernel, `offset` may vary by thread (a `Lin` or an array), e.g. for a
    subview at the thread's row, or for per-block workgroup memory.
    """

    __slots__ = ("buf", "dtype", "data", "offset", "sizes", "strides", "type", "byte_shift")

    def __init__(self, buf: Buffer, dtype: np.dtype, offset, sizes: tuple, strides: tuple, type: T.Type, byte_shift: int = 0) -> None:
        self.buf = buf
        self.byte_shift = byte_shift
        self.dtype = np.dtype(dtype)
        raw = buf.raw[byte_shift:]
        usable = (raw.nbytes // self.dtype.itemsize) * self.dtype.itemsize
        self.data = raw[:usable].view(self.dtype)
        self.offset = offset
        self.sizes = tuple(sizes)
        self.strides = tuple(strides)
        self.type = type

    def derive(self, offset, sizes, strides, type: T.Type) -> MemRef:
        out = MemRef.__new__(MemRef)
        out.buf = self.buf
        out.byte_shift = self.byte_shift
        out.dtype = self.dtype
        out.data = self.data
        out.offset = offset
        out.sizes = tuple(sizes)
        out.strides = tuple(strides)
        out.type = type
        return out

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def uniform(self) -> bool:
        return isinstance(self.offset, (int, np.integer)) and all(isinstance(s, (int, np.integer)) for s in self.sizes + self.strides)

    def num_elements(self) -> int:
        n = 1
        for s in self.sizes:
            n *= int(s)
        return n

    def host_array(self) -> np.ndarray:
        """The elements as an ndarray view (host memrefs only)."""
        if self.rank == 0:
            return self.data[int(self.offset) : int(self.offset) + 1].reshape(())
        itemsize = self.dtype.itemsize
        if self.num_elements() == 0:
            return np.zeros(tuple(int(s) for s in self.sizes), self.dtype)
        return np.lib.stride_tricks.as_strided(
            self.data[int(self.offset) :],
            shape=tuple(int(s) for s in self.sizes),
            strides=tuple(int(s) * itemsize for s in self.strides),
            writeable=True,
        )

    def identity_strides(self) -> bool:
        expected = 1
        for size, stride in zip(reversed(self.sizes), reversed(self.strides)):
            if int(size) != 1 and int(stride) != expected:
                return False
            expected *= int(size)
        return True


def contiguous_strides(sizes) -> tuple[int, ...]:
    strides = []
    acc = 1
    for s in reversed(sizes):
        strides.append(acc)
        acc *= int(s)
    return tuple(reversed(strides))


def describe_buffer(buf: Buffer, where) -> str:
    if buf.op is None:
        return "a buffer"
    return f"the buffer allocated by '{buf.op.name}' at {where(buf.op)}"


class Access:
    """Checks and performs loads and stores of one memref in one execution context."""

    def __init__(self, space: Space | None, device: bool, where) -> None:
        self.space = space
        self.device = device  # True inside a kernel
        self.where = where  # op -> "file:line:col"
        self.recorder: Any = None  # access_log.Recorder of the chunk when `gpu-run --racecheck` records accesses

    # --- permission -------------------------------------------------------------------------

    def check_live(self, mem: MemRef, op: Operation, what: str) -> None:
        buf = mem.buf
        if buf.freed:
            raise RunError(f"'{op.name}' op {what} {describe_buffer(buf, self.where)}, which was already freed", op)
        if self.device:
            if buf.kind == HOST and not buf.registered:
                raise RunError(
                    f"'{op.name}' op {what} host memory ({describe_buffer(buf, self.where)}) from a kernel; "
                    "register it with gpu.host_register or copy it to a gpu.alloc buffer",
                    op,
                )
        elif buf.kind in (DEVICE,):
            raise RunError(
                f"'{op.name}' op {what} device memory ({describe_buffer(buf, self.where)}) from the host; "
                "copy it back with gpu.memcpy or allocate it with gpu.alloc host_shared",
                op,
            )
        elif buf.kind in (WORKGROUP, PRIVATE):
            raise RunError(f"'{op.name}' op {what} {buf.kind} memory outside its kernel", op)

    def lanes(self) -> Space:
        """The thread space of a kernel access (a Lin form or per-thread array exists only in one)."""
        if self.space is None:
            raise ValueError("a per-thread value outside a kernel")
        return self.space

    # --- addresses ---------------------------------------------------------------------------

    def address(self, mem: MemRef, indices: list, op: Operation, mask):
        """Linear element address (scalar, Lin or array) after checking every index against its size."""
        if len(indices) != mem.rank:
            raise RunError(f"'{op.name}' op expects {mem.rank} indices, got {len(indices)}", op)
        space = self.space
        symbolic = all(isinstance(v, (Lin, int, np.integer)) for v in indices) and isinstance(mem.offset, (Lin, int, np.integer))
        if symbolic:
            sym_addr: Lin | int = mem.offset if isinstance(mem.offset, Lin) else int(mem.offset)
            proven = True
            for idx, size, stride in zip(indices, mem.sizes, mem.strides):
                if not isinstance(size, (int, np.integer)) or not isinstance(stride, (int, np.integer)):
                    symbolic = False
                    break
                term: Lin | int
                if isinstance(idx, Lin):
                    lo, hi = idx.bounds(self.lanes())
                    term = idx.scale(int(stride)).with_dtype(np.dtype(np.int64))
                else:
                    lo = hi = int(idx)
                    term = int(idx) * int(stride)
                if lo < 0 or hi >= int(size):
                    proven = False
                sym_addr = term.add(sym_addr) if isinstance(term, Lin) else (sym_addr.add(term) if isinstance(sym_addr, Lin) else sym_addr + term)
            if symbolic and proven:
                self._check_extent(mem, sym_addr, op, mask)
                return sym_addr
        # General path: materialise and check per thread.
        addr = materialize(mem.offset, space)
        addr = np.int64(addr) if isinstance(addr, (int, np.integer)) else addr.astype(np.int64, copy=False)
        for dim, (idx, size, stride) in enumerate(zip(indices, mem.sizes, mem.strides)):
            idx_m = materialize(idx, space)
            if isinstance(idx_m, np.ndarray):
                idx_m = idx_m.astype(np.int64, copy=False)
            else:
                idx_m = np.int64(idx_m)
            size_m = materialize(size, space)
            bad = (idx_m < 0) | (idx_m >= size_m)
            if mask is not None:
                bad = bad & mask
            if np.any(bad):
                if isinstance(bad, np.ndarray) and space is not None:
                    flat = np.argwhere(np.broadcast_to(bad, space.shape))[0]
                    bi, ti = int(flat[0]), int(flat[1])
                    iv = int(np.broadcast_to(idx_m, space.shape)[bi, ti])
                    sv = int(np.broadcast_to(size_m, space.shape)[bi, ti])
                    who = " in " + space.describe(bi, ti)
                else:
                    iv = int(np.asarray(idx_m).flat[0])
                    sv = int(np.asarray(size_m).flat[0])
                    who = ""
                raise RunError(
                    f"'{op.name}' op index {iv} is out of bounds for dimension {dim} of size {sv}{who} "
                    f"(memref of {describe_buffer(mem.buf, self.where)})",
                    op,
                )
            addr = addr + idx_m * materialize(stride, space)
        self._check_extent(mem, addr, op, mask)
        return addr

    def _check_extent(self, mem: MemRef, addr, op: Operation, mask) -> None:
        n = mem.data.shape[0]
        if isinstance(addr, Lin):
            lo, hi = addr.bounds(self.lanes())
            if lo >= 0 and hi < n:
                return
            addr = addr.materialize(self.lanes())
        if isinstance(addr, np.ndarray):
            bad = (addr < 0) | (addr >= n)
            if mask is not None:
                bad = bad & mask
            if not bad.any():
                return
        elif 0 <= int(addr) < n:
            return
        raise RunError(
            f"'{op.name}' op accesses element outside {describe_buffer(mem.buf, self.where)} "
            f"({n} elements): the memref's offset or strides point past its allocation",
            op,
        )

    # --- loads and stores -------------------------------------------------------------------

    def load(self, mem: MemRef, indices: list, op: Operation, mask):
        self.check_live(mem, op, "reads")
        addr = self.address(mem, indices, op, mask)
        if self.recorder is not None:
            self.recorder.record(mem, addr, mask, op, "read")
        return self.gather(mem, addr, mask)

    def gather(self, mem: MemRef, addr, mask):
        data = mem.data
        if isinstance(addr, (int, np.integer)):
            return data[int(addr)]
        if isinstance(addr, Lin):
            space = self.lanes()
            s = addr.stride(space)
            if s is not None and mask is None:
                start = addr.start(space)
                total = space.B * space.N
                if s == 0:
                    return data[start]
                stop = start + s * (total - 1)
                if s > 0:
                    view = data[start : stop + 1 : s]
                else:
                    view = data[start : (stop - 1 if stop > 0 else None) : s]
                return view.reshape(space.shape)
            addr = addr.materialize(space)
        if mask is not None:
            addr = np.where(mask, addr, 0) if data.shape[0] else addr
        return data[addr]

    def store(self, mem: MemRef, indices: list, value, op: Operation, mask) -> None:
        self.check_live(mem, op, "writes")
        addr = self.address(mem, indices, op, mask)
        if self.recorder is not None:
            self.recorder.record(mem, addr, mask, op, "write")
        self.scatter(mem, addr, value, mask)

    def scatter(self, mem: MemRef, addr, value, mask) -> None:
        data = mem.data
        space = self.space
        value = materialize(value, space)
        if isinstance(addr, (int, np.integer)):
            if isinstance(value, np.ndarray):
                # Many threads store to one address: the last active thread wins.
                shape = self.lanes().shape
                flat = np.broadcast_to(value, shape).reshape(-1)
                if mask is not None:
                    m = np.broadcast_to(mask, shape).reshape(-1)
                    idx = np.flatnonzero(m)
                    if idx.size == 0:
                        return
                    data[int(addr)] = flat[idx[-1]]
                else:
                    data[int(addr)] = flat[-1]
            else:
                data[int(addr)] = value
            return
        if isinstance(addr, Lin):
            lanes = self.lanes()
            s = addr.stride(lanes)
            if s is not None and s != 0:
                start = addr.start(lanes)
                total = lanes.B * lanes.N
                stop = start + s * (total - 1)
                if s > 0:
                    view = data[start : stop + 1 : s]
                else:
                    view = data[start : (stop - 1 if stop > 0 else None) : s]
                view = view.reshape(lanes.shape)
                if mask is None:
                    view[...] = value
                else:
                    np.copyto(view, value, where=np.broadcast_to(mask, lanes.shape), casting="unsafe")
                return
            addr = addr.materialize(lanes)
        if mask is not None and space is not None:
            m = np.asarray(mask)
            # A mask that depends only on the thread (or only on the block) selects whole
            # columns (rows): index those instead of scanning every thread.
            if m.ndim == 2 and m.shape[0] == 1:
                cols = np.flatnonzero(m[0])
                data[np.broadcast_to(addr, space.shape)[:, cols]] = np.broadcast_to(value, space.shape)[:, cols]
                return
            if m.ndim == 2 and m.shape[-1] == 1:
                rows = np.flatnonzero(m[:, 0])
                data[np.broadcast_to(addr, space.shape)[rows]] = np.broadcast_to(value, space.shape)[rows]
                return
        addr = np.broadcast_to(addr, space.shape if space else np.shape(addr))
        value = np.broadcast_to(value, addr.shape)
        if mask is not None:
            m = np.broadcast_to(mask, addr.shape)
            data[addr[m]] = value[m]
        else:
            data[addr] = value
