"""Values for the entry function's arguments, from `gpu-run --arg` texts.

A scalar argument takes a number (`42`, `-1.5`, `0x10`; `true`/`false` for i1). A memref
argument takes a shape with what to fill it with: `1024` or `4x8` (zeros), `4x8:1.5`
(a constant), `4x8:range` (0, 1, 2, ... in row-major order), or a `.npy` file (its shape
must fit the memref type). The memory is host memory, as `memref.alloc` gives.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.views import FuncView
from gpu_lsp.runner.dtypes import dtype_of
from gpu_lsp.runner.errors import RunError
from gpu_lsp.runner.memory import HOST, MemoryPool, MemRef, contiguous_strides

_SHAPE = re.compile(r"^\d+(?:x\d+)*$")


def entry_values(fn: Operation, specs: list[str], pool: MemoryPool) -> list:
    """One value per argument of `fn`; a RunError naming the argument when a text does not fit."""
    ftype = FuncView(fn).function_type
    inputs = list(ftype.inputs) if ftype is not None else []
    name = symbol_name(fn) or "?"
    if len(specs) != len(inputs):
        takes = f"takes arguments ({', '.join(str(t) for t in inputs)})" if inputs else "takes no arguments"
        raise RunError(f"entry function @{name} {takes}; {len(specs)} given with --arg", fn)
    return [_value(fn, k, ty, spec, pool) for k, (ty, spec) in enumerate(zip(inputs, specs))]


def _value(fn: Operation, k: int, ty: T.Type, spec: str, pool: MemoryPool):
    where = f"--arg {spec!r} for argument #{k} ({ty})"
    if isinstance(ty, T.MemRefType):
        return _memref(fn, ty, spec, where, pool)
    dt = dtype_of(ty)
    if dt is None:
        raise RunError(f"{where}: gpu-run cannot pass values of this type", fn)
    text = spec.strip().lower()
    try:
        if dt == np.bool_:
            if text not in ("true", "false", "0", "1"):
                raise ValueError
            return np.bool_(text in ("true", "1"))
        if dt.kind == "f":
            return dt.type(float(text))
        value = int(text, 0)
    except ValueError:
        raise RunError(f"{where}: not a {'boolean' if dt == np.bool_ else 'number'} of that type", fn) from None
    bits = dt.itemsize * 8
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        raise RunError(f"{where}: {value} does not fit in {bits} bits", fn)
    return np.asarray(value & ((1 << bits) - 1)).astype(np.uint64).astype(dt)[()]


def _memref(fn: Operation, ty: T.MemRefType, spec: str, where: str, pool: MemoryPool) -> MemRef:
    dt = dtype_of(ty.element)
    if dt is None or ty.layout is not None:
        raise RunError(f"{where}: gpu-run passes memrefs of scalars with the identity layout only", fn)
    if spec.endswith(".npy"):
        try:
            data = np.load(Path(spec), allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise RunError(f"{where}: cannot read the array: {exc}", fn) from None
        shape = tuple(int(s) for s in data.shape)
    else:
        shape_text, _, fill = spec.partition(":")
        if not _SHAPE.match(shape_text) and not (shape_text == "" and ty.rank == 0):
            raise RunError(f"{where}: expected a shape such as 4x8 (then :VALUE or :range), or a .npy file", fn)
        shape = tuple(int(s) for s in shape_text.split("x")) if shape_text else ()
        data = None
    if len(shape) != ty.rank or any(d is not None and d != s for d, s in zip(ty.shape, shape)):
        raise RunError(f"{where}: shape {'x'.join(map(str, shape)) or 'scalar'} does not fit the memref type", fn)
    count = int(np.prod(shape)) if shape else 1
    buf = pool.allocate(count * dt.itemsize, HOST, None)
    mem = MemRef(buf, dt, 0, shape, contiguous_strides(shape), ty)
    view = mem.data[:count]
    if data is not None:
        view[:] = data.reshape(-1).astype(dt)
    elif fill == "range":
        view[:] = np.arange(count).astype(dt)
    elif fill:
        try:
            view[:] = _value(fn, 0, ty.element, fill, pool)
        except RunError:
            raise RunError(f"{where}: {fill!r} is not a {ty.element} value", fn) from None
    return mem
