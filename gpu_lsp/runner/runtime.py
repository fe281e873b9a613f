"""MLIR's runner utilities (printMemref*, printF32, ...) and device printf, with upstream's output format.

Formats follow mlir/lib/ExecutionEngine/{RunnerUtils,CRunnerUtils}.cpp and
mlir/include/mlir/ExecutionEngine/RunnerUtils.h: `printMemRefMetaData`, the
recursive `MemRefDataPrinter`, `std::ostream` default float formatting (`%g`),
and `printF32` = `fprintf("%g")`. Device printf follows the `vprintf` lowering of
`gpu.printf` (arguments packed into a naturally aligned struct, floats promoted
to double, integers as they are; each conversion reads its own size).
"""

from __future__ import annotations

import math
import re
import struct
import time
from collections.abc import Callable

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.memory import MemRef


def format_g(value: float) -> str:
    """C's `%g` (and `std::ostream << double` with default flags), glibc's `-nan` included."""
    v = float(value)
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return f"{v:g}"


def format_element(value, dtype: np.dtype, ty: T.Type) -> str:
    """One element as `std::ostream << T` prints it."""
    if dtype.kind == "f":
        return format_g(value)
    if dtype == np.bool_:
        return "1" if value else "0"
    if isinstance(ty, T.IntegerType) and ty.width == 8:
        # int8_t streams as a character.
        return chr(int(np.asarray(value).astype(np.uint8)))
    if isinstance(ty, T.IndexType):
        return str(int(np.asarray(value).astype(np.uint64)))
    return str(int(value))


def _meta(mem: MemRef) -> str:
    sizes = ", ".join(str(int(s)) for s in mem.sizes)
    strides = ", ".join(str(int(s)) for s in mem.strides)
    return (
        f"base@ = 0x{mem.buf.address:x} rank = {mem.rank} offset = {int(mem.offset)} "
        f"sizes = [{sizes}] strides = [{strides}]"
    )


def _data(mem: MemRef, ty: T.Type) -> str:
    data = mem.data
    dtype = mem.dtype
    rank = mem.rank
    sizes = [int(s) for s in mem.sizes]
    strides = [int(s) for s in mem.strides]
    out: list[str] = []

    def elem(offset: int) -> str:
        if not 0 <= offset < data.shape[0]:
            raise RunError("printMemref reads outside its buffer")
        return format_element(data[offset], dtype, ty)

    def space(count: int) -> None:
        out.append(" " * count)

    def pr(dim: int, offset: int, k: int) -> None:
        # k indexes sizes/strides (the C++ code advances the pointers).
        if dim == 0:
            out.append(elem(offset))
            return
        size = sizes[k]
        out.append("[")
        if size == 0:
            out.append("]")
            return
        pr(dim - 1, offset, k + 1)
        if size <= 1:
            out.append("]")
            return
        out.append(", ")
        if dim > 1:
            out.append("\n")
        for i in range(1, size - 1):
            space(rank - dim + 1)
            pr(dim - 1, offset + i * strides[k], k + 1)
            out.append(", ")
            if dim > 1:
                out.append("\n")
        space(rank - dim + 1)
        pr(dim - 1, offset + (size - 1) * strides[k], k + 1)
        out.append("]")

    if rank == 0:
        out.append("[")
    pr(rank, int(mem.offset), 0)
    if rank == 0:
        out.append("]")
    return "".join(out)


def print_memref(mem: MemRef, ty: T.Type, unranked: bool) -> str:
    head = "Unranked Memref " if unranked else "Memref "
    return f"{head}{_meta(mem)} data = \n{_data(mem, ty)}\n"


def print_memref_shape(mem: MemRef, unranked: bool) -> str:
    head = "Unranked Memref " if unranked else "Memref "
    return f"{head}{_meta(mem)}\n"


# Element type each printMemref variant expects.
_PRINT_MEMREF = {
    "I8": T.I8, "I16": T.IntegerType(16), "I32": T.I32, "I64": T.I64,
    "F16": T.F16, "BF16": T.FloatType("bf16"), "F32": T.F32, "F64": T.F64, "Ind": T.INDEX,
}


class Runtime:
    """The external functions a program may call, writing to `out` (and `err`)."""

    def __init__(self, out: Callable[[str], None], err: Callable[[str], None]) -> None:
        self.out = out
        self.err = err
        self.functions: dict[str, Callable] = {}
        for suffix, ty in _PRINT_MEMREF.items():
            self._register_print_memref(suffix, ty)
        scalar_printers = {
            "printI64": lambda v: str(int(v)),
            "printU64": lambda v: str(int(np.asarray(v).astype(np.uint64))),
            "printF32": format_g,
            "printF64": format_g,
            "printF16": format_g,
            "printBF16": format_g,
        }
        for name, fmt in scalar_printers.items():
            self.functions[name] = self._scalar_printer(fmt)
        self.functions["printNewline"] = lambda args, op, ctx: self.out("\n")
        self.functions["printOpen"] = lambda args, op, ctx: self.out("( ")
        self.functions["printClose"] = lambda args, op, ctx: self.out(" )")
        self.functions["printComma"] = lambda args, op, ctx: self.out(", ")
        self.functions["printFlops"] = lambda args, op, ctx: self.err("%f GFLOPS\n" % (float(args[0]) / 1.0e9))
        self.functions["rtclock"] = lambda args, op, ctx: [np.float64(time.time())]
        self.functions["nanoTime"] = lambda args, op, ctx: [np.int64(time.perf_counter_ns())]
        for suffix in ("I32", "F32", "F64", "Ind"):
            self.functions[f"verifyMemRef{suffix}"] = self._verify
        self.functions["print_memref_f32"] = self.functions["printMemrefF32"]
        for suffix in ("Float", "Int32"):
            self.functions[f"mgpuMemGetDeviceMemRef1d{suffix}"] = self._device_memref

    @staticmethod
    def _device_memref(args, op, ctx):
        """ROCm's wrappers: the device view of host memory registered with gpu.host_register."""
        mem = args[0]
        if not isinstance(mem, MemRef) or mem.buf.freed or not mem.buf.registered:
            raise RunError(f"'{op.name}' op asks for the device pointer of memory not registered with gpu.host_register", op)
        return [mem]

    def lookup(self, name: str) -> Callable | None:
        if name.startswith("_mlir_ciface_"):
            name = name[len("_mlir_ciface_") :]
        return self.functions.get(name)

    def _scalar_printer(self, fmt: Callable) -> Callable:
        def run(args, op, ctx):
            self.out(fmt(args[0]))

        return run

    def _register_print_memref(self, suffix: str, ty: T.Type) -> None:
        def run(args, op, ctx):
            mem = self._memref_arg(args, op, ctx, ty)
            self.out(print_memref(mem, ty, unranked=isinstance(op.operands[0].type, T.UnrankedMemRefType)))

        def run_shape(args, op, ctx):
            mem = self._memref_arg(args, op, ctx, ty)
            self.out(print_memref_shape(mem, unranked=isinstance(op.operands[0].type, T.UnrankedMemRefType)))

        self.functions[f"printMemref{suffix}"] = run
        self.functions[f"printMemrefShape{suffix}"] = run_shape
        for rank in range(5):
            self.functions[f"printMemref{rank}d{suffix}"] = run

    def _memref_arg(self, args, op: Operation, ctx, ty: T.Type) -> MemRef:
        if not args or not isinstance(args[0], MemRef):
            raise RunError(f"'{op.name}' op expects a memref argument", op)
        mem = args[0]
        elem = mem.type.element if isinstance(mem.type, (T.MemRefType, T.UnrankedMemRefType)) else None
        if elem is not None and str(elem) != str(ty):
            raise RunError(f"'{op.name}' op passes a memref of {elem} to a function printing {ty}", op)
        if isinstance(ty, T.FloatType) and ty.name == "bf16":
            raise Unsupported("printing bf16 memrefs is not supported by the runner", op)
        ctx.check_host_readable(mem, op)
        return mem

    def _verify(self, args, op, ctx):
        actual, expected = args[0], args[1]
        for m in (actual, expected):
            ctx.check_host_readable(m, op)
        if actual.sizes != expected.sizes or actual.strides != expected.strides or int(actual.offset) != int(expected.offset):
            self.err(_meta(actual) + _meta(expected))
            return [np.int64(-1)]
        a = actual.host_array()
        e = expected.host_array()
        if a.dtype.kind == "f":
            eps = 1e-12 if a.dtype == np.float64 else 1e-6
            with np.errstate(all="ignore"):
                ok = np.isfinite(a) & np.isfinite(e) & (np.abs(a - e) <= eps * np.abs(e))
        else:
            ok = a == e
        bad = np.argwhere(~np.asarray(ok))
        for idx in bad[:10]:
            off = int(actual.offset) + sum(int(i) * int(s) for i, s in zip(idx, actual.strides))
            self.err(f"{format_element(a[tuple(idx)], a.dtype, T.F32)} != {format_element(e[tuple(idx)], e.dtype, T.F32)} offset = {off}\n")
        return [np.int64(len(bad))]


# --- device printf (vprintf) ------------------------------------------------------------------

_CONVERSION = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?(?P<len>hh|h|ll|l|j|z|t|L)?(?P<conv>[diouxXeEfFgGaAcspn%])")


def pack_printf_args(values: list, types: list[T.Type]) -> bytes:
    """The argument struct the vprintf lowering builds: floats as f64, natural alignment."""
    buf = bytearray()
    for value, ty in zip(values, types):
        if isinstance(ty, T.FloatType):
            data = struct.pack("<d", float(value))
        elif isinstance(ty, T.IndexType):
            data = struct.pack("<q", int(value))
        elif isinstance(ty, T.IntegerType):
            width = max(1, (ty.width + 7) // 8)
            size = 1 if width == 1 else 2 if width == 2 else 4 if width <= 4 else 8
            data = (int(value) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        else:
            raise TypeError(str(ty))
        align = len(data)
        while len(buf) % align:
            buf.append(0)
        buf.extend(data)
    return bytes(buf)


def vprintf(fmt: str, args: bytes) -> str:
    """Format like CUDA's device `vprintf`: each conversion reads its size from the packed arguments."""
    out: list[str] = []
    pos = 0
    i = 0

    def read(size: int) -> bytes:
        nonlocal pos
        while pos % size:
            pos += 1
        chunk = args[pos : pos + size]
        pos += size
        return chunk.ljust(size, b"\0")

    while i < len(fmt):
        j = fmt.find("%", i)
        if j < 0:
            out.append(fmt[i:])
            break
        out.append(fmt[i:j])
        m = _CONVERSION.match(fmt, j)
        if m is None:
            out.append("%")
            i = j + 1
            continue
        i = m.end()
        conv = m.group("conv")
        if conv == "%":
            out.append("%")
            continue
        flags = m.group("flags") or ""
        width = m.group("width") or ""
        prec = m.group("prec")
        if width == "*":
            width = str(struct.unpack("<i", read(4))[0])
        if prec == "*":
            prec = str(struct.unpack("<i", read(4))[0])
        spec = "%" + flags + width + ("." + prec if prec is not None else "")
        length = m.group("len") or ""
        if conv in "diouxXc":
            wide = length in ("l", "ll", "j", "z", "t")
            raw = read(8 if wide else 4)
            unsigned = int.from_bytes(raw, "little")
            bits = 64 if wide else 32
            if length == "hh":
                unsigned &= 0xFF
                bits = 8
            elif length == "h":
                unsigned &= 0xFFFF
                bits = 16
            signed = unsigned - (1 << bits) if unsigned >= 1 << (bits - 1) else unsigned
            if conv in "di":
                out.append((spec + "d") % signed)
            elif conv == "u":
                out.append((spec + "d") % unsigned)
            elif conv == "c":
                out.append((spec + "c") % chr(unsigned & 0xFF))
            else:
                out.append((spec + conv) % unsigned)
        elif conv in "eEfFgGaA":
            value = struct.unpack("<d", read(8))[0]
            if conv in "aA":
                text = float.hex(value)
                out.append(text.upper() if conv == "A" else text)
            elif math.isnan(value):
                text = ("-" if math.copysign(1.0, value) < 0 else "") + ("NAN" if conv.isupper() else "nan")
                out.append(("%" + flags.replace("0", "") + width + "s") % text)
            else:
                out.append((spec + conv) % value)
        elif conv == "p":
            out.append(f"0x{int.from_bytes(read(8), 'little'):x}")
        else:
            raise ValueError(f"printf conversion %{conv} is not supported")
    return "".join(out)
