"""A stand-in `cupy` module on the CPU: enough of CuPy's API for the runner's CuPy backend.

Device memory is host memory, streams and events are bookkeeping (work runs at once),
and `RawModule` compiles the CUDA C with g++ against the CPU shim, so that the CuPy
backend's own logic (memory, copies, streams, events, argument marshalling, launches)
runs end to end without a GPU.
"""

from __future__ import annotations

import ctypes
import hashlib
import re
import subprocess
import time
import types
from pathlib import Path

import numpy as np
from emulator import FLAGS, GXX, precompiled_shim

_SIGNATURE = re.compile(r'extern "C" __global__ void (\w+)\(([^)]*)\)')
_CTYPES = {
    "long long": ctypes.c_longlong, "int": ctypes.c_int, "short": ctypes.c_short, "signed char": ctypes.c_byte,
    "bool": ctypes.c_bool, "float": ctypes.c_float, "double": ctypes.c_double, "mlir_f16": ctypes.c_uint16,
}


class Memory:
    def __init__(self, nbytes: int) -> None:
        self.array = np.zeros(max(nbytes, 1) + 64, dtype=np.uint8)
        self.ptr = (self.array.ctypes.data + 63) // 64 * 64


class MemoryPointer:
    def __init__(self, mem: Memory, offset: int) -> None:
        self.mem = mem
        self.ptr = mem.ptr + offset


class Stream:
    current: Stream | None = None
    count = 0

    def __init__(self, non_blocking: bool = False) -> None:
        Stream.count += 1
        self.ptr = Stream.count
        self.waited: list = []
        self._saved = None

    def __enter__(self) -> Stream:
        self._saved, Stream.current = Stream.current, self
        return self

    def __exit__(self, *exc) -> None:
        Stream.current = self._saved

    def wait_event(self, event) -> None:
        assert event.recorded, "waiting on an event that was never recorded"
        self.waited.append(event)

    def synchronize(self) -> None:
        pass


class Event:
    def __init__(self, disable_timing: bool = False) -> None:
        self.timing = not disable_timing
        self.recorded = False
        self.t = 0.0

    def record(self, stream=None) -> None:
        self.recorded = True
        self.t = time.perf_counter()

    def synchronize(self) -> None:
        assert self.recorded


class Device:
    def __init__(self, index: int = 0) -> None:
        self.index = index

    def use(self) -> None:
        pass

    def synchronize(self) -> None:
        pass


class ndarray:  # noqa: N801 (CuPy's name)
    def __init__(self, shape, dtype, memptr: MemoryPointer) -> None:
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        raw = np.ctypeslib.as_array((ctypes.c_uint8 * n).from_address(memptr.ptr))
        self.view = raw.view(dtype).reshape(shape)

    def fill(self, value) -> None:
        self.view[...] = value


class RawKernel:
    def __init__(self, fn, params: list[str]) -> None:
        self.fn = fn
        self.params = params
        self.max_dynamic_shared_size_bytes = 0
        self.launches = 0

    def __call__(self, grid, block, args, shared_mem: int = 0) -> None:
        assert Stream.current is not None, "kernels are launched on the current stream of their token chain"
        assert len(args) == len(self.params), (len(args), self.params)
        values = []
        for arg, ctype in zip(args, self.params):
            if ctype.endswith("*"):
                assert isinstance(arg, np.uint64), f"a pointer passed as {type(arg)}"
                values.append(int(arg))
            elif ctype == "mlir_f16":
                values.append(int(np.asarray(arg).astype(np.float16).view(np.uint16)))
            else:
                assert isinstance(arg, np.generic), f"a scalar passed as {type(arg)}"
                values.append(arg.item())
        self.launches += 1
        self.fn(*(list(grid) + list(block) + values))


class RawModule:
    cache: Path

    def __init__(self, code: str, options=()) -> None:
        kernels = _SIGNATURE.findall(code)
        text = code
        self.params = {}
        for name, params in kernels:
            decls = [p.strip() for p in params.split(",") if p.strip()]
            names = [d.split()[-1] for d in decls]
            ctypes_ = [d[: d.rindex(" ")].strip() + ("*" if d.split()[-1].startswith("*") else "") for d in decls]
            self.params[name] = ctypes_
            grid = ", ".join(f"unsigned g{d}" for d in "xyz") + ", " + ", ".join(f"unsigned b{d}" for d in "xyz")
            text += (
                f'extern "C" void fake_launch_{name}({grid}{", " if decls else ""}{", ".join(decls)}) {{\n'
                f"  mlir_emu_run(gx, gy, gz, bx, by, bz, [=] {{ {name}({', '.join(names)}); }});\n  fflush(stdout);\n}}\n"
            )
        shim = precompiled_shim(self.cache)
        digest = hashlib.sha1((shim.name + text).encode()).hexdigest()[:16]
        lib = self.cache / f"fake{digest}.so"
        if not lib.exists():
            src = lib.with_suffix(".cpp")
            src.write_text(text)
            command = [GXX, *FLAGS, "-shared", "-include", str(shim), "-x", "c++", str(src), "-o", str(lib)]
            r = subprocess.run(command, capture_output=True, text=True, timeout=300)
            assert r.returncode == 0, r.stderr[:4000]
        self.lib = ctypes.CDLL(str(lib))

    def get_function(self, name: str) -> RawKernel:
        fn = getattr(self.lib, f"fake_launch_{name}")
        params = self.params[name]
        fn.argtypes = [ctypes.c_uint] * 6 + [ctypes.c_void_p if p.endswith("*") else _CTYPES[p] for p in params]
        fn.restype = None
        return RawKernel(fn, params)


def module(cache: Path) -> types.ModuleType:
    """A fresh fake `cupy` module whose kernels are compiled into `cache`."""
    RawModule.cache = cache
    cupy = types.ModuleType("cupy")
    cuda = types.ModuleType("cupy.cuda")
    runtime = types.ModuleType("cupy.cuda.runtime")
    runtime.getDeviceCount = lambda: 1
    runtime.memcpyAsync = lambda dst, src, n, kind, stream: ctypes.memmove(dst, src, n)
    runtime.registered = set()
    runtime.hostRegister = lambda ptr, size, flags: runtime.registered.add(ptr)
    runtime.hostUnregister = lambda ptr: runtime.registered.discard(ptr)
    cuda.runtime = runtime
    cuda.alloc = lambda n: MemoryPointer(Memory(n), 0)
    cuda.malloc_managed = cuda.alloc
    cuda.MemoryPointer = MemoryPointer
    cuda.Stream = Stream
    cuda.Event = Event
    cuda.Device = Device
    cuda.get_elapsed_time = lambda a, b: (b.t - a.t) * 1e3
    cupy.cuda = cuda
    cupy.ndarray = ndarray
    cupy.RawModule = RawModule
    return cupy
