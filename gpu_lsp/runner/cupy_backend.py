"""The CuPy backend (the only module that imports cupy): device memory, streams, events, kernels.

Each async token chain runs on a CUDA stream: an op continues on the stream
of its first dependency unless another op already continued from that token
(a fork), in which case it takes a new stream; every other dependency is
waited for through the event recorded when it finished. Kernels are the CUDA C
of `codegen`, compiled with `cupy.RawModule`.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

import numpy as np

from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.memory import DEVICE, HOST, SHARED, Buffer, MemoryPool, MemRef

CUDA_MEMCPY_DEFAULT = 4
CUDA_HOST_REGISTER_DEFAULT = 0


INSTALL = "pip install 'gpu-lsp[gpu]' (CuPy for CUDA 12), or the CuPy wheel of your CUDA version (cupy-cuda11x, cupy-cuda13x)"


def probe() -> str | None:
    """None when CuPy sees a usable CUDA device, else a one-line reason."""
    try:
        import cupy
    except ImportError:
        return f"cupy is not installed: {INSTALL}"
    except Exception as exc:  # a broken installation
        return f"cupy cannot be imported ({exc.__class__.__name__}: {exc})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        text = str(exc)
        if "InsufficientDriver" in text:
            return "no CUDA driver (or one too old for this CuPy)"
        if "NoDevice" in text:
            return "no CUDA device"
        return f"CUDA is not usable ({text})"
    if count == 0:
        return "no CUDA device"
    return None


class CupyBackend:
    """Runs kernels on the GPU; host memory stays in NumPy, device memory in CuPy."""

    name = "cupy"

    def __init__(self) -> None:
        import cupy

        self.cp = cupy
        self._compiled: dict[int, tuple] = {}
        self._continued: set[int] = set()
        self._events: list[tuple[str, Any, Any]] = []  # (kernel, start and end cupy.cuda.Event)
        self._managed: dict[int, object] = {}

    # --- memory ------------------------------------------------------------------------------

    def alloc(self, pool: MemoryPool, nbytes: int, kind: str, op: Operation) -> Buffer:
        cp = self.cp
        if kind == SHARED:
            mem = cp.cuda.malloc_managed(max(nbytes, 1))
            buf = pool.allocate(nbytes, kind, op, host=False)
            arr = (ctypes.c_uint8 * max(nbytes, 1)).from_address(int(mem.ptr))
            buf.raw = np.ctypeslib.as_array(arr)[:nbytes]
            buf.device_data = mem
            self._managed[buf.id] = mem
            return buf
        buf = pool.allocate(nbytes, kind, op, host=False)
        buf.device_data = cp.cuda.alloc(max(nbytes, 1))
        return buf

    def free(self, pool: MemoryPool, buf: Buffer) -> None:
        self.synchronize()
        buf.device_data = None
        self._managed.pop(buf.id, None)
        pool.free(buf)

    def pointer(self, mem: MemRef) -> int:
        """The device-visible address of element 0 of `mem`'s data (before its offset)."""
        buf = mem.buf
        if buf.kind == DEVICE:
            return int(buf.device_data.ptr) + mem.byte_shift
        if buf.kind == HOST and not buf.registered:
            raise RunError("host memory used by the GPU without gpu.host_register", buf.op)
        return int(buf.raw.ctypes.data) + mem.byte_shift

    def _address(self, mem: MemRef) -> int:
        return self.pointer(mem) + int(mem.offset) * mem.dtype.itemsize

    def memcpy(self, dst: MemRef, src: MemRef, stream, op: Operation) -> None:
        nbytes = src.num_elements() * src.dtype.itemsize
        if nbytes == 0:
            return
        d = self._any_address(dst)
        s = self._any_address(src)
        self.cp.cuda.runtime.memcpyAsync(d, s, nbytes, CUDA_MEMCPY_DEFAULT, stream.ptr)

    def _any_address(self, mem: MemRef) -> int:
        buf = mem.buf
        if buf.kind == DEVICE:
            base = int(buf.device_data.ptr)
        else:
            base = int(buf.raw.ctypes.data)
        return base + mem.byte_shift + int(mem.offset) * mem.dtype.itemsize

    def memset(self, dst: MemRef, value, stream, op: Operation) -> None:
        n = dst.num_elements()
        if n == 0:
            return
        if dst.buf.kind == DEVICE:
            cp = self.cp
            ptr = cp.cuda.MemoryPointer(dst.buf.device_data.mem, self._address(dst) - int(dst.buf.device_data.mem.ptr))
            with stream:
                cp.ndarray((n,), dtype=dst.dtype, memptr=ptr).fill(value)
            return
        stream.synchronize()
        start = int(dst.offset)
        dst.data[start : start + n] = value

    def register(self, buf: Buffer, op: Operation) -> None:
        if buf.kind != HOST:
            return
        if not buf.registered and buf.raw.nbytes:
            self.cp.cuda.runtime.hostRegister(int(buf.raw.ctypes.data), buf.raw.nbytes, CUDA_HOST_REGISTER_DEFAULT)
        buf.registered = True

    def unregister(self, buf: Buffer, op: Operation) -> None:
        if buf.registered and buf.kind == HOST and buf.raw.nbytes:
            self.synchronize()
            self.cp.cuda.runtime.hostUnregister(int(buf.raw.ctypes.data))
        buf.registered = False

    def set_device(self, index: int, op: Operation) -> None:
        count = self.cp.cuda.runtime.getDeviceCount()
        if not 0 <= index < count:
            raise RunError(f"device {index} does not exist: there are {count}", op)
        self.cp.cuda.Device(index).use()

    # --- streams -----------------------------------------------------------------------------

    def stream_for(self, deps: list, op: Operation):
        cp = self.cp
        if deps and deps[0].stream is not None and id(deps[0]) not in self._continued:
            stream = deps[0].stream
            self._continued.add(id(deps[0]))
            rest = deps[1:]
        else:
            stream = cp.cuda.Stream(non_blocking=True)
            rest = deps
            if deps:
                self._continued.add(id(deps[0]))
        for tok in rest:
            if tok.event is not None:
                stream.wait_event(tok.event)
        return stream

    def record(self, stream):
        event = self.cp.cuda.Event(disable_timing=True)
        event.record(stream)
        return event

    # Device printf output reaches file descriptor 1 at synchronisations: what the host
    # printed before must be out of Python's buffer by then.

    def wait_host(self, tokens: list) -> None:
        sys.stdout.flush()
        for tok in tokens:
            if tok.event is not None:
                tok.event.synchronize()

    def sync_stream(self, stream) -> None:
        if stream is not None:
            sys.stdout.flush()
            stream.synchronize()

    def synchronize(self) -> None:
        sys.stdout.flush()
        self.cp.cuda.Device().synchronize()

    # --- kernels -----------------------------------------------------------------------------

    def prepare(self, program, ops: list[Operation]) -> None:
        """Generate the CUDA C of every kernel the program may launch, so that an op the code
        generator cannot translate is reported before anything runs."""
        from gpu_lsp.ir.attributes import SymbolRefAttr
        from gpu_lsp.runner.codegen import kernel_source

        for op in ops:
            if op.name == "gpu.launch_func":
                sym = op.get_attr("kernel")
                if isinstance(sym, SymbolRefAttr) and sym.nested:
                    func = program.lookup_kernel(op, sym)
                    kernel_source(program, sym.leaf, func)
            elif op.name == "gpu.launch":
                kernel_source(program, "launch_kernel", op)

    def _kernel(self, it, kernel):
        key = id(kernel.op)
        if key not in self._compiled:
            from gpu_lsp.runner.codegen import kernel_source

            ks = kernel_source(it.program, kernel.name, kernel.op)
            try:
                module = self.cp.RawModule(code=ks.source, options=("-std=c++14",))
                function = module.get_function(ks.name)
            except Exception as exc:
                raise RunError(f"the CUDA C of kernel {ks.name} does not compile: {exc}", kernel.op) from exc
            self._compiled[key] = (ks, module, function)
        return self._compiled[key]

    def _marshal(self, ks, values: list, dsm: int, op: Operation) -> list:
        out: list[np.generic | np.ndarray] = []
        params = [p for p in ks.params if p.kind != "dsm"]
        if len(params) != len(values):
            raise RunError(f"kernel takes {len(params)} arguments, {len(values)} given", op)
        for p, v in zip(params, values):
            if p.kind == "memref":
                if not isinstance(v, MemRef) or not v.uniform:
                    raise RunError("a memref kernel argument is not a memref", op)
                out.append(np.uint64(self.pointer(v)))
                out.append(np.int64(int(v.offset)))
                out.extend(np.int64(int(s)) for s in v.sizes)
                out.extend(np.int64(int(s)) for s in v.strides)
            else:
                out.append(np.asarray(v).astype(p.dtype)[()])
        if ks.uses_dsm:
            out.append(np.int64(dsm))
        return out

    def launch(self, it, kernel, op: Operation, grid, block, cluster, dsm: int, args: list, stream) -> None:
        if cluster:
            raise Unsupported("thread block cluster launches are not supported by the CuPy backend", op)
        ks, _module, function = self._kernel(it, kernel)
        if kernel.is_launch:
            args = [kernel.parent_env.get(v) for v in it.program.captured_values(kernel.op)]
        values = self._marshal(ks, args, dsm, op)
        if dsm + ks.static_smem > 48 * 1024:
            function.max_dynamic_shared_size_bytes = dsm
        sys.stdout.flush()
        start = self.cp.cuda.Event()
        end = self.cp.cuda.Event()
        start.record(stream)
        try:
            with stream:  # RawKernel launches on the current stream
                function(tuple(grid), tuple(block), tuple(values), shared_mem=dsm)
        except Exception as exc:
            raise RunError(f"launching {ks.name} failed: {exc}", op) from exc
        end.record(stream)
        self._events.append((kernel.name, start, end))

    @property
    def timings(self) -> list[tuple[str, float]]:
        out = []
        for name, start, end in self._events:
            end.synchronize()
            out.append((name, self.cp.cuda.get_elapsed_time(start, end) / 1e3))
        return out
