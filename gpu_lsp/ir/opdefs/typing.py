"""Types an op definition implies: buildable constraints (`Index`) and TypesMatchWith transforms."""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_lsp.ir import types as T

# ODS type constraints with exactly one type: a format may leave that type out.
_BUILDABLE: dict[str, T.Type] = {
    "Index": T.INDEX, "I1": T.I1, "I8": T.I8, "I16": T.IntegerType(16), "I32": T.I32, "I64": T.I64,
    "F16": T.F16, "BF16": T.FloatType("bf16"), "F32": T.F32, "F64": T.F64, "NoneType": T.NONE,
    "GPU_AsyncToken": T.TOKEN,
    "Async_TokenType": T.DialectType("async", "token"), "Async_GroupType": T.DialectType("async", "group"),
    "Async_CoroIdType": T.DialectType("async", "coro.id"), "Async_CoroHandleType": T.DialectType("async", "coro.handle"),
    "Async_CoroStateType": T.DialectType("async", "coro.state"),
    "GPU_NamedBarrier": T.DialectType("gpu", "named_barrier"),
    "GPU_SparseDnTensorHandle": T.DialectType("gpu", "sparse.dntensor_handle"),
    "GPU_SparseSpMatHandle": T.DialectType("gpu", "sparse.spmat_handle"),
    "GPU_SparseSpGEMMOpHandle": T.DialectType("gpu", "sparse.spgemmop_handle"),
    "NVGPU_DeviceAsyncToken": T.DialectType("nvgpu", "device.async.token"),
    "NVGPU_MBarrierToken": T.DialectType("nvgpu", "mbarrier.token"),
    "NVGPU_MmaSparseSyncMetadataType": T.VectorType((2,), T.IntegerType(16)),
    "AMDGPU_ConcreteVector<I1, 16>": T.VectorType((16,), T.I1),
    "I<14>": T.IntegerType(14),
}


# ODS integer array attributes, which a format writes as a bare list (`[60, 40]`).
_DENSE_INT_ARRAYS: dict[str, T.Type] = {
    "DenseI8ArrayAttr": T.I8, "DenseI16ArrayAttr": T.IntegerType(16), "DenseI32ArrayAttr": T.I32, "DenseI64ArrayAttr": T.I64,
}


def dense_array_element(constraint: str) -> T.Type | None:
    """The element type of an integer DenseArrayAttr constraint, else None."""
    return _DENSE_INT_ARRAYS.get(constraint)


# Integer attribute constraints and the type their value has (a format writes the value alone).
_INTEGER_ATTRS: dict[str, T.Type] = {
    "I1Attr": T.I1, "I8Attr": T.I8, "I16Attr": T.IntegerType(16), "I32Attr": T.I32, "I64Attr": T.I64,
    "IndexAttr": T.INDEX, "SI32Attr": T.I32, "UI32Attr": T.I32, "SI64Attr": T.I64, "UI64Attr": T.I64,
}


def integer_attr_type(constraint: str) -> T.Type | None:
    """The type of an integer attribute constraint's value (`I32Attr` -> i32), else None."""
    return _INTEGER_ATTRS.get(constraint)


# Dialect types with parameters that a format's `type($x)` writes without their `!dialect.mnemonic`
# (ODS's stripped form, `<memorySpace = ...>`), unless the format says `qualified(...)`.
_STRIPPED: dict[str, tuple[str, str]] = {
    "Async_ValueType": ("async", "value"),
    "NVGPU_MBarrierGroup": ("nvgpu", "mbarrier.group"),
    "NVGPU_TensorMapDescriptor": ("nvgpu", "tensormap.descriptor"),
    "NVGPU_WarpgroupMatrixDescriptor": ("nvgpu", "warpgroup.descriptor"),
    "NVGPU_WarpgroupAccumulator": ("nvgpu", "warpgroup.accumulator"),
    "AMDGPU_TDMBaseType": ("amdgpu", "tdm_base"),
    "AMDGPU_TDMGatherBaseType": ("amdgpu", "tdm_gather_base"),
}


def stripped_type(constraint: str) -> tuple[str, str] | None:
    """(dialect, mnemonic) of a type constraint whose format form leaves out `!dialect.mnemonic`, else None."""
    return _STRIPPED.get(constraint)


def buildable_type(constraint: str) -> T.Type | None:
    """The one type `constraint` allows (`Index` -> index), else None."""
    return _BUILDABLE.get(constraint)


def _element(ty: T.Type) -> T.Type:
    """The element type of a shaped type (memref, tensor, vector, complex), else the type."""
    element = getattr(ty, "element", None)
    return element if isinstance(element, T.Type) else ty


_SCALAR = re.compile(r"(?P<sign>[su]?)i(?P<width>\d+)|(?P<float>bf16|f16|f32|f64)")


def _mma_element(ty: T.Type) -> T.Type:
    """The element type of `!gpu.mma_matrix<16x16xf16, "AOp">` (f16), else unknown."""
    if not (isinstance(ty, T.DialectType) and ty.dialect == "gpu" and ty.name == "mma_matrix" and ty.body):
        return T.UNKNOWN
    found = _SCALAR.fullmatch(ty.body.split(",", 1)[0].rsplit("x", 1)[-1].strip())
    if found is None:
        return T.UNKNOWN
    if found["float"]:
        return T.FloatType(found["float"])
    return T.IntegerType(int(found["width"]), found["sign"])


def _i1_same_shape(ty: T.Type) -> T.Type:
    """`i1` with the shape of a vector or tensor type (upstream's getI1SameShape)."""
    if isinstance(ty, T.VectorType):
        return T.VectorType(ty.shape, T.I1, ty.scalable)
    if isinstance(ty, T.TensorType):
        return T.TensorType(ty.shape, T.I1, ty.encoding)
    if isinstance(ty, T.UnrankedTensorType):
        return T.UnrankedTensorType(T.I1)
    return T.I1


def _element_count(ty: T.Type) -> T.Type | list[T.Type]:
    """One element type per element of a statically shaped type (ShapedTypeMatchesElementCountAndTypes)."""
    shape = getattr(ty, "shape", None)
    if not isinstance(shape, tuple) or None in shape:
        return T.UNKNOWN
    count = 1
    for size in shape:
        count *= size
    return [_element(ty)] * count


def _function_part(part: str) -> Callable[[T.Type], list[T.Type]]:
    def types(ty: T.Type) -> list[T.Type]:
        return list(getattr(ty, part)) if isinstance(ty, T.FunctionType) else []

    return types


# A transform gives one type (each value of the target takes it) or a list (one per value).
_TRANSFORMS: dict[str, Callable[[T.Type], T.Type | list[T.Type]]] = {
    "same": lambda ty: ty,
    "element": _element,
    "i1_same_shape": _i1_same_shape,
    "function_inputs": _function_part("inputs"),
    "function_results": _function_part("results"),
    "mma_element": _mma_element,
    "element_count": _element_count,
}


def transform_type(name: str, ty: T.Type) -> T.Type | list[T.Type]:
    """The type (or, for a variadic target, the types) TypesMatchWith's transform `name` gives for `ty`."""
    return _TRANSFORMS[name](ty)


def known_transform(name: str) -> bool:
    return name in _TRANSFORMS
