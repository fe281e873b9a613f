"""CUDA C for kernels: gpu.func kernels (with the device functions they call) and gpu.launch bodies.

Every SSA value becomes a local variable declared at the top of its function
(so that `goto`-based block structure never skips an initialisation); memrefs
become `MR<T, rank>` descriptors (pointer, offset, sizes, strides) like MLIR's.
Integer arithmetic wraps (it is done in unsigned types), `gpu.shuffle` uses
`shfl.sync` with upstream's mask and clamp, reductions use warp shuffles and
shared memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, StringAttr, SymbolRefAttr, double_quoted
from gpu_lsp.ir.core import Block, Operation, Region, Value
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.opdefs.format_customs import case_values
from gpu_lsp.ir.operands import segments
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.traits import REGION_RETURNS
from gpu_lsp.ir.views import FuncView, LaunchView, attribution_counts, int_attr
from gpu_lsp.runner.affinemap import Expr, op_map
from gpu_lsp.runner.dtypes import constant_value, dense_array_values, dtype_of, static_shape
from gpu_lsp.runner.elementwise import predicate_name
from gpu_lsp.runner.errors import Locator, RunError, Unsupported
from gpu_lsp.runner.interp import BRANCHES
from gpu_lsp.runner.ops_core import CASTS, INDEX_BINARY, INT_BINARY, arith_name

PRELUDE = r"""
template <typename T, int R> struct MR {
  T* p; long long off; long long sz[R > 0 ? R : 1]; long long st[R > 0 ? R : 1];
};
template <typename T> __device__ __forceinline__ T mlir_floordiv(T a, T b) {
  T q = a / b; T r = a % b; return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
template <typename T> __device__ __forceinline__ T mlir_ceildiv(T a, T b) {
  T q = a / b; T r = a % b; return (r != 0 && ((r < 0) == (b < 0))) ? q + 1 : q;
}
template <typename T> __device__ __forceinline__ T mlir_ceildivu(T a, T b) { return a / b + (a % b != 0); }
__device__ __forceinline__ long long mlir_smin(long long a, long long b) { return a < b ? a : b; }
__device__ __forceinline__ long long mlir_smax(long long a, long long b) { return a > b ? a : b; }
template <typename T> __device__ __forceinline__ T mlir_maximumf(T a, T b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
template <typename T> __device__ __forceinline__ T mlir_minimumf(T a, T b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }
template <typename T> __device__ __forceinline__ T mlir_maxnumf(T a, T b) { return a != a ? b : (b != b ? a : (a > b ? a : b)); }
template <typename T> __device__ __forceinline__ T mlir_minnumf(T a, T b) { return a != a ? b : (b != b ? a : (a < b ? a : b)); }
template <typename T> __device__ __forceinline__ T mlir_ipow(T b, T e) {
  if (e < 0) return b == 1 ? (T)1 : (b == -1 ? (T)((-e) % 2 ? -1 : 1) : (T)0);
  unsigned long long r = 1, x = (unsigned long long)b;
  while (e > 0) { if (e & 1) r *= x; x *= x; e >>= 1; }
  return (T)r;
}
// f16 values are kept as their bits; arithmetic converts to float and back (no cuda_fp16.h needed).
struct mlir_f16 { unsigned short x; };
#ifndef MLIR_CPU_EMULATION
__device__ __forceinline__ float mlir_h2f(mlir_f16 h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x)); return f; }
__device__ __forceinline__ mlir_f16 mlir_f2h(float f) { mlir_f16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.x) : "f"(f)); return h; }
#define MLIR_DYNAMIC_SHARED(name) extern __shared__ __align__(16) signed char name[]
#define MLIR_SHFL(MODE)                                                                          \
  __device__ __forceinline__ unsigned mlir_shfl_##MODE(unsigned v, unsigned off, unsigned c,    \
                                                       unsigned mask, bool* valid) {            \
    unsigned r, p;                                                                               \
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync." #MODE ".b32 %0|q, %2, %3, %4, %5;\n\t"       \
                 "selp.u32 %1, 1, 0, q;\n\t}"                                                   \
                 : "=r"(r), "=r"(p) : "r"(v), "r"(off), "r"(c), "r"(mask));                    \
    *valid = p != 0;                                                                             \
    return r;                                                                                    \
  }
MLIR_SHFL(bfly)
MLIR_SHFL(up)
MLIR_SHFL(down)
MLIR_SHFL(idx)
#endif
__device__ __forceinline__ unsigned mlir_linear_tid() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned mlir_block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
"""


_CTYPE = {1: "bool", 8: "signed char", 16: "short", 32: "int", 64: "long long"}
_UTYPE = {1: "bool", 8: "unsigned char", 16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}
_FTYPE = {"f16": "mlir_f16", "f32": "float", "f64": "double"}


def scalar_ctype(ty: T.Type, op: Operation | None = None) -> str:
    if isinstance(ty, T.IndexType):
        return "long long"
    if isinstance(ty, T.IntegerType) and ty.width in _CTYPE:
        return _CTYPE[ty.width]
    if isinstance(ty, T.FloatType) and ty.name in _FTYPE:
        return _FTYPE[ty.name]
    raise Unsupported(f"values of type {ty} are not supported by the CUDA code generator", op)


def utype(ty: T.Type) -> str:
    if isinstance(ty, T.IndexType):
        return "unsigned long long"
    if isinstance(ty, T.IntegerType) and ty.width in _UTYPE:
        return _UTYPE[ty.width]
    raise TypeError(str(ty))


def width(ty: T.Type) -> int:
    if isinstance(ty, T.IndexType):
        return 64
    if isinstance(ty, (T.IntegerType, T.FloatType)):
        return ty.width
    raise TypeError(str(ty))


def ctype(ty: T.Type, op: Operation | None = None) -> str:
    if isinstance(ty, T.MemRefType):
        return f"MR<{scalar_ctype(ty.element, op)}, {ty.rank}>"
    if isinstance(ty, T.UnrankedMemRefType):
        raise Unsupported("unranked memrefs are not supported inside kernels by the CUDA code generator", op)
    return scalar_ctype(ty, op)


def c_identifier(name: str) -> str:
    out = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not out or out[0].isdigit():
        out = "k_" + out
    return out


_C_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}


def c_string(text: str) -> str:
    """A C string literal of `text`'s UTF-8 bytes (other bytes in octal, closed off so no digit extends them)."""
    return double_quoted(map(chr, text.encode("utf-8")), _C_ESCAPES, lambda c: 32 <= ord(c) < 127, lambda c: f'\\{ord(c):03o}""')


@dataclass
class Param:
    """One kernel argument as the launcher passes it."""

    kind: str  # "scalar" | "memref" | "dsm"
    dtype: np.dtype | None = None
    rank: int = 0


@dataclass
class KernelSource:
    """The CUDA C of one kernel (plus the device functions it calls) and how to call it."""

    name: str  # the C name of the __global__ function
    source: str
    params: list[Param] = field(default_factory=list)
    uses_dsm: bool = False
    static_smem: int = 0


def _dim_index(op: Operation) -> int:
    attr = op.get_attr("dimension")
    body = attr.body if isinstance(attr, DialectAttr) and attr.body else str(attr)
    return "xyz".index(body.split()[-1])


def _enum(attr) -> str:
    if isinstance(attr, DialectAttr):
        return (attr.body or attr.name).split()[-1]
    return str(attr).split()[-1].strip('">')


def _float_literal(value: float, ty: T.FloatType) -> str:
    if np.isnan(value):
        return {"f32": "__int_as_float(0x7fc00000)", "f64": "__longlong_as_double(0x7ff8000000000000LL)"}.get(ty.name, "mlir_f2h(__int_as_float(0x7fc00000))")
    if np.isinf(value):
        base = "__int_as_float(0x7f800000)" if ty.name != "f64" else "__longlong_as_double(0x7ff0000000000000LL)"
        text = base if value > 0 else f"(-{base})"
        return text if ty.name != "f16" else f"mlir_f2h({text})"
    if ty.name == "f64":
        return repr(float(value))
    text = repr(float(np.float32(value))) + "f"
    return text if ty.name == "f32" else f"mlir_f2h({text})"


class Module:
    """A CUDA translation unit: device functions and kernels emitted on demand."""

    def __init__(self, program, locator: Locator | None = None) -> None:
        self.program = program
        self.locator = locator
        self.functions: dict[int, str] = {}  # id(op) -> C name
        self.bodies: list[str] = []
        self.counter = 0

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}{self.counter}"

    def source(self) -> str:
        head = PRELUDE
        return head + "\n" + "\n".join(self.bodies)

    def device_function(self, op: Operation) -> str:
        key = id(op)
        if key not in self.functions:
            name = "dev_" + c_identifier(symbol_name(op) or "fn") + f"_{len(self.functions)}"
            self.functions[key] = name
            emitter = FunctionEmitter(self, "device", op, name)
            self.bodies.append(emitter.emit_device_function())
        return self.functions[key]


class FunctionEmitter:
    """Emits one C function: declarations of every value, then the body."""

    def __init__(self, module: Module, kind: str, op: Operation, name: str) -> None:
        self.module = module
        self.kind = kind  # "kernel" | "device" | "combiner"
        self.op = op
        self.name = name
        self.names: dict[Value, str] = {}
        self.decls: list[str] = []
        self.lines: list[str] = []
        self.indent = 1
        self.params: list[Param] = []
        self.param_decls: list[str] = []
        self.param_setup: list[str] = []
        self.uses_dsm = False
        self.static_smem = 0
        self.launch_args: dict[Value, str] = {}

    # --- values ---------------------------------------------------------------------------------

    def var(self, v: Value) -> str:
        name = self.names.get(v)
        if name is None:
            if v in self.launch_args:
                return self.launch_args[v]
            name = f"v{len(self.names)}"
            self.names[v] = name
            self.decls.append(f"  {ctype(v.type, self.op)} {name};")
        return name

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def is_half(self, ty: T.Type) -> bool:
        return isinstance(ty, T.FloatType) and ty.name == "f16"

    def as_float(self, expr: str, ty: T.Type) -> str:
        """An expression of a float type computed in float (halves are widened)."""
        if self.is_half(ty):
            return f"mlir_h2f({expr})"
        return expr

    def from_float(self, expr: str, ty: T.Type) -> str:
        if self.is_half(ty):
            return f"mlir_f2h({expr})"
        return expr

    # --- functions ------------------------------------------------------------------------------

    def emit_kernel(self, region: Region, entry_params: list[Value], fixed: dict[int, str]) -> KernelSource:
        """A __global__ function: `entry_params` are passed by the host, `fixed` entry args are builtins."""
        for v in entry_params:
            self._param(v)
        entry = region.blocks[0]
        for index, expr in fixed.items():
            self.launch_args[entry.arguments[index]] = expr
        self._attributions(entry)
        self.emit_region(region, None, self._return_exit)
        if self.uses_dsm:
            self.params.append(Param("dsm"))
            self.param_decls.append("long long mlir_dsm_size")
        sig = ", ".join(self.param_decls)
        body = "\n".join(self.param_setup + self.decls + self.lines)
        text = f'extern "C" __global__ void {self.name}({sig}) {{\n{body}\n}}\n'
        self.module.bodies.append(text)
        return KernelSource(self.name, "", self.params, self.uses_dsm, self.static_smem)

    def emit_device_function(self) -> str:
        fn = self.op
        region = fn.regions[0]
        ftype = FuncView(fn).function_type
        if ftype is None:
            raise Unsupported(f"'{fn.name}' without a function type is not supported by the CUDA code generator", fn)
        entry = region.blocks[0]
        params = []
        for k, arg in enumerate(entry.arguments[: len(ftype.inputs)]):
            name = f"a{k}"
            self.launch_args[arg] = name
            params.append(f"{ctype(arg.type, fn)} {name}")
        results = list(ftype.results)
        for k, ty in enumerate(results[1:] if len(results) > 1 else []):
            params.append(f"{ctype(ty, fn)}* r{k + 1}")
        ret = ctype(results[0], fn) if results else "void"
        self._attributions(entry, first=len(ftype.inputs))
        self.emit_region(region, None, lambda op, vals: self._device_return(vals, len(results)))
        body = "\n".join(self.decls + self.lines)
        return f"static __device__ {ret} {self.name}({', '.join(params)}) {{\n{body}\n}}\n"

    def _device_return(self, vals: list[str], nresults: int) -> None:
        for k, v in enumerate(vals[1:], start=1):
            self.emit(f"*r{k} = {v};")
        self.emit(f"return {vals[0]};" if nresults else "return;")

    def _return_exit(self, op: Operation, vals: list[str]) -> None:
        self.emit("return;")

    def _param(self, v: Value) -> None:
        k = len(self.params)
        ty = v.type
        if isinstance(ty, T.MemRefType):
            elem = scalar_ctype(ty.element, self.op)
            dt = dtype_of(ty.element)
            r = ty.rank
            self.params.append(Param("memref", dt, r))
            self.param_decls.append(f"{elem}* p{k}")
            self.param_decls.append(f"long long o{k}")
            for d in range(r):
                self.param_decls.append(f"long long s{k}_{d}")
            for d in range(r):
                self.param_decls.append(f"long long t{k}_{d}")
            name = f"m{k}"
            sizes = ", ".join(f"s{k}_{d}" for d in range(r)) or "0"
            strides = ", ".join(f"t{k}_{d}" for d in range(r)) or "0"
            self.param_setup.append(f"  MR<{elem}, {r}> {name} = {{p{k}, o{k}, {{{sizes}}}, {{{strides}}}}};")
            self.launch_args[v] = name
            return
        dt = dtype_of(ty)
        if dt is None:
            raise Unsupported(f"a kernel argument of type {ty} is not supported by the CUDA code generator", self.op)
        self.params.append(Param("scalar", dt))
        self.param_decls.append(f"{scalar_ctype(ty, self.op)} a{k}")
        self.launch_args[v] = f"a{k}"

    def _attributions(self, entry: Block, first: int | None = None) -> None:
        workgroup, private = attribution_counts(self.op)
        if first is None:
            first = len(entry.arguments) - workgroup - private
        for k, arg in enumerate(entry.arguments[first : first + workgroup + private]):
            ty = arg.type
            shape = static_shape(ty)
            dt = dtype_of(ty.element) if isinstance(ty, T.MemRefType) else None
            if not isinstance(ty, T.MemRefType) or shape is None or dt is None:
                raise Unsupported(f"attribution of type {ty} is not supported by the CUDA code generator", self.op)
            elem = scalar_ctype(ty.element, self.op)
            count = int(np.prod(shape)) if shape else 1
            buf = self.module.fresh("attr")
            qual = "__shared__ " if k < workgroup else ""
            if k < workgroup:
                self.static_smem += count * dt.itemsize
            self.decls.append(f"  {qual}{elem} {buf}[{count}];")
            strides = _contiguous(ty.shape)
            name = self.module.fresh("mr")
            sizes = ", ".join(str(s) for s in ty.shape) or "0"
            sts = ", ".join(str(s) for s in strides) or "0"
            self.decls.append(f"  MR<{elem}, {ty.rank}> {name} = {{{buf}, 0, {{{sizes}}}, {{{sts}}}}};")
            self.launch_args[arg] = name

    # --- regions --------------------------------------------------------------------------------

    def emit_region(self, region: Region, args: list[str] | None, on_exit) -> None:
        """Emit a region inline; `on_exit(op, operand_exprs)` handles its exiting terminators."""
        blocks = region.blocks
        if not blocks:
            return
        if len(blocks) == 1 and not (blocks[0].operations and blocks[0].operations[-1].name in BRANCHES):
            block = blocks[0]
            if args is not None:
                for a, e in zip(block.arguments, args):
                    self.emit(f"{self.var(a)} = {e};")
            for op in block.operations:
                if op.name in REGION_RETURNS:
                    on_exit(op, [self.var(v) for v in op.operands])
                else:
                    self.emit_op(op)
            return
        labels = {b: self.module.fresh("L") for b in blocks}
        end = self.module.fresh("Lend")
        if args is not None:
            for a, e in zip(blocks[0].arguments, args):
                self.emit(f"{self.var(a)} = {e};")
        exits = 0
        for block in blocks:
            if block is not blocks[0]:  # the entry block has no predecessors
                self.lines.append(f"{labels[block]}:;")
            ops = block.operations
            for op in ops:
                if op.name in REGION_RETURNS:
                    on_exit(op, [self.var(v) for v in op.operands])
                    self.emit(f"goto {end};")
                    exits += 1
                elif op.name in BRANCHES:
                    self._branch(op, labels)
                else:
                    self.emit_op(op)
        if exits:
            self.lines.append(f"{end}:;")

    def _jump(self, dest: Block, values: list[Value], labels) -> str:
        parts = []
        if values:
            temps = []
            for a, v in zip(dest.arguments, values):
                t = self.module.fresh("t")
                temps.append((a, t))
                parts.append(f"{ctype(a.type, self.op)} {t} = {self.var(v)};")
            for a, t in temps:
                parts.append(f"{self.var(a)} = {t};")
        parts.append(f"goto {labels[dest]};")
        return "{ " + " ".join(parts) + " }"

    def _branch(self, op: Operation, labels) -> None:
        from gpu_lsp.runner.interp import _successor_counts

        vals = list(op.operands)
        counts = _successor_counts(op)
        if op.name == "cf.br":
            self.emit(self._jump(op.successors[0], vals, labels))
        elif op.name == "cf.cond_br":
            tv = vals[1 : 1 + counts[0]]
            fv = vals[1 + counts[0] : 1 + counts[0] + counts[1]]
            self.emit(f"if ({self.var(vals[0])}) {self._jump(op.successors[0], tv, labels)}")
            self.emit(f"else {self._jump(op.successors[1], fv, labels)}")
        else:  # cf.switch
            cases = case_values(op)
            groups, pos = [], 1
            for n in counts:
                groups.append(vals[pos : pos + n])
                pos += n
            self.emit(f"switch ({self.var(vals[0])}) {{")
            for k, cv in enumerate(cases):
                self.emit(f"  case {cv}: {self._jump(op.successors[k + 1], groups[k + 1], labels)}")
            self.emit(f"  default: {self._jump(op.successors[0], groups[0], labels)}")
            self.emit("}")

    def block(self, region: Region, args: list[str] | None, on_exit) -> None:
        self.indent += 1
        self.emit_region(region, args, on_exit)
        self.indent -= 1

    def assign_to(self, targets: list[str]):
        def on_exit(op: Operation, vals: list[str]) -> None:
            for t, v in zip(targets, vals):
                self.emit(f"{t} = {v};")

        return on_exit

    # --- ops --------------------------------------------------------------------------------------

    def emit_op(self, op: Operation) -> None:
        handler = EMITTERS.get(op.name)
        if handler is None:
            prefix = op.name.split(".")[0]
            if prefix == "index" and op.name[6:] in INDEX_BINARY or prefix == "arith" and op.name[6:] in INT_BINARY:
                handler = FunctionEmitter._int_binary
            elif prefix == "arith" and op.name[6:] in _BINARY_FLOAT:
                handler = FunctionEmitter._float_binary
            elif prefix == "arith" and op.name[6:] in CASTS:
                handler = FunctionEmitter._cast
            elif prefix == "math":
                handler = FunctionEmitter._math
        if handler is None:
            if not op.known:
                raise Unsupported(f"operation '{op.name}' is not known to gpu-lsp, so the CUDA code generator cannot translate it", op)
            raise Unsupported(f"'{op.name}' is not supported by the CUDA code generator", op)
        for v in list(op.operands) + list(op.results):
            if isinstance(v.type, (T.VectorType, T.TensorType)):
                raise Unsupported(f"'{op.name}' on {v.type} values is not supported by the CUDA code generator", op)
        handler(self, op)

    def out(self, op: Operation, expr: str, index: int = 0) -> None:
        self.emit(f"{self.var(op.results[index])} = {expr};")

    # arith

    def _constant(self, op: Operation) -> None:
        ty = op.results[0].type
        attr = op.get_attr("value")
        value = constant_value(attr, ty) if attr is not None else None
        if value is None:
            raise Unsupported(f"'{op.name}' of type {ty} is not supported by the CUDA code generator", op)
        if isinstance(ty, T.FloatType):
            self.out(op, _float_literal(float(value), ty))
        elif isinstance(ty, T.IntegerType) and ty.width == 1:
            self.out(op, "true" if bool(value) else "false")
        else:
            v = int(value)
            w = width(ty)
            if w == 64:
                self.out(op, f"(long long){v}LL" if v != -(2**63) else "(long long)(-9223372036854775807LL - 1)")
            else:
                self.out(op, f"({scalar_ctype(ty)}){v}" if v != -(2 ** (w - 1)) else f"({scalar_ctype(ty)})({v + 1} - 1)")

    def _affine(self, op: Operation) -> None:
        text, count, results = op_map(op, "the CUDA code generator")
        names = [self.var(v) for v in op.operands]
        if len(names) != count or not results:
            raise Unsupported(f"'{op.name}' with the map {text} is not supported by the CUDA code generator", op)
        exprs = [_affine_c(e, names) for e in results]
        out = exprs[0]
        pick = "mlir_smin" if op.name == "affine.min" else "mlir_smax"
        for other in exprs[1:]:
            out = f"{pick}({out}, {other})"
        self.out(op, out)

    def _int_binary(self, op: Operation) -> None:
        name = arith_name(op)
        ty = op.results[0].type
        a, b = (self.var(v) for v in op.operands)
        ct, w = scalar_ctype(ty, op), width(ty)
        if w == 1:
            table = {"addi": f"{a} != {b}", "subi": f"{a} != {b}", "muli": f"{a} && {b}", "andi": f"{a} && {b}", "ori": f"{a} || {b}", "xori": f"{a} != {b}",
                     "maxui": f"{a} || {b}", "minui": f"{a} && {b}", "maxsi": f"{a} && {b}", "minsi": f"{a} || {b}",
                     "shli": f"({b} ? false : {a})", "shrui": f"({b} ? false : {a})", "shrsi": f"{a}",
                     "divui": f"{a}", "divsi": f"{a}", "remui": "false", "remsi": "false", "ceildivui": f"{a}", "ceildivsi": f"{a}", "floordivsi": f"{a}"}
            self.out(op, table[name])
            return
        ut = utype(ty)
        if name in ("addi", "subi", "muli"):
            sym = {"addi": "+", "subi": "-", "muli": "*"}[name]
            self.out(op, f"({ct})(({ut}){a} {sym} ({ut}){b})")
        elif name in ("andi", "ori", "xori"):
            sym = {"andi": "&", "ori": "|", "xori": "^"}[name]
            self.out(op, f"({ct})({a} {sym} {b})")
        elif name == "divsi":
            self.out(op, f"({ct})({a} / {b})")
        elif name == "remsi":
            self.out(op, f"({ct})({a} % {b})")
        elif name == "divui":
            self.out(op, f"({ct})(({ut}){a} / ({ut}){b})")
        elif name == "remui":
            self.out(op, f"({ct})(({ut}){a} % ({ut}){b})")
        elif name == "floordivsi":
            self.out(op, f"mlir_floordiv<{ct}>({a}, {b})")
        elif name == "ceildivsi":
            self.out(op, f"mlir_ceildiv<{ct}>({a}, {b})")
        elif name == "ceildivui":
            self.out(op, f"({ct})mlir_ceildivu<{ut}>(({ut}){a}, ({ut}){b})")
        elif name == "shli":
            self.out(op, f"(({ut}){b} >= {w}u ? ({ct})0 : ({ct})(({ut}){a} << ({ut}){b}))")
        elif name == "shrui":
            self.out(op, f"(({ut}){b} >= {w}u ? ({ct})0 : ({ct})(({ut}){a} >> ({ut}){b}))")
        elif name == "shrsi":
            self.out(op, f"(({ut}){b} >= {w}u ? ({ct})({a} < 0 ? -1 : 0) : ({ct})({a} >> ({ut}){b}))")
        elif name in ("maxsi", "minsi"):
            cmp = ">" if name == "maxsi" else "<"
            self.out(op, f"({a} {cmp} {b} ? {a} : {b})")
        elif name in ("maxui", "minui"):
            cmp = ">" if name == "maxui" else "<"
            self.out(op, f"(({ut}){a} {cmp} ({ut}){b} ? {a} : {b})")
        else:
            raise Unsupported(f"'{op.name}' is not supported by the CUDA code generator", op)

    def _float_binary(self, op: Operation) -> None:
        name = op.name[6:]
        ty = op.results[0].type
        a, b = (self.as_float(self.var(v), ty) for v in op.operands)
        f = "f" if ty != T.F64 else ""
        if name in ("addf", "subf", "mulf", "divf"):
            sym = {"addf": "+", "subf": "-", "mulf": "*", "divf": "/"}[name]
            expr = f"({a} {sym} {b})"
        elif name == "remf":
            expr = f"fmod{f}({a}, {b})"
        else:
            ft = "double" if ty == T.F64 else "float"
            expr = f"mlir_{name}<{ft}>({a}, {b})"
        self.out(op, self.from_float(expr, ty))

    def _negf(self, op: Operation) -> None:
        ty = op.results[0].type
        self.out(op, self.from_float(f"(-{self.as_float(self.var(op.operands[0]), ty)})", ty))

    def _cmpi(self, op: Operation) -> None:
        if op.name == "index.cmp":
            pred = _enum(op.get_attr("pred"))
        else:
            pred = predicate_name(op, "cmpi")
        ty = op.operands[0].type
        a, b = (self.var(v) for v in op.operands)
        sym = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=", "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}[pred]
        if width(ty) == 1:
            if pred.startswith("s"):  # true is -1 as a signed i1
                a, b = f"(-(int){a})", f"(-(int){b})"
            else:
                a, b = f"(int){a}", f"(int){b}"
        elif pred.startswith("u"):
            ut = utype(ty)
            a, b = f"({ut}){a}", f"({ut}){b}"
        self.out(op, f"({a} {sym} {b})")

    def _cmpf(self, op: Operation) -> None:
        pred = predicate_name(op, "cmpf")
        ty = op.operands[0].type
        a, b = (self.as_float(self.var(v), ty) for v in op.operands)
        uno = f"({a} != {a} || {b} != {b})"
        table = {
            "false": "false", "true": "true",
            "oeq": f"({a} == {b})", "ogt": f"({a} > {b})", "oge": f"({a} >= {b})", "olt": f"({a} < {b})", "ole": f"({a} <= {b})",
            "one": f"({a} != {b} && !{uno})", "ord": f"(!{uno})",
            "ueq": f"({a} == {b} || {uno})", "ugt": f"({a} > {b} || {uno})", "uge": f"({a} >= {b} || {uno})",
            "ult": f"({a} < {b} || {uno})", "ule": f"({a} <= {b} || {uno})", "une": f"({a} != {b})", "uno": uno,
        }
        self.out(op, table[pred])

    def _select(self, op: Operation) -> None:
        c, a, b = (self.var(v) for v in op.operands)
        self.out(op, f"({c} ? {a} : {b})")

    def _cast(self, op: Operation) -> None:
        name = {"index.casts": "index_cast", "index.castu": "index_castui"}.get(op.name) or op.name[6:]
        src, dst = op.operands[0].type, op.results[0].type
        x = self.var(op.operands[0])
        if name == "bitcast":
            self.out(op, self._bitcast(x, src, dst, op))
            return
        if name in ("extf", "truncf"):
            self.out(op, self.from_float(f"({'double' if dst == T.F64 else 'float'}){self.as_float(x, src)}", dst))
            return
        if name in ("sitofp", "uitofp"):
            ft = "double" if dst == T.F64 else "float"
            if width(src) == 1:
                expr = f"({ft})({x} ? {'-1' if name == 'sitofp' else '1'} : 0)"
            elif name == "uitofp":
                expr = f"({ft})({utype(src)}){x}"
            else:
                expr = f"({ft}){x}"
            self.out(op, self.from_float(expr, dst))
            return
        if name in ("fptosi", "fptoui"):
            xf = self.as_float(x, src)
            if width(dst) == 1:
                self.out(op, f"({xf} != 0)")
            elif name == "fptoui":
                self.out(op, f"({scalar_ctype(dst)})({utype(dst)}){xf}")
            else:
                self.out(op, f"({scalar_ctype(dst)}){xf}")
            return
        # integer <-> integer/index
        ws, wd = width(src), width(dst)
        ct = scalar_ctype(dst)
        if wd == 1:
            self.out(op, f"((({utype(src)}){x} & 1) != 0)" if ws > 1 else x)
        elif ws == 1:
            signed = name in ("index_cast", "extsi")
            self.out(op, f"({ct})({x} ? {'-1' if signed else '1'} : 0)")
        elif name in ("index_castui", "extui"):
            self.out(op, f"({ct})({utype(src)}){x}")
        elif wd < ws:
            self.out(op, f"({ct})({utype(dst)})({utype(src)}){x}")
        else:
            self.out(op, f"({ct}){x}")

    def _bitcast(self, x: str, src: T.Type, dst: T.Type, op: Operation) -> str:
        if width(src) != width(dst):
            raise Unsupported(f"'{op.name}' between types of different widths is not supported", op)
        sf, df = isinstance(src, T.FloatType), isinstance(dst, T.FloatType)
        if sf == df:
            return f"({scalar_ctype(dst)}){x}" if not sf else x
        w = width(src)
        if w == 32:
            return f"__int_as_float({x})" if df else f"__float_as_int({x})"
        if w == 64:
            return f"__longlong_as_double({x})" if df else f"__double_as_longlong({x})"
        if w == 16:
            return f"mlir_f16{{(unsigned short){x}}}" if df else f"(short){x}.x"
        raise Unsupported(f"'{op.name}' of {src} is not supported", op)

    def _extended(self, op: Operation) -> None:
        ty = op.operands[0].type
        a, b = (self.var(v) for v in op.operands)
        w = width(ty)
        ct, ut = scalar_ctype(ty), utype(ty)
        if w > 32:
            raise Unsupported(f"'{op.name}' on {w}-bit integers is not supported by the CUDA code generator", op)
        if op.name == "arith.addui_extended":
            self.out(op, f"({ct})(({ut}){a} + ({ut}){b})")
            self.out(op, f"((unsigned long long)({ut}){a} + (unsigned long long)({ut}){b}) >> {w}", 1)
            return
        wide = "unsigned long long" if op.name == "arith.mului_extended" else "long long"
        cast_in = f"({wide})({ut})" if op.name == "arith.mului_extended" else f"({wide})"
        prod = f"({cast_in}{a} * {cast_in}{b})"
        self.out(op, f"({ct})({ut}){prod}")
        self.out(op, f"({ct})({ut})({prod} >> {w})", 1)

    # math

    def _math(self, op: Operation) -> None:
        name = op.name[5:]
        ty = op.results[0].type
        args = [self.var(v) for v in op.operands]
        if name in ("absi", "ctlz", "cttz", "ctpop", "ipowi"):
            self._math_int(op, name, ty, args)
            return
        if name in ("isnan", "isinf", "isfinite", "isnormal"):
            aty = op.operands[0].type
            x = self.as_float(args[0], aty)
            table = {"isnan": f"isnan({x})", "isinf": f"isinf({x})", "isfinite": f"isfinite({x})",
                     "isnormal": f"(isfinite({x}) && fabs({x}) >= {'1.17549435e-38f' if aty != T.F64 else '2.2250738585072014e-308'})"}
            if aty == T.F16:
                table["isnormal"] = f"(isfinite({x}) && fabsf({x}) >= 6.103515625e-05f)"
            self.out(op, table[name])
            return
        if name == "fpowi":
            b = self.as_float(args[0], ty)
            f = "f" if ty != T.F64 else ""
            self.out(op, self.from_float(f"pow{f}({b}, ({'double' if not f else 'float'}){args[1]})", ty))
            return
        fargs = [self.as_float(a, ty) for a in args]
        f = "f" if ty != T.F64 else ""
        fn = {
            "absf": "fabs", "ceil": "ceil", "floor": "floor", "trunc": "trunc", "roundeven": "rint", "round": "round",
            "sqrt": "sqrt", "rsqrt": "rsqrt", "cbrt": "cbrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1",
            "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan",
            "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
            "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "erf": "erf", "erfc": "erfc",
            "atan2": "atan2", "powf": "pow", "copysign": "copysign", "fma": "fma",
        }.get(name)
        if fn is None:
            raise Unsupported(f"'{op.name}' is not supported by the CUDA code generator", op)
        self.out(op, self.from_float(f"{fn}{f}({', '.join(fargs)})", ty))

    def _math_int(self, op: Operation, name: str, ty: T.Type, args: list[str]) -> None:
        ct, ut, w = scalar_ctype(ty), utype(ty), width(ty)
        x = args[0]
        if name == "absi":
            self.out(op, f"({ct})({x} < 0 ? ({ut})0 - ({ut}){x} : ({ut}){x})")
        elif name == "ctpop":
            self.out(op, f"({ct})__popcll((unsigned long long)({ut}){x})")
        elif name == "ctlz":
            self.out(op, f"({ct})(__clzll((long long)(unsigned long long)({ut}){x}) - {64 - w})")
        elif name == "cttz":
            self.out(op, f"({ct})(({ut}){x} == 0 ? {w} : __ffsll((long long)(unsigned long long)({ut}){x}) - 1)")
        else:
            self.out(op, f"mlir_ipow<{ct}>({x}, {args[1]})")

    # scf

    def _for(self, op: Operation) -> None:
        lb, ub, step, *inits = op.operands
        body = op.regions[0]
        iv_ty = lb.type
        ct = scalar_ctype(iv_ty, op)
        unsigned = op.get_attr("unsignedCmp") is not None
        iv = self.module.fresh("i")
        results = [self.var(r) for r in op.results]
        iters = [self.var(a) for a in body.blocks[0].arguments[1:]]
        for r, init in zip(iters, inits):
            self.emit(f"{r} = {self.var(init)};")
        cmp_a, cmp_b = (f"({utype(iv_ty)}){iv}", f"({utype(iv_ty)}){self.var(ub)}") if unsigned else (iv, self.var(ub))
        self.emit(f"for ({ct} {iv} = {self.var(lb)}; {cmp_a} < {cmp_b}; {iv} = ({ct})(({utype(iv_ty)}){iv} + ({utype(iv_ty)}){self.var(step)})) {{")
        self.indent += 1
        self.emit(f"{self.var(body.blocks[0].arguments[0])} = {iv};")
        self.indent -= 1
        self.block(body, None, self._yield_parallel(iters))
        self.emit("}")
        for r, it in zip(results, iters):
            self.emit(f"{r} = {it};")
        if not iters:
            for r, init in zip(results, inits):
                self.emit(f"{r} = {self.var(init)};")

    def _yield_parallel(self, targets: list[str]):
        def on_exit(op: Operation, vals: list[str]) -> None:
            if not targets:
                return
            temps = []
            for t, v in zip(targets, vals):
                tmp = self.module.fresh("y")
                temps.append((t, tmp))
                ty = op.operands[len(temps) - 1].type
                self.emit(f"{ctype(ty, self.op)} {tmp} = {v};")
            for t, tmp in temps:
                self.emit(f"{t} = {tmp};")

        return on_exit

    def _if(self, op: Operation) -> None:
        results = [self.var(r) for r in op.results]
        self.emit(f"if ({self.var(op.operands[0])}) {{")
        self.block(op.regions[0], None, self.assign_to(results))
        if len(op.regions) > 1 and op.regions[1].blocks:
            self.emit("} else {")
            self.block(op.regions[1], None, self.assign_to(results))
        self.emit("}")

    def _while(self, op: Operation) -> None:
        before, after = op.regions
        bargs = [self.var(a) for a in before.blocks[0].arguments]
        for a, init in zip(bargs, op.operands):
            self.emit(f"{a} = {self.var(init)};")
        results = [self.var(r) for r in op.results]
        cond = self.module.fresh("c")
        self.emit(f"bool {cond};")
        aargs = [self.var(a) for a in after.blocks[0].arguments]
        self.emit("while (true) {")

        def on_condition(term: Operation, vals: list[str]) -> None:
            self.emit(f"{cond} = {vals[0]};")
            for r, v in zip(results, vals[1:]):
                self.emit(f"{r} = {v};")
            for a, v in zip(aargs, vals[1:]):
                self.emit(f"{a} = {v};")

        self.block(before, None, on_condition)
        self.emit(f"  if (!{cond}) break;")
        self.block(after, None, self._yield_parallel(bargs))
        self.emit("}")

    def _execute_region(self, op: Operation) -> None:
        results = [self.var(r) for r in op.results]
        self.emit("{")
        self.block(op.regions[0], None, self.assign_to(results))
        self.emit("}")

    def _index_switch(self, op: Operation) -> None:
        results = [self.var(r) for r in op.results]
        cases = [int(v) for v in (dense_array_values(op.get_attr("cases")) or ())]
        self.emit(f"switch ({self.var(op.operands[0])}) {{")
        for value, region in zip(cases, op.regions[1:]):
            self.emit(f"case {value}LL: {{")
            self.block(region, None, self.assign_to(results))
            self.emit("  break; }")
        self.emit("default: {")
        self.block(op.regions[0], None, self.assign_to(results))
        self.emit("  break; }")
        self.emit("}")

    def _parallel(self, op: Operation) -> None:
        groups = segments(op)
        if groups is None:
            raise Unsupported("'scf.parallel' without operand segments is not supported by the CUDA code generator", op)
        lbs, ubs, steps = groups["lowerBound"], groups["upperBound"], groups["step"]
        inits = groups["initVals"]
        n = len(lbs)
        body = op.regions[0]
        results = [self.var(r) for r in op.results]
        for r, init in zip(results, inits):
            self.emit(f"{r} = {self.var(init)};")
        ivs = body.blocks[0].arguments
        for k in range(n):
            i = self.module.fresh("p")
            self.emit(f"for (long long {i} = {self.var(lbs[k])}; {i} < {self.var(ubs[k])}; {i} += {self.var(steps[k])}) {{")
            self.indent += 1
            self.emit(f"{self.var(ivs[k])} = {i};")
        term = body.blocks[-1].operations[-1]

        def on_reduce(t: Operation, values: list[str]) -> None:
            for k, (region, v) in enumerate(zip(t.regions, values)):
                self.emit("{")
                self.block(region, [results[k], v], self.assign_to([results[k]]))
                self.emit("}")

        self.emit_region(body, None, on_reduce if term.name == "scf.reduce" else (lambda o, v: None))
        for _ in range(n):
            self.indent -= 1
            self.emit("}")

    # cf / func

    def _assert(self, op: Operation) -> None:
        msg = op.get_attr("msg")
        text = msg.value if isinstance(msg, StringAttr) else ""
        self.emit(f"if (!{self.var(op.operands[0])}) {{ printf({c_string('assertion failed: ' + text + chr(10))}); __trap(); }}")

    def _call(self, op: Operation) -> None:
        callee = op.get_attr("callee")
        target = self.module.program.lookup_function(op, callee) if isinstance(callee, SymbolRefAttr) else None
        if target is None or not target.regions or not target.regions[0].blocks:
            raise Unsupported(f"'func.call' of @{getattr(callee, 'leaf', '?')} from a kernel: only functions with a body in the gpu.module can be called", op)
        fname = self.module.device_function(target)
        args = [self.var(v) for v in op.operands]
        results = [self.var(r) for r in op.results]
        args += [f"&{r}" for r in results[1:]]
        call = f"{fname}({', '.join(args)})"
        self.emit(f"{results[0]} = {call};" if results else f"{call};")

    # memref

    def _address(self, mem: Value, indices: list[Value]) -> str:
        m = self.var(mem)
        terms = [f"{m}.off"] + [f"{self.var(i)} * {m}.st[{d}]" for d, i in enumerate(indices)]
        return f"{m}.p[{' + '.join(terms)}]"

    def _load(self, op: Operation) -> None:
        mem, *idx = op.operands
        self.out(op, self._address(mem, idx))

    def _store(self, op: Operation) -> None:
        value, mem, *idx = op.operands
        self.emit(f"{self._address(mem, idx)} = {self.var(value)};")

    def _dim(self, op: Operation) -> None:
        mem, index = op.operands
        self.out(op, f"{self.var(mem)}.sz[{self.var(index)}]")

    def _memref_cast(self, op: Operation) -> None:
        self.out(op, self.var(op.operands[0]))

    def _assume_alignment(self, op: Operation) -> None:
        if op.results:
            self.out(op, self.var(op.operands[0]))

    def _alloca(self, op: Operation) -> None:
        ty = op.results[0].type
        shape = static_shape(ty)
        if not isinstance(ty, T.MemRefType) or shape is None:
            raise Unsupported(f"'memref.alloca' of {ty} inside a kernel needs a static shape for the CUDA code generator", op)
        elem = scalar_ctype(ty.element, op)
        count = int(np.prod(shape)) if shape else 1
        buf = self.module.fresh("local")
        self.decls.append(f"  {elem} {buf}[{count}];")
        sizes = ", ".join(str(s) for s in ty.shape) or "0"
        strides = ", ".join(str(s) for s in _contiguous(ty.shape)) or "0"
        self.out(op, f"MR<{elem}, {ty.rank}>{{{buf}, 0, {{{sizes}}}, {{{strides}}}}}")

    def _view(self, op: Operation) -> None:
        src, shift, *dyn = op.operands
        ty = op.results[0].type
        if not isinstance(ty, T.MemRefType):
            raise Unsupported(f"'memref.view' to {ty} is not supported by the CUDA code generator", op)
        elem = scalar_ctype(ty.element, op)
        dyn_iter = iter(dyn)
        sizes = [self.var(next(dyn_iter)) if d is None else f"{d}LL" for d in ty.shape]
        strides = []
        acc = "1LL"
        for s in reversed(sizes):
            strides.append(acc)
            acc = f"({acc} * {s})"
        strides.reverse()
        s = self.var(src)
        data = f"({elem}*)({s}.p + {s}.off + {self.var(shift)})"
        self.out(op, f"MR<{elem}, {ty.rank}>{{{data}, 0, {{{', '.join(sizes) or '0'}}}, {{{', '.join(strides) or '0'}}}}}")

    def _atomic_rmw(self, op: Operation) -> None:
        value, mem, *idx = op.operands
        kind = ENUMS["AtomicRMWKindAttr"].case(op.get_attr("kind")) or ""
        ty = value.type
        ct = scalar_ctype(ty, op)
        ptr = f"&{self._address(mem, idx)}"
        v = self.var(value)
        w = width(ty)
        direct = {
            "addf": "atomicAdd", "addi": "atomicAdd", "assign": "atomicExch",
            "maxs": "atomicMax", "mins": "atomicMin", "maxu": "atomicMax", "minu": "atomicMin",
            "andi": "atomicAnd", "ori": "atomicOr",
        }
        if self.is_half(ty) or w not in (32, 64):
            raise Unsupported(f"'memref.atomic_rmw' on {ty} is not supported by the CUDA code generator", op)
        if kind == "assign" and ct == "double":
            direct = {}
        if kind in direct:
            fn = direct[kind]
            if kind == "addf" or (kind == "assign" and ct == "float") or (kind in ("maxs", "mins", "addi") and w == 32):
                expr = f"{fn}({ptr}, {v})"
            elif kind in ("maxs", "mins"):
                expr = f"({ct}){fn}((long long*){ptr}, (long long){v})"
            else:
                ut = "unsigned int" if w == 32 else "unsigned long long"
                expr = f"({ct}){fn}(({ut}*){ptr}, ({ut}){v})"
            if op.results:
                self.out(op, expr)
            else:
                self.emit(f"{expr};")
            return
        combine = {
            "assign": "{v}", "mulf": "(old * {v})", "muli": "({ct})((unsigned long long)old * (unsigned long long){v})",
            "maximumf": "mlir_maximumf(old, {v})", "minimumf": "mlir_minimumf(old, {v})",
            "maxnumf": "mlir_maxnumf(old, {v})", "minnumf": "mlir_minnumf(old, {v})",
        }.get(kind)
        if combine is None:
            raise Unsupported(f"'memref.atomic_rmw' kind '{kind}' is not supported by the CUDA code generator", op)
        bits = "unsigned int" if w == 32 else "unsigned long long"
        to_bits = {("float", 32): "__float_as_uint", ("double", 64): "__double_as_longlong"}.get((ct, w), f"({bits})")
        from_bits = {("float", 32): "__uint_as_float", ("double", 64): "__longlong_as_double"}.get((ct, w), f"({ct})")
        tmp = self.module.fresh("cas")
        self.emit(f"{{ {bits}* {tmp}p = ({bits}*){ptr}; {bits} {tmp}o = *{tmp}p, {tmp}a;")
        self.emit(f"  do {{ {tmp}a = {tmp}o; {ct} old = {from_bits}({tmp}a);")
        self.emit(f"       {tmp}o = atomicCAS({tmp}p, {tmp}a, ({bits}){to_bits}({combine.format(v=v, ct=ct)})); }} while ({tmp}a != {tmp}o);")
        if op.results:
            self.emit(f"  {self.var(op.results[0])} = {from_bits}({tmp}o);")
        self.emit("}")

    # gpu

    def _ids(self, op: Operation) -> None:
        d = "xyz"[_dim_index(op)]
        kind = op.name[4:]
        expr = {
            "thread_id": f"threadIdx.{d}", "block_id": f"blockIdx.{d}", "block_dim": f"blockDim.{d}", "grid_dim": f"gridDim.{d}",
            "global_id": f"(blockIdx.{d} * blockDim.{d} + threadIdx.{d})",
        }.get(kind)
        if expr is None:
            raise Unsupported(f"'{op.name}' (thread block clusters) is not supported by the CUDA code generator", op)
        self.out(op, f"(long long){expr}")

    def _lane_id(self, op: Operation) -> None:
        self.out(op, "(long long)(mlir_linear_tid() & 31u)")

    def _subgroup(self, op: Operation) -> None:
        expr = {
            "gpu.subgroup_id": "(long long)(mlir_linear_tid() >> 5)",
            "gpu.num_subgroups": "(long long)((mlir_block_threads() + 31u) >> 5)",
            "gpu.subgroup_size": "32LL",
        }[op.name]
        self.out(op, expr)

    def _barrier(self, op: Operation) -> None:
        self.emit("__syncthreads();")

    def _shuffle_bits(self, mode: str, value: str, ty: T.Type, off: str, clamp: str, mask: str, valid: str) -> str:
        """A shuffle of any scalar type through 32-bit shfl.sync calls."""
        w = width(ty)
        fn = f"mlir_shfl_{mode}"
        if isinstance(ty, T.FloatType):
            if w == 32:
                return f"__uint_as_float({fn}(__float_as_uint({value}), {off}, {clamp}, {mask}, &{valid}))"
            if w == 64:
                bits = f"(unsigned long long)__double_as_longlong({value})"
                lo = f"{fn}((unsigned)({bits}), {off}, {clamp}, {mask}, &{valid})"
                hi = f"{fn}((unsigned)({bits} >> 32), {off}, {clamp}, {mask}, &{valid})"
                return f"__longlong_as_double((long long)(((unsigned long long){hi} << 32) | (unsigned long long){lo}))"
            return f"mlir_f16{{(unsigned short){fn}((unsigned){value}.x, {off}, {clamp}, {mask}, &{valid})}}"
        ct = scalar_ctype(ty)
        if w == 64:
            bits = f"(unsigned long long){value}"
            lo = f"{fn}((unsigned)({bits}), {off}, {clamp}, {mask}, &{valid})"
            hi = f"{fn}((unsigned)({bits} >> 32), {off}, {clamp}, {mask}, &{valid})"
            return f"({ct})(((unsigned long long){hi} << 32) | (unsigned long long){lo})"
        if w == 1:
            return f"({fn}((unsigned){value}, {off}, {clamp}, {mask}, &{valid}) != 0)"
        return f"({ct}){fn}((unsigned)({utype(ty)}){value}, {off}, {clamp}, {mask}, &{valid})"

    def _shuffle(self, op: Operation) -> None:
        value, offset, width_v = op.operands
        mode = _enum(op.get_attr("mode"))
        ptx = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}[mode]
        w = self.var(width_v)
        # Every active lane takes part (upstream's lowering names only the first `width` lanes,
        # which PTX leaves undefined for the others); lanes at or beyond `width` get `false`.
        clamp = f"(32u - (unsigned){w})" if mode == "up" else f"((unsigned){w} - 1u)"
        valid = self.var(op.results[1])
        expr = self._shuffle_bits(ptx, self.var(value), value.type, f"(unsigned){self.var(offset)}", clamp, "__activemask()", valid)
        self.out(op, expr)
        self.emit(f"{valid} = {valid} && (mlir_linear_tid() & 31u) < (unsigned){w};")

    def _rotate(self, op: Operation) -> None:
        (value,) = op.operands
        offset, w = int_attr(op, "offset"), int_attr(op, "width")
        if offset is None or w is None:
            raise Unsupported("'gpu.rotate' without a constant offset and width is not supported by the CUDA code generator", op)
        lane = "(mlir_linear_tid() & 31u)"
        src = f"((({lane} + {offset}u) % {w}u) + ({lane} / {w}u) * {w}u)"
        mask = "0xffffffffu"
        tmp = self.module.fresh("rv")
        self.emit(f"bool {tmp};")
        self.out(op, self._shuffle_bits("idx", self.var(value), value.type, src, "31u", mask, tmp))
        self.out(op, f"({lane} < {w}u)", 1)

    def _subgroup_broadcast(self, op: Operation) -> None:
        value = op.operands[0]
        kind = _enum(op.get_attr("broadcast_type"))
        lane = f"(unsigned){self.var(op.operands[1])}" if kind == "specific_lane" else "(unsigned)(__ffs(__activemask()) - 1)"
        tmp = self.module.fresh("bv")
        self.emit(f"bool {tmp};")
        self.out(op, self._shuffle_bits("idx", self.var(value), value.type, lane, "31u", "__activemask()", tmp))

    def _combiner(self, kind: str, ty: T.Type, a: str, b: str, op: Operation) -> str:
        ct = scalar_ctype(ty, op)
        if isinstance(ty, T.FloatType):
            fa, fb = self.as_float(a, ty), self.as_float(b, ty)
            ft = "double" if ty == T.F64 else "float"
            expr = {
                "add": f"({fa} + {fb})", "mul": f"({fa} * {fb})",
                "minnumf": f"mlir_minnumf<{ft}>({fa}, {fb})", "maxnumf": f"mlir_maxnumf<{ft}>({fa}, {fb})",
                "minimumf": f"mlir_minimumf<{ft}>({fa}, {fb})", "maximumf": f"mlir_maximumf<{ft}>({fa}, {fb})",
            }.get(kind)
            if expr is None:
                raise Unsupported(f"'{op.name}' kind '{kind}' on {ty} is not supported by the CUDA code generator", op)
            return self.from_float(expr, ty)
        ut = utype(ty)
        if width(ty) == 1:
            return {"add": f"({a} != {b})", "mul": f"({a} && {b})", "and": f"({a} && {b})", "or": f"({a} || {b})", "xor": f"({a} != {b})",
                    "minui": f"({a} && {b})", "maxui": f"({a} || {b})", "minsi": f"({a} || {b})", "maxsi": f"({a} && {b})"}[kind]
        table = {
            "add": f"({ct})(({ut}){a} + ({ut}){b})", "mul": f"({ct})(({ut}){a} * ({ut}){b})",
            "and": f"({ct})({a} & {b})", "or": f"({ct})({a} | {b})", "xor": f"({ct})({a} ^ {b})",
            "minsi": f"({a} < {b} ? {a} : {b})", "maxsi": f"({a} > {b} ? {a} : {b})",
            "minui": f"(({ut}){a} < ({ut}){b} ? {a} : {b})", "maxui": f"(({ut}){a} > ({ut}){b} ? {a} : {b})",
        }
        if kind not in table:
            raise Unsupported(f"'{op.name}' kind '{kind}' on {ty} is not supported by the CUDA code generator", op)
        return table[kind]

    def _region_combiner(self, op: Operation, ty: T.Type) -> str:
        name = self.module.fresh("combine")
        sub = FunctionEmitter(self.module, "combiner", self.op, name)
        region = op.regions[0]
        entry = region.blocks[0]
        sub.launch_args[entry.arguments[0]] = "a"
        sub.launch_args[entry.arguments[1]] = "b"
        sub.emit_region(region, None, lambda term, vals: sub.emit(f"return {vals[0]};"))
        ct = scalar_ctype(ty, op)
        body = "\n".join(sub.decls + sub.lines)
        self.module.bodies.insert(0, f"static __device__ {ct} {name}({ct} a, {ct} b) {{\n{body}\n}}\n")
        return name

    def _all_reduce(self, op: Operation) -> None:
        (value,) = op.operands
        ty = op.results[0].type
        ct = scalar_ctype(ty, op)
        kind_attr = op.get_attr("op")
        if kind_attr is not None:
            kind = _enum(kind_attr)

            def comb(a: str, b: str) -> str:
                return self._combiner(kind, ty, a, b, op)
        else:
            fname = self._region_combiner(op, ty)

            def comb(a: str, b: str) -> str:
                return f"{fname}({a}, {b})"

        red = self.module.fresh("red")
        self.decls.append(f"  __shared__ {ct} {red}[33];")
        dt = dtype_of(ty)
        if dt is None:
            raise Unsupported(f"'{op.name}' on {ty} is not supported by the CUDA code generator", op)
        self.static_smem += 33 * dt.itemsize
        v = self.module.fresh("rv")
        ok = self.module.fresh("ok")
        self.emit("{")
        self.indent += 1
        self.emit(f"{ct} {v} = {self.var(value)}; bool {ok};")
        self.emit("unsigned tid = mlir_linear_tid(), n = mlir_block_threads();")
        self.emit("unsigned lanes = n - (tid & ~31u) < 32u ? n - (tid & ~31u) : 32u;")
        self.emit("unsigned mmask = lanes == 32u ? 0xffffffffu : ((1u << lanes) - 1u);")
        self.emit("for (unsigned o = 16; o > 0; o >>= 1) {")
        other = self._shuffle_bits("down", v, ty, "o", "lanes - 1u", "mmask", ok)
        self.emit(f"  {ct} other = {other};")
        self.emit(f"  if ({ok}) {v} = {comb(v, 'other')};")
        self.emit("}")
        self.emit(f"if ((tid & 31u) == 0u) {red}[tid >> 5] = {v};")
        self.emit("__syncthreads();")
        self.emit("if (tid == 0u) {")
        self.emit(f"  {ct} acc = {red}[0];")
        self.emit(f"  for (unsigned w = 1; w < ((n + 31u) >> 5); ++w) acc = {comb('acc', f'{red}[w]')};")
        self.emit(f"  {red}[32] = acc;")
        self.emit("}")
        self.emit("__syncthreads();")
        self.emit(f"{self.var(op.results[0])} = {red}[32];")
        self.indent -= 1
        self.emit("}")

    def _subgroup_reduce(self, op: Operation) -> None:
        (value,) = op.operands
        ty = op.results[0].type
        ct = scalar_ctype(ty, op)
        kind = _enum(op.get_attr("op"))
        size = int_attr(op, "cluster_size")
        stride = int_attr(op, "cluster_stride")
        size, stride = (32 if size is None else size), (1 if stride is None else stride)
        v = self.module.fresh("sv")
        ok = self.module.fresh("ok")
        self.emit("{")
        self.indent += 1
        self.emit(f"{ct} {v} = {self.var(value)}; bool {ok};")
        o = size // 2
        while o >= 1:
            other = self._shuffle_bits("bfly", v, ty, f"{o * stride}u", "31u", "0xffffffffu", ok)
            self.emit(f"{{ {ct} other = {other}; {v} = {self._combiner(kind, ty, v, 'other', op)}; }}")
            o //= 2
        self.emit(f"{self.var(op.results[0])} = {v};")
        self.indent -= 1
        self.emit("}")

    def _printf(self, op: Operation) -> None:
        """Device printf. Upstream packs the arguments unpromoted into a struct for vprintf; CUDA C's
        printf promotes them, so integers narrower than 32 bits are passed zero-extended, which reads
        the same as upstream's (zero-padded) struct for every conversion of the matching size."""
        fmt = op.get_attr("format")
        text = fmt.value if isinstance(fmt, StringAttr) else ""
        args = []
        for v in op.operands:
            ty = v.type
            if isinstance(ty, T.FloatType):
                args.append(f"(double){self.as_float(self.var(v), ty)}")
            elif width(ty) < 32:
                args.append(f"(unsigned)({utype(ty)}){self.var(v)}")
            else:
                args.append(self.var(v))
        self.emit(f"printf({', '.join([c_string(text)] + args)});")

    def _dynamic_shared_memory(self, op: Operation) -> None:
        if self.kind != "kernel":
            raise Unsupported("'gpu.dynamic_shared_memory' outside a kernel's own body is not supported by the CUDA code generator", op)
        self.uses_dsm = True
        decl = "  MLIR_DYNAMIC_SHARED(mlir_dsmem);"
        if decl not in self.decls:
            self.decls.append(decl)
        self.out(op, "MR<signed char, 1>{mlir_dsmem, 0, {mlir_dsm_size}, {1}}")


def _affine_c(e: Expr, names: list[str]) -> str:
    """An affine expression as C on long long, wrapping like index arithmetic."""
    kind = e[0]
    if kind == "const":
        return f"(long long){e[1]}LL" if e[1] != -(2**63) else "(long long)(-9223372036854775807LL - 1)"
    if kind == "var":
        return names[e[1]]
    a, b = _affine_c(e[1], names), _affine_c(e[2], names)
    if kind == "+":
        return f"(long long)((unsigned long long)({a}) + (unsigned long long)({b}))"
    if kind == "*":
        return f"(long long)((unsigned long long)({a}) * (unsigned long long)({b}))"
    if kind == "floordiv":
        return f"mlir_floordiv<long long>({a}, {b})"
    if kind == "ceildiv":
        return f"mlir_ceildiv<long long>({a}, {b})"
    return f"(long long)((unsigned long long)({a}) - (unsigned long long)mlir_floordiv<long long>({a}, {b}) * (unsigned long long)({b}))"


def _contiguous(shape) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= int(s)
    return list(reversed(out))


_BINARY_FLOAT = ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf")

EMITTERS = {
    "arith.constant": FunctionEmitter._constant,
    "index.constant": FunctionEmitter._constant,
    "arith.negf": FunctionEmitter._negf,
    "index.cmp": FunctionEmitter._cmpi,
    "index.casts": FunctionEmitter._cast,
    "index.castu": FunctionEmitter._cast,
    "index.bool.constant": FunctionEmitter._constant,
    "index.sizeof": lambda self, op: self.out(op, "64LL"),
    "arith.cmpi": FunctionEmitter._cmpi,
    "affine.apply": FunctionEmitter._affine,
    "affine.min": FunctionEmitter._affine,
    "affine.max": FunctionEmitter._affine,
    "arith.cmpf": FunctionEmitter._cmpf,
    "arith.select": FunctionEmitter._select,
    "arith.addui_extended": FunctionEmitter._extended,
    "arith.mulsi_extended": FunctionEmitter._extended,
    "arith.mului_extended": FunctionEmitter._extended,
    "scf.for": FunctionEmitter._for,
    "scf.if": FunctionEmitter._if,
    "scf.while": FunctionEmitter._while,
    "scf.execute_region": FunctionEmitter._execute_region,
    "scf.index_switch": FunctionEmitter._index_switch,
    "scf.parallel": FunctionEmitter._parallel,
    "cf.assert": FunctionEmitter._assert,
    "func.call": FunctionEmitter._call,
    "memref.load": FunctionEmitter._load,
    "memref.store": FunctionEmitter._store,
    "memref.dim": FunctionEmitter._dim,
    "memref.cast": FunctionEmitter._memref_cast,
    "memref.memory_space_cast": FunctionEmitter._memref_cast,
    "memref.assume_alignment": FunctionEmitter._assume_alignment,
    "memref.alloca": FunctionEmitter._alloca,
    "memref.view": FunctionEmitter._view,
    "memref.atomic_rmw": FunctionEmitter._atomic_rmw,
    "gpu.thread_id": FunctionEmitter._ids,
    "gpu.block_id": FunctionEmitter._ids,
    "gpu.block_dim": FunctionEmitter._ids,
    "gpu.grid_dim": FunctionEmitter._ids,
    "gpu.global_id": FunctionEmitter._ids,
    "gpu.cluster_id": FunctionEmitter._ids,
    "gpu.cluster_dim": FunctionEmitter._ids,
    "gpu.cluster_dim_blocks": FunctionEmitter._ids,
    "gpu.cluster_block_id": FunctionEmitter._ids,
    "gpu.lane_id": FunctionEmitter._lane_id,
    "gpu.subgroup_id": FunctionEmitter._subgroup,
    "gpu.num_subgroups": FunctionEmitter._subgroup,
    "gpu.subgroup_size": FunctionEmitter._subgroup,
    "gpu.barrier": FunctionEmitter._barrier,
    "gpu.shuffle": FunctionEmitter._shuffle,
    "gpu.rotate": FunctionEmitter._rotate,
    "gpu.subgroup_broadcast": FunctionEmitter._subgroup_broadcast,
    "gpu.all_reduce": FunctionEmitter._all_reduce,
    "gpu.subgroup_reduce": FunctionEmitter._subgroup_reduce,
    "gpu.printf": FunctionEmitter._printf,
    "gpu.dynamic_shared_memory": FunctionEmitter._dynamic_shared_memory,
}


# --- entry points ---------------------------------------------------------------------------------


def kernel_for_func(program, func: Operation, module: Module | None = None, name: str | None = None) -> KernelSource:
    """CUDA C for a gpu.func kernel."""
    module = module or Module(program)
    name = c_identifier(name or symbol_name(func) or "kernel")
    emitter = FunctionEmitter(module, "kernel", func, name)
    ftype = FuncView(func).function_type
    entry = func.regions[0].blocks[0]
    nparams = len(ftype.inputs) if ftype is not None else len(entry.arguments)
    ks = emitter.emit_kernel(func.regions[0], list(entry.arguments[:nparams]), {})
    ks.source = module.source()
    return ks


def kernel_for_launch(program, launch: Operation, name: str, module: Module | None = None) -> KernelSource:
    """CUDA C for the body of a gpu.launch; the values it captures (program.captured_values) are its parameters."""
    module = module or Module(program)
    captured = list(program.captured_values(launch))
    for v in captured:
        if not (isinstance(v.type, T.MemRefType) or dtype_of(v.type) is not None):
            raise Unsupported(f"a gpu.launch body that uses a value of type {v.type} from outside is not supported by the CUDA code generator", launch)
    if LaunchView(launch).has_clusters:
        raise Unsupported("gpu.launch with clusters is not supported by the CUDA code generator", launch)
    emitter = FunctionEmitter(module, "kernel", launch, c_identifier(name))
    fixed = {}
    for i, d in enumerate("xyz"):
        fixed[i] = f"(long long)blockIdx.{d}"
        fixed[3 + i] = f"(long long)threadIdx.{d}"
        fixed[6 + i] = f"(long long)gridDim.{d}"
        fixed[9 + i] = f"(long long)blockDim.{d}"
    ks = emitter.emit_kernel(launch.regions[0], captured, fixed)
    ks.source = module.source()
    return ks


def kernels_of(program) -> list[tuple[str, Operation]]:
    """Every kernel of a program with a unique C name: gpu.func kernels and gpu.launch bodies, in source order."""
    from gpu_lsp.runner.program import launch_kernel_name

    out: list[tuple[str, Operation]] = []
    names: set[str] = set()

    def unique(base: str) -> str:
        name, k = base, 0
        while name in names:
            name = f"{base}_{k}"
            k += 1
        names.add(name)
        return name

    for op in program.module.walk():
        if op.name == "gpu.func" and op.get_attr("gpu.kernel") is not None:
            base = c_identifier(symbol_name(op) or "kernel")
            if base in names and op.parent_op is not None:
                base = c_identifier(f"{symbol_name(op.parent_op) or 'module'}_{base}")
            out.append((unique(base), op))
        elif op.name == "gpu.launch":
            out.append((unique(c_identifier(launch_kernel_name(op))), op))
    return out


def kernel_source(program, name: str, op: Operation, module: Module | None = None) -> KernelSource:
    if op.name == "gpu.launch":
        return kernel_for_launch(program, op, name, module)
    return kernel_for_func(program, op, module, name)


def emit_program_cuda(text: str, filename: str = "<stdin>") -> tuple[str, list[str]]:
    """One CUDA translation unit with every kernel of a program, and error lines for those it cannot emit."""
    from gpu_lsp.runner.program import Program

    program, errors = Program.load(text)
    locator = Locator(text, filename)
    lines: list[str] = []
    if errors:
        for d in errors:
            line, col = locator.lines.position(d.range.start)
            lines.append(f"{filename}:{line + 1}:{col + 1}: error: {d.message}")
        return "", lines
    module = Module(program)
    for name, op in kernels_of(program):
        try:
            kernel_source(program, name, op, module)
        except (Unsupported, RunError) as exc:
            lines.append(locator.format("error", exc.message, exc.op or op))
    return module.source(), lines
