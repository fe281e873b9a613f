"""A parsed program as the runner sees it: symbols, kernels, globals and per-kernel facts."""

from __future__ import annotations

import re

import numpy as np

from gpu_lsp.diagnostics.model import Diagnostic, Severity
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import OpaqueAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.core import BlockArgument, Operation, OpResult, Value
from gpu_lsp.ir.effects import view_source, writes
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.parser.api import Chunk, parse
from gpu_lsp.runner.dtypes import dtype_of, static_shape
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.memory import HOST, MemRef, contiguous_strides


def launch_kernel_name(launch: Operation) -> str:
    """`<function>_kernel`: the name an inline gpu.launch body runs under (its function's symbol)."""
    fn = launch.parent_op
    while fn is not None and fn.name not in ("func.func", "gpu.func"):
        fn = fn.parent_op
    return f"{(symbol_name(fn) if fn is not None else None) or 'launch'}_kernel"


class Program:
    """One module: its functions, kernels and globals, found by symbol."""

    def __init__(self, text: str, chunk: Chunk) -> None:
        self.text = text
        self.chunk = chunk
        self.module = chunk.module
        self._globals: dict[int, MemRef] = {}
        self._written: dict[int, set] = {}
        self._captured: dict[int, list[Value]] = {}

    @staticmethod
    def load(text: str) -> tuple[Program, list[Diagnostic]]:
        """Parse and verify; the errors found (the program must not run when there are any)."""
        parsed = parse(text)
        chunk = parsed.chunks[0]
        try:
            from gpu_lsp.analysis import verify_chunk

            diags = verify_chunk(chunk)
        except Exception:  # a checker failing must not stop a valid program from running
            diags = list(chunk.diagnostics)
        errors = [d for d in diags if d.severity >= Severity.ERROR]
        return Program(text, chunk), errors

    # --- symbols -----------------------------------------------------------------------------

    def _table_ops(self, table: Operation) -> list[Operation]:
        if not table.regions or not table.regions[0].blocks:
            return []
        return table.regions[0].blocks[0].operations

    def _find(self, table: Operation, name: str) -> Operation | None:
        for op in self._table_ops(table):
            if symbol_name(op) == name:
                return op
        return None

    def lookup_function(self, from_op: Operation, ref: SymbolRefAttr) -> Operation | None:
        """A function by symbol, from the nearest symbol table outwards."""
        if ref.nested:
            table = self._find(self.module, ref.root)
            for part in ref.nested:
                if table is None:
                    return None
                table = self._find(table, part)
            return table
        op = from_op.parent_op
        while op is not None:
            if op.name in ("gpu.module", "builtin.module"):
                found = self._find(op, ref.root)
                if found is not None:
                    return found
            op = op.parent_op
        return None

    def entry(self, name: str) -> Operation:
        for op in self._table_ops(self.module):
            if symbol_name(op) == name and op.name == "func.func":
                return op
        raise RunError(f"entry function @{name} not found (gpu-run runs a func.func; choose one with --entry)")

    def lookup_kernel(self, op: Operation, ref: SymbolRefAttr) -> Operation:
        if not ref.nested:
            raise RunError(f"'{op.name}' op names kernel {ref}, which is not of the form @module::@kernel", op)
        container = self._find(self.module, ref.root)
        if container is None:
            raise RunError(f"'{op.name}' op refers to @{ref.root}, which is not defined", op)
        if container.name == "gpu.binary":
            raise Unsupported(f"'{op.name}' op launches a kernel of the precompiled gpu.binary @{ref.root}, which the runner cannot execute", op)
        func = self._find(container, ref.nested[0])
        if func is None:
            raise RunError(f"'{op.name}' op refers to kernel {ref}, which is not defined", op)
        if func.name != "gpu.func":
            raise Unsupported(f"'{op.name}' op launches a '{func.name}', which the runner cannot execute as a kernel", op)
        if func.get_attr("gpu.kernel") is None:
            raise RunError(f"'{op.name}' op launches @{ref.nested[0]}, which is not marked as a kernel", op)
        return func

    # --- globals -----------------------------------------------------------------------------

    def global_memref(self, it, op: Operation, ref: SymbolRefAttr) -> MemRef:
        decl = self.lookup_function(op, ref)
        if decl is None or decl.name != "memref.global":
            raise RunError(f"'{op.name}' op refers to {ref}, which is not a memref.global", op)
        cached = self._globals.get(id(decl))
        ty = op.results[0].type
        if cached is None:
            type_attr = decl.get_attr("type")
            gty = type_attr.type if isinstance(type_attr, TypeAttr) else ty
            dims = static_shape(gty)
            if not isinstance(gty, T.MemRefType) or dims is None:
                raise Unsupported(f"memref.global of type {gty} is not supported by the runner", op)
            dt = dtype_of(gty.element)
            if dt is None:
                raise Unsupported(f"memref.global of {gty.element} is not supported by the runner", op)
            count = int(np.prod(dims)) if dims else 1
            buf = it.pool.allocate(count * dt.itemsize, HOST, decl)
            mem = MemRef(buf, dt, 0, dims, contiguous_strides(dims), gty)
            init = decl.get_attr("initial_value")
            if init is not None and not isinstance(init, UnitAttr):  # unit: `= uninitialized`
                mem.data[:count] = dense_values(init, count, dt, op)
            self._globals[id(decl)] = mem
            cached = mem
        return cached.derive(cached.offset, cached.sizes, cached.strides, ty)

    # --- kernel facts ------------------------------------------------------------------------

    def captured_values(self, launch: Operation) -> list[Value]:
        """Values a gpu.launch body uses that are defined outside it."""
        key = id(launch)
        if key not in self._captured:
            seen: dict[int, Value] = {}
            for op in launch.nested():
                for v in op.operands:
                    if not _defined_inside(v, launch):
                        seen.setdefault(id(v), v)
            self._captured[key] = list(seen.values())
        return self._captured[key]

    def written_memrefs(self, kernel) -> set:
        """Kernel argument indices (and captured values) the kernel may write through."""
        key = id(kernel.op)
        if key in self._written:
            return self._written[key]
        entry = kernel.region.blocks[0]
        out: set = set()
        for op in kernel.op.nested():
            for index in writes(op):
                root = _root(op.operands[index])
                if isinstance(root, BlockArgument) and root.owner is entry:
                    out.add(root.index)
                else:
                    out.add(root)
        self._written[key] = out
        return out


def _defined_inside(v: Value, op: Operation) -> bool:
    if isinstance(v, OpResult):
        owner = v.owner
        return owner is op or op.is_ancestor_of(owner)
    if isinstance(v, BlockArgument):
        block_op = v.owner.parent_op
        return block_op is op or (block_op is not None and op.is_ancestor_of(block_op))
    return False


def _root(v: Value) -> Value:
    while isinstance(v, OpResult):
        source = view_source(v.owner)
        if source is None:
            break
        v = source
    return v


_NUMBER = re.compile(r"[-+]?(?:0x[0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan)|true|false")


def dense_values(attr, count: int, dt: np.dtype, op: Operation) -> np.ndarray:
    """The elements of a `dense<...>` initial value (splat or nested list)."""
    text = attr.text if isinstance(attr, OpaqueAttr) else str(attr)
    m = re.match(r"\s*dense<(.*)>", text, re.S)
    if not m:
        raise Unsupported(f"memref.global initial value {text} is not supported by the runner", op)
    body = m.group(1).strip()
    if body.startswith('"'):
        raise Unsupported("memref.global with a hexadecimal dense value is not supported by the runner", op)
    tokens = _NUMBER.findall(body)
    values: list[int | float] = []
    for tok in tokens:
        if tok in ("true", "false"):
            values.append(1 if tok == "true" else 0)
        elif tok.lower().startswith(("0x", "-0x", "+0x")):
            bits = int(tok, 16)
            if dt.kind == "f":  # a float written as its bit pattern
                values.append(np.array([bits], dtype=f"u{dt.itemsize}").view(dt)[0])
            else:
                values.append(bits)
        elif dt.kind == "f":
            values.append(float(tok))
        else:
            values.append(int(float(tok)) if any(c in tok for c in ".eE") else int(tok))
    if len(values) == 1:
        return np.full(count, values[0], dtype=dt)
    if len(values) != count:
        raise RunError(f"memref.global initial value has {len(values)} elements for {count}", op)
    return np.array(values).astype(dt)
