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
    "GPU_SparseDnTensorHandle": T.DialectType("gpu", "sparse.dntensor_handle"),
    "GPU_SparseSpMatHandle": T.DialectType("gpu", "sparse.spmat_handle"),
    "GPU_SparseSpGEMMOpHandle": T.DialectType("gpu", "sparse.spgemmop_handle"),
}


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


_TRANSFORMS: dict[str, Callable[[T.Type], T.Type]] = {
    "same": lambda ty: ty,
    "element": _element,
    "mma_element": _mma_element,
}


def transform_type(name: str, ty: T.Type) -> T.Type:
    """The type TypesMatchWith's transform `name` gives for `ty`."""
    return _TRANSFORMS[name](ty)


def known_transform(name: str) -> bool:
    return name in _TRANSFORMS
