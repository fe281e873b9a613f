"""Run the generated CUDA C on the CPU (g++ and cuda_shim.h): a backend for checking the code generator.

Memory is the NumPy backend's (host arrays), so kernels get plain pointers. Each
program's kernels are compiled into one shared library with a launcher per kernel;
`printf` output (which C writes to file descriptor 1) is captured and passed on.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from gpu_lsp.runner.backend_numpy import NumpyBackend
from gpu_lsp.runner.codegen import Module, kernel_source, kernels_of

SHIM = Path(__file__).with_name("emulation") / "cuda_shim.h"
GXX = shutil.which("g++")

_CTYPE = {
    "float16": "mlir_f16",
    "int8": "signed char",
    "int16": "short",
    "int32": "int",
    "int64": "long long",
    "bool": "bool",
    "float32": "float",
    "float64": "double",
}
_CTYPES = {
    "float16": ctypes.c_uint16,
    "int8": ctypes.c_int8,
    "int16": ctypes.c_int16,
    "int32": ctypes.c_int32,
    "int64": ctypes.c_int64,
    "bool": ctypes.c_bool,
    "float32": ctypes.c_float,
    "float64": ctypes.c_double,
}


def _wrapper(ks) -> tuple[str, list]:
    decls = [f"unsigned g{d}" for d in "xyz"] + [f"unsigned b{d}" for d in "xyz"]
    names = []
    types = [ctypes.c_uint] * 6
    for k, p in enumerate(ks.params):
        if p.kind == "memref":
            decls.append(f"{_CTYPE[p.dtype.name]}* p{k}")
            names.append(f"p{k}")
            types.append(ctypes.c_void_p)
            for prefix in ("o",):
                decls.append(f"long long {prefix}{k}")
                names.append(f"{prefix}{k}")
                types.append(ctypes.c_longlong)
            for prefix in ("s", "t"):
                for d in range(p.rank):
                    decls.append(f"long long {prefix}{k}_{d}")
                    names.append(f"{prefix}{k}_{d}")
                    types.append(ctypes.c_longlong)
        elif p.kind == "scalar":
            if p.dtype.name not in _CTYPE:
                raise NotImplementedError(f"scalar kernel argument of {p.dtype}")
            decls.append(f"{_CTYPE[p.dtype.name]} a{k}")
            names.append(f"a{k}")
            types.append(_CTYPES[p.dtype.name])
        else:
            decls.append("long long mlir_dsm_size")
            names.append("mlir_dsm_size")
            types.append(ctypes.c_longlong)
    body = (
        f'extern "C" void mlir_emu_launch_{ks.name}({", ".join(decls)}) {{\n'
        f"  mlir_emu_run(gx, gy, gz, bx, by, bz, [=] {{ {ks.name}({', '.join(names)}); }});\n"
        "  fflush(stdout);\n}\n"
    )
    return body, types


FLAGS = ["-std=c++20", "-O0", "-w", "-fPIC", "-pthread"]


def precompiled_shim(cache: Path) -> Path:
    """The shim as a precompiled header in `cache` (keyed by its content); returns the header to -include."""
    text = SHIM.read_text()
    digest = hashlib.sha1((text + " ".join(FLAGS)).encode()).hexdigest()[:16]
    header = cache / f"shim-{digest}.h"
    if not header.exists():
        header.write_text(text)
    gch = header.with_name(header.name + ".gch")
    if not gch.exists():
        tmp = gch.with_name(gch.name + f".{os.getpid()}.tmp")
        subprocess.run([GXX, *FLAGS, "-x", "c++-header", str(header), "-o", str(tmp)], check=True, capture_output=True, timeout=300)
        os.replace(tmp, gch)
    return header


class EmulatedCudaBackend(NumpyBackend):
    """The NumPy backend's memory and host side, with kernels run as compiled CUDA C."""

    name = "emulated-cuda"

    def __init__(self, cache: Path) -> None:
        super().__init__()
        self.cache = cache
        self.shim = precompiled_shim(cache)
        self.kernels: dict[int, tuple] = {}
        self._libs = []

    def _build(self, program) -> None:
        module = Module(program)
        sources = {}
        for name, op in kernels_of(program):
            sources[id(op)] = kernel_source(program, name, op, module)
        text = module.source()
        wrappers = {}
        for key, ks in sources.items():
            body, types = _wrapper(ks)
            text += body
            wrappers[key] = (ks, types)
        digest = hashlib.sha1((self.shim.name + text).encode()).hexdigest()[:16]
        lib_path = self.cache / f"k{digest}.so"
        if not lib_path.exists():
            src = self.cache / f"k{digest}.cpp"
            src.write_text(text)
            tmp = lib_path.with_name(lib_path.name + f".{os.getpid()}.tmp")
            cmd = [GXX, *FLAGS, "-shared", "-include", str(self.shim), "-x", "c++", str(src), "-o", str(tmp)]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            if r.returncode:
                raise AssertionError(f"g++ failed on the generated CUDA C:\n{r.stderr[:4000]}")
            os.replace(tmp, lib_path)
        lib = ctypes.CDLL(str(lib_path))
        self._libs.append(lib)
        for key, (ks, types) in wrappers.items():
            fn = getattr(lib, f"mlir_emu_launch_{ks.name}")
            fn.argtypes = types
            fn.restype = None
            self.kernels[key] = (ks, fn)

    def launch(self, it, kernel, op, grid, block, cluster, dsm, args, stream) -> None:
        if id(kernel.op) not in self.kernels:
            self._build(it.program)
        ks, fn = self.kernels[id(kernel.op)]
        if kernel.is_launch:
            args = [kernel.parent_env.get(v) for v in it.program.captured_values(kernel.op)]
        values = []
        params = [p for p in ks.params if p.kind != "dsm"]
        for p, v in zip(params, args):
            if p.kind == "memref":
                values.append(int(v.buf.raw.ctypes.data) + v.byte_shift)
                values.append(int(v.offset))
                values.extend(int(s) for s in v.sizes)
                values.extend(int(s) for s in v.strides)
            elif p.dtype == np.float16:  # passed as its bits (struct mlir_f16)
                values.append(int(np.asarray(v).astype(np.float16).view(np.uint16)))
            else:
                values.append(np.asarray(v).astype(p.dtype).item())
        if ks.uses_dsm:
            values.append(dsm)
        output = self._call_capturing_stdout(fn, list(grid) + list(block) + values)
        if output:
            it.output(output)

    @staticmethod
    def _call_capturing_stdout(fn, values) -> str:
        with tempfile.TemporaryFile() as tmp:
            saved = os.dup(1)
            try:
                os.dup2(tmp.fileno(), 1)
                fn(*values)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            tmp.seek(0)
            return tmp.read().decode()
