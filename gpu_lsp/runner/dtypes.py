"""MLIR scalar types as NumPy dtypes, and constants read from attributes."""

from __future__ import annotations

import functools

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import (
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    FloatAttr,
    IntegerAttr,
)


def static_shape(ty: T.Type) -> tuple[int, ...] | None:
    """The sizes of a memref type without dynamic sizes, else None."""
    if not isinstance(ty, T.MemRefType):
        return None
    dims = tuple(d for d in ty.shape if d is not None)
    return dims if len(dims) == len(ty.shape) else None


_INT = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UINT = {1: np.bool_, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_FLOAT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


@functools.cache
def dtype_of(ty: T.Type) -> np.dtype | None:
    """The NumPy dtype holding values of a scalar MLIR type (signless ints as signed), or None."""
    if isinstance(ty, T.IndexType):
        return np.dtype(np.int64)
    if isinstance(ty, T.IntegerType):
        dt = _INT.get(ty.width)
        return None if dt is None else np.dtype(dt)
    if isinstance(ty, T.FloatType):
        dt = _FLOAT.get(ty.name)
        return None if dt is None else np.dtype(dt)
    return None


def unsigned_of(dt: np.dtype) -> np.dtype:
    """The unsigned dtype of the same width (bool stays bool)."""
    if dt == np.bool_:
        return dt
    return np.dtype(_UINT[dt.itemsize * 8])


def signed_of(dt: np.dtype) -> np.dtype:
    if dt == np.bool_:
        return dt
    return np.dtype(_INT[dt.itemsize * 8])






def scalar(value: int | float | bool, dt: np.dtype):
    """A NumPy scalar of dtype `dt`, wrapping integers the way two's complement does."""
    if dt == np.bool_:
        return np.bool_(bool(int(value) & 1) if not isinstance(value, float) else bool(value))
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        v = int(value) & ((1 << bits) - 1)
        if dt.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        return dt.type(v)
    return dt.type(value)


def constant_value(attr: Attribute, ty: T.Type):
    """The value of an `arith.constant` attribute as a NumPy scalar; None if not a scalar constant."""
    dt = dtype_of(ty)
    if dt is None:
        return None
    if isinstance(attr, BoolAttr):
        return scalar(int(attr.value), dt)
    if isinstance(attr, IntegerAttr):
        return scalar(attr.value, dt)
    if isinstance(attr, FloatAttr):
        if attr.spelling and attr.spelling.lower().startswith("0x"):
            bits = int(attr.spelling, 16)
            return np.array([bits], dtype=unsigned_of(dt)).view(dt)[0]
        return dt.type(attr.value)
    return None


def dense_array_values(attr: Attribute | None) -> tuple | None:
    if isinstance(attr, DenseArrayAttr):
        return tuple(attr.values)
    return None

