"""ODS type and attribute constraints by name: what each admits, and upstream's summary of it.

A declaration names its constraints as ODS does (`AnyMemRef`, `MemRefOf<[F32]>`,
`ConfinedAttr<I64Attr, [IntPositive]>`); `type_constraint` and `attr_constraint` give the
predicate and the summary upstream's verifier prints (`operand #0 must be <summary>, but got
'f32'`). A name not in these tables is not checked (None): a missing entry may let an error
through, never report a false one. Values of unknown type and unparsed attributes pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gpu_lsp.ir import attributes as A
from gpu_lsp.ir import types as T
from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.enums import ENUMS, EnumDef
from gpu_lsp.ir.flags import FLAGS, FlagsDef
from gpu_lsp.ir.opdefs.typing import transform_type


@dataclass(frozen=True)
class TypeConstraint:
    """A type constraint: upstream's summary and whether a type satisfies it."""

    summary: str
    holds: Callable[[T.Type], bool]


@dataclass(frozen=True)
class AttrConstraint:
    """An attribute constraint: upstream's summary and whether an attribute satisfies it."""

    summary: str
    holds: Callable[[A.Attribute], bool]


# --- types ----------------------------------------------------------------------------------------

_SHAPED = (T.VectorType, T.TensorType, T.UnrankedTensorType, T.MemRefType, T.UnrankedMemRefType)


def _signless(ty: T.Type, width: int | None = None) -> bool:
    return isinstance(ty, T.IntegerType) and not ty.signedness and (width is None or ty.width == width)


def _float(name: str) -> Callable[[T.Type], bool]:
    return lambda ty: isinstance(ty, T.FloatType) and ty.name == name


def _integer(width: int, signedness: str) -> Callable[[T.Type], bool]:
    return lambda ty: isinstance(ty, T.IntegerType) and ty.width == width and ty.signedness == signedness


def _value_semantics(ty: T.Type) -> bool:
    return isinstance(ty, (T.VectorType, T.TensorType, T.UnrankedTensorType))


def _vector_any_rank(ty: T.Type) -> bool:
    return isinstance(ty, T.VectorType)


def _vector(ty: T.Type) -> bool:
    return isinstance(ty, T.VectorType) and len(ty.shape) > 0


def _fixed_vector(ty: T.Type) -> bool:
    return _vector(ty) and not any(getattr(ty, "scalable", ()))


def _fixed_vector_any_rank(ty: T.Type) -> bool:
    return isinstance(ty, T.VectorType) and not any(ty.scalable)


def _tensor(ty: T.Type) -> bool:
    return isinstance(ty, (T.TensorType, T.UnrankedTensorType))


def _like(scalar: Callable[[T.Type], bool], container: Callable[[T.Type], bool]) -> Callable[[T.Type], bool]:
    """`TypeOrContainer`: the scalar, or a container (of `container`'s kind) of it."""
    return lambda ty: scalar(ty) or (container(ty) and scalar(getattr(ty, "element", T.UNKNOWN)))


def _tensor_or_memref(ty: T.Type) -> bool:
    return isinstance(ty, (T.TensorType, T.UnrankedTensorType, T.MemRefType, T.UnrankedMemRefType))


def _rank(ty: T.Type) -> int | None:
    shape = getattr(ty, "shape", None)
    return len(shape) if isinstance(shape, tuple) else None


_INDEX = TypeConstraint("index", lambda ty: isinstance(ty, T.IndexType))
_ANY_SIGNLESS = TypeConstraint("signless integer", lambda ty: _signless(ty))
_ANY_FLOAT = TypeConstraint("floating-point", lambda ty: isinstance(ty, T.FloatType))
_SIGNLESS_OR_INDEX = TypeConstraint("signless integer or index", lambda ty: _signless(ty) or isinstance(ty, T.IndexType))

TYPES: dict[str, TypeConstraint] = {
    "AnyType": TypeConstraint("any type", lambda ty: True),
    "Index": _INDEX,
    "NoneType": TypeConstraint("none type", lambda ty: isinstance(ty, T.NoneType)),
    "AnyInteger": TypeConstraint("integer", lambda ty: isinstance(ty, T.IntegerType)),
    "AnySignlessInteger": _ANY_SIGNLESS,
    "AnySignlessIntegerOrIndex": _SIGNLESS_OR_INDEX,
    "AnyFloat": _ANY_FLOAT,
    "F16": TypeConstraint("16-bit float", _float("f16")),
    "F32": TypeConstraint("32-bit float", _float("f32")),
    "F64": TypeConstraint("64-bit float", _float("f64")),
    "BF16": TypeConstraint("bfloat16 type", _float("bf16")),
    "FunctionType": TypeConstraint("function type", lambda ty: isinstance(ty, T.FunctionType)),
    "FloatLike": TypeConstraint("floating-point-like", _like(lambda ty: isinstance(ty, T.FloatType), _value_semantics)),
    "BoolLike": TypeConstraint("bool-like", _like(lambda ty: _signless(ty, 1), _value_semantics)),
    "SignlessIntegerOrIndexLike": TypeConstraint(
        "signless-non-zero-bitwidth-integer-like",
        _like(lambda ty: (_signless(ty) and getattr(ty, "width", 0) > 0) or isinstance(ty, T.IndexType), _value_semantics),
    ),
    "SignlessFixedWidthIntegerLike": TypeConstraint(
        "signless-fixed-width-integer-like", _like(lambda ty: _signless(ty), lambda ty: _vector_any_rank(ty) or _tensor(ty))
    ),
    "AnyMemRef": TypeConstraint("memref of any type values", lambda ty: isinstance(ty, T.MemRefType)),
    "AnyRankedOrUnrankedMemRef": TypeConstraint(
        "ranked or unranked memref of any type values", lambda ty: isinstance(ty, (T.MemRefType, T.UnrankedMemRefType))
    ),
    "AnyUnrankedMemRef": TypeConstraint("unranked.memref of any type values", lambda ty: isinstance(ty, T.UnrankedMemRefType)),
    "AnyNon0RankedOrUnrankedMemRef": TypeConstraint(
        "unranked.memref of any type values or non-0-ranked.memref of any type values",
        lambda ty: isinstance(ty, T.UnrankedMemRefType) or (isinstance(ty, T.MemRefType) and ty.rank > 0),
    ),
    "AnyStaticShapeMemRef": TypeConstraint(
        "statically shaped memref of any type values", lambda ty: isinstance(ty, T.MemRefType) and None not in ty.shape
    ),
    "AnyStridedMemRef": TypeConstraint("strided memref of any type values", lambda ty: isinstance(ty, T.MemRefType)),
    "AnyVectorOfNonZeroRank": TypeConstraint("vector of any type values", _vector),
    "AnyVectorOfAnyRank": TypeConstraint("vector of any type values", _vector_any_rank),
    # Any type but a zero-width integer (`i0`): what vector.reduction reduces is a vector of it. The
    # summary is upstream's (the oracle's message); the name is ours, upstream's is unconfirmed.
    "AnyNonZeroBitwidthType": TypeConstraint(
        "non-zero-bitwidth type", lambda ty: not (isinstance(ty, T.IntegerType) and ty.width == 0)
    ),
    "AnyFixedVectorOfAnyRank": TypeConstraint("fixed-length vector of any type values", _fixed_vector_any_rank),
    "AnyTensor": TypeConstraint("tensor of any type values", _tensor),
    "AnyRankedTensor": TypeConstraint("ranked tensor of any type values", lambda ty: isinstance(ty, T.TensorType)),
    "AnyNon0RankedOrUnrankedTensor": TypeConstraint(
        "non-0-ranked or unranked tensor",
        lambda ty: isinstance(ty, T.UnrankedTensorType) or (isinstance(ty, T.TensorType) and len(ty.shape) > 0),
    ),
    "AnyStaticShapeTensor": TypeConstraint(
        "statically shaped tensor of any type values", lambda ty: isinstance(ty, T.TensorType) and None not in ty.shape
    ),
    "AnyShaped": TypeConstraint("shaped of any type values", lambda ty: isinstance(ty, _SHAPED)),
    "GPU_AsyncToken": TypeConstraint("async token type", lambda ty: ty == T.TOKEN),
}
TYPES["AnyNonZeroRankedOrUnrankedMemRef"] = TYPES["AnyNon0RankedOrUnrankedMemRef"]  # its older name
for _width in (1, 8, 16, 32, 64, 128):
    TYPES[f"I{_width}"] = TypeConstraint(f"{_width}-bit signless integer", functools.partial(_signless, width=_width))
    TYPES[f"SI{_width}"] = TypeConstraint(f"{_width}-bit signed integer", _integer(_width, "s"))
    TYPES[f"UI{_width}"] = TypeConstraint(f"{_width}-bit unsigned integer", _integer(_width, "u"))
def _any_of(allowed: Sequence[TypeConstraint], summary: str = "") -> TypeConstraint:
    """`AnyTypeOf<[...]>`: its summary joins the alternatives' with ` or `."""
    tests = tuple(c.holds for c in allowed)
    return TypeConstraint(summary or " or ".join(c.summary for c in allowed), lambda ty: any(t(ty) for t in tests))


_LLVM_FLOATS = frozenset(("f16", "bf16", "f32", "f64", "f80", "f128"))


def _llvm_compatible(ty: T.Type) -> bool:
    """LLVM::isCompatibleType: signless integers, the IEEE-like floats LLVM has, vectors of them, LLVM types."""
    if isinstance(ty, T.VectorType):
        return _llvm_compatible(ty.element)
    if isinstance(ty, T.DialectType):
        return ty.dialect in ("llvm", "ptr")
    return _signless(ty) or (isinstance(ty, T.FloatType) and ty.name in _LLVM_FLOATS)


TYPES["LLVM_Type"] = TypeConstraint("LLVM dialect-compatible type", _llvm_compatible)

# What GPUOps.td names these unions.
TYPES["LaunchIndx"] = _any_of([_INDEX, TYPES["I32"], TYPES["I64"]])
TYPES["AnyIntegerOrFloat"] = TypeConstraint("Integer or Float", lambda ty: _signless(ty) or isinstance(ty, T.FloatType))
TYPES["AnyIntegerOrFloatOr1DVector"] = TypeConstraint(
    "Integer or Float or vector of Integer or Float values of ranks 1",
    lambda ty: TYPES["AnyIntegerOrFloat"].holds(ty)
    or (isinstance(ty, T.VectorType) and len(ty.shape) == 1 and TYPES["AnyIntegerOrFloat"].holds(ty.element)),
)
_MMA_ELEMENT = _any_of([TYPES[n] for n in ("I8", "I32", "F16", "F32", "F64")])
# The words of the corpus's invalid.mlir; the oracle's newer MLIR, which also accepts f64 (as
# here), adds "or 64-bit float" to both lists.
TYPES["GPU_MMAMemRef"] = TypeConstraint(
    "memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or vector of "
    "8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float values of ranks 1 values",
    lambda ty: isinstance(ty, T.MemRefType)
    and (
        _MMA_ELEMENT.holds(ty.element)
        or (isinstance(ty.element, T.VectorType) and len(ty.element.shape) == 1 and _MMA_ELEMENT.holds(ty.element.element))
    ),
)


def _container(kind: Callable[[T.Type], bool], descr: str, allowed: Sequence[TypeConstraint]) -> TypeConstraint:
    """`ShapedContainerType`: `descr of <allowed> values`, the element type checked too."""
    element = _any_of(allowed)
    return TypeConstraint(
        f"{descr} of {element.summary} values", lambda ty: kind(ty) and element.holds(getattr(ty, "element", T.UNKNOWN))
    )


def _ranks(ranks: Sequence[int], base: TypeConstraint) -> Callable[[T.Type], bool]:
    return lambda ty: base.holds(ty) and _rank(ty) in ranks


def _rank_prefix(ranks: Sequence[int]) -> str:
    return "/".join(f"{r}D" for r in ranks)


_CONTAINERS: dict[str, tuple[Callable[[T.Type], bool], str]] = {
    "MemRefOf": (lambda ty: isinstance(ty, T.MemRefType), "memref"),
    "UnrankedMemRefOf": (lambda ty: isinstance(ty, T.UnrankedMemRefType), "unranked.memref"),
    "VectorOfNonZeroRankOf": (_vector, "vector"),
    "VectorOfAnyRankOf": (_vector_any_rank, "vector"),
    "FixedVectorOfNonZeroRankOf": (_fixed_vector, "fixed-length vector"),
    "FixedVectorOfAnyRank": (_fixed_vector_any_rank, "fixed-length vector"),
    "TensorOf": (_tensor, "tensor"),
    "RankedTensorOf": (lambda ty: isinstance(ty, T.TensorType), "ranked tensor"),
}


def _ints(text: str) -> list[int] | None:
    try:
        return [int(x) for x in _items(text)]
    except ValueError:
        return None


def _parametric_type(head: str, args: list[str]) -> TypeConstraint | None:
    """The constraint a parametric ODS type class builds (`MemRefRankOf<[F32], [2]>`), if known."""
    if head == "I" and len(args) == 1 and args[0].isdigit():
        width = int(args[0])
        return TypeConstraint(f"{width}-bit signless integer", functools.partial(_signless, width=width))
    if head == "AnyTypeOf" and args:
        allowed = _type_list(args[0])
        summary = args[1].strip('"') if len(args) > 1 else ""
        return _any_of(allowed, summary) if allowed is not None else None
    if head in _CONTAINERS and len(args) == 1:
        allowed = _type_list(args[0])
        return _container(*_CONTAINERS[head], allowed) if allowed is not None else None
    if head in ("MemRefRankOf", "TensorRankOf") and len(args) == 2:
        allowed, ranks = _type_list(args[0]), _ints(args[1])
        if allowed is None or ranks is None:
            return None
        base = _parametric_type("MemRefOf" if head == "MemRefRankOf" else "RankedTensorOf", [args[0]])
        assert base is not None
        kind = "memref" if head == "MemRefRankOf" else "tensor"
        element = _any_of(allowed).summary
        return TypeConstraint(f"{_rank_prefix(ranks)} {kind} of {element} values", _ranks(ranks, base))
    if head == "StaticShapeMemRefOf" and len(args) == 1:
        base = _parametric_type("MemRefOf", args)
        if base is None:
            return None
        shaped = base.holds
        return TypeConstraint(f"statically shaped {base.summary}", lambda ty: shaped(ty) and None not in getattr(ty, "shape", ()))
    if head == "MMAMatrixOf" and len(args) == 1:
        allowed = _type_list(args[0])
        return _mma_matrix_of(allowed) if allowed is not None else None
    if head == "TensorOrMemRef" and len(args) == 1:
        allowed = _type_list(args[0])
        return _container(_tensor_or_memref, "Tensor or MemRef", allowed) if allowed is not None else None
    if head == "AnyStridedMemRefOfRank" and len(args) == 1 and args[0].isdigit():
        rank = int(args[0])
        return TypeConstraint(
            f"strided memref of any type values of rank {rank}", lambda ty: isinstance(ty, T.MemRefType) and ty.rank == rank
        )
    if head in ("VectorOfRankAndType", "VectorOfLengthAndType") and len(args) == 2:
        numbers, allowed = _ints(args[0]), _type_list(args[1])
        if numbers is None or allowed is None:
            return None
        vector = _container(_vector, "vector", allowed)
        if head == "VectorOfRankAndType":
            suffix = " of ranks " + "/".join(map(str, numbers))
            return TypeConstraint(vector.summary + suffix, lambda ty: vector.holds(ty) and _rank(ty) in numbers)
        suffix = " of length " + "/".join(map(str, numbers))
        return TypeConstraint(vector.summary + suffix, lambda ty: vector.holds(ty) and _count(ty) in numbers)
    return None


def _count(ty: T.Type) -> int:
    count = 1
    for size in getattr(ty, "shape", ()):
        count *= size
    return count


def _items(text: str) -> list[str]:
    """`[A, B<x, y>]` -> ['A', 'B<x, y>']."""
    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        return [inner]
    return split_commas(inner[1:-1], drop_empty=True)


def _type_list(text: str) -> list[TypeConstraint] | None:
    found = [type_constraint(item) for item in _items(text)]
    return None if any(c is None for c in found) else found  # type: ignore[return-value]


_CALL = re.compile(r"(?P<head>[A-Za-z_]\w*)\s*<(?P<args>.*)>\Z", re.S)


def _call(text: str) -> tuple[str, list[str]]:
    found = _CALL.match(text.strip())
    if found is None:
        return text.strip(), []
    return found["head"], split_commas(found["args"], drop_empty=True)


C = TypeVar("C", TypeConstraint, AttrConstraint)


def _named(table: dict[str, C], name: str, build: Callable[[str, list[str]], C | None]) -> C | None:
    """A constraint of `table` by name, else the one the parametric class `Head<args>` builds."""
    known = table.get(name.strip())
    if known is not None:
        return known
    head, args = _call(name)
    return build(head, args) if args else None


@functools.cache
def type_constraint(name: str) -> TypeConstraint | None:
    """The ODS type constraint `name` (`AnyMemRef`, `MemRefOf<[F32]>`), or None when not known."""
    return _named(TYPES, name, _parametric_type)


# What XeGPUTypes.td names (XeGPU_ScalarType is its element types, in its order).
_XEGPU_SCALARS = [
    *(TypeConstraint(f"{w}-bit signless integer", functools.partial(_signless, width=w)) for w in (1, 4, 8, 16, 32, 64)),
    *(TYPES[f"{sign}I{w}"] for sign in ("S", "U") for w in (1, 8, 16, 32, 64)),
    *(TypeConstraint(f"{name} type", _float(name)) for name in ("f4E2M1FN", "f8E4M3FN", "f8E5M2", "f8E8M0FNU")),
    *(TYPES[n] for n in ("F16", "F32", "F64", "BF16")),
    TypeConstraint("tf32 type", _float("tf32")),
]


def _xegpu_vector(descr: str, kind: Callable[[T.Type], bool], ranks: Sequence[int]) -> TypeConstraint:
    vector = _container(kind, descr, _XEGPU_SCALARS)
    suffix = " of ranks " + "/".join(map(str, ranks))
    return TypeConstraint(vector.summary + suffix, lambda ty: vector.holds(ty) and _rank(ty) in ranks)


_XEGPU_MEMREF = _container(lambda ty: isinstance(ty, T.MemRefType) and ty.rank > 0, "non-0-ranked.memref", _XEGPU_SCALARS)
_XEGPU_MEMREF_1D = _container(lambda ty: isinstance(ty, T.MemRefType) and ty.rank == 1, "1D memref", _XEGPU_SCALARS)
TYPES["XeGPU_TensorDesc"] = TypeConstraint(
    "TensorDesc describing regions of interested data.",
    lambda ty: isinstance(ty, T.DialectType) and (ty.dialect, ty.name) == ("xegpu", "tensor_desc"),
)
TYPES["XeGPU_ScalarType"] = _any_of(_XEGPU_SCALARS)
TYPES["XeGPU_PointerType"] = _any_of([TYPES[n] for n in ("UI64", "UI32", "I64", "I32")])
TYPES["XeGPU_BaseAddrType"] = _any_of([_XEGPU_MEMREF, TYPES["XeGPU_PointerType"]])
TYPES["XeGPU_GatherScatterBaseAddrType"] = _any_of([_XEGPU_MEMREF_1D, TYPES["XeGPU_PointerType"]])
TYPES["XeGPU_OffsetType"] = _container(_fixed_vector, "fixed-length vector", [_INDEX])
TYPES["XeGPU_MaskType"] = _container(_fixed_vector, "fixed-length vector", [TYPES["I1"]])
TYPES["XeGPU_ValueType"] = _xegpu_vector("vector", _vector, range(1, 9))
TYPES["XeGPU_DpasOprType"] = _xegpu_vector("fixed-length vector", _fixed_vector, (1, 2, 3))
TYPES["XeGPU_DpasResType"] = _xegpu_vector("fixed-length vector", _fixed_vector, (1, 2))



def _dialect_type(dialect: str, name: str, summary: str) -> TypeConstraint:
    """A type of a dialect, `!dialect.name<...>`: the constraint its TypeDef is."""
    return TypeConstraint(summary, lambda ty: isinstance(ty, T.DialectType) and (ty.dialect, ty.name) == (dialect, name))


# Dialect types by their ODS names, with the summaries upstream's verifier prints.
for _name, (_dialect, _mnemonic, _summary) in {
    "GPU_SparseDnTensorHandle": ("gpu", "sparse.dntensor_handle", "dense tensor handle type"),
    "GPU_SparseSpMatHandle": ("gpu", "sparse.spmat_handle", "sparse matrix handle type"),
    "GPU_SparseSpGEMMOpHandle": ("gpu", "sparse.spgemmop_handle", "SpGEMM operation handle type"),
    "GPU_MMAMatrix": ("gpu", "mma_matrix", "MMAMatrix type"),
    "NVGPU_MBarrierGroup": ("nvgpu", "mbarrier.group", "mbarrier barrier type"),
    "NVGPU_TensorMapDescriptor": ("nvgpu", "tensormap.descriptor", "TensorMap descriptor"),
    "NVGPU_DeviceAsyncToken": ("nvgpu", "device.async.token", "device async token type"),
    "NVGPU_WarpgroupMatrixDescriptor": ("nvgpu", "warpgroup.descriptor", "Warpgroup matrix descriptor type"),
    "Async_TokenType": ("async", "token", "async token type"),
    "Async_GroupType": ("async", "group", "async group type"),
    "Async_ValueType": ("async", "value", "async value type"),
    "Async_CoroIdType": ("async", "coro.id", "switched-resume coroutine identifier"),
    "Async_CoroStateType": ("async", "coro.state", "saved coroutine state"),
    "Async_CoroHandleType": ("async", "coro.handle", "coroutine handle"),
    # Upstream's TypeDefs of these two have no summary: its message reads `must be , but got '...'`.
    "NVGPU_MBarrierToken": ("nvgpu", "mbarrier.token", ""),
    "NVGPU_WarpgroupAccumulator": ("nvgpu", "warpgroup.accumulator", ""),
    "AMDGPU_DsBarrierStateType": ("amdgpu", "ds_barrier_state", "State of an in-LDS barrier."),
    "AMDGPU_TDMDescriptorType": ("amdgpu", "tdm_descriptor", "Descriptors used in tensor store/load operations."),
    "AMDGPU_TDMBaseType": ("amdgpu", "tdm_base", "Pair of base addresses that move data between LDS and global storage."),
    "AMDGPU_TDMGatherBaseType": ("amdgpu", "tdm_gather_base", "Pair of base addresses that move data between LDS and global storage."),
}.items():
    TYPES[_name] = _dialect_type(_dialect, _mnemonic, _summary)
TYPES["Async_AnyValueOrTokenType"] = _any_of([TYPES["Async_ValueType"], TYPES["Async_TokenType"]])
TYPES["Async_AnyAsyncType"] = _any_of([TYPES[n] for n in ("Async_ValueType", "Async_TokenType", "Async_GroupType")])
TYPES["AnyNonZeroRankedOrUnrankedTensor"] = TYPES["AnyNon0RankedOrUnrankedTensor"]  # its older name
TYPES["NVGPU_MmaSparseSyncMetadataType"] = TypeConstraint(
    "fixed-length vector of 16-bit signless integer values of length 2",
    lambda ty: _fixed_vector(ty) and _signless(getattr(ty, "element", T.UNKNOWN), 16) and _count(ty) == 2,
)
# VectorOps.td's 1-D vectors for vector.scalable.insert/extract; upstream's summary lacks its head.
TYPES["VectorOfRank<[1]>"] = TypeConstraint(" of ranks 1", lambda ty: _vector(ty) and _rank(ty) == 1)
TYPES["ScalableVectorOfRank<[1]>"] = TypeConstraint(
    " of ranks 1", lambda ty: isinstance(ty, T.VectorType) and _rank(ty) == 1 and any(ty.scalable)
)
TYPES["IndexCastTypeConstraint"] = TypeConstraint(
    "signless-non-zero-bitwidth-integer-like or memref of signless-integer",
    lambda ty: TYPES["SignlessIntegerOrIndexLike"].holds(ty)
    or (isinstance(ty, T.MemRefType) and (_signless(ty.element) or isinstance(ty.element, T.IndexType))),
)


def _bitcast_scalar(ty: T.Type) -> bool:
    return (_signless(ty) and getattr(ty, "width", 0) > 0) or isinstance(ty, T.FloatType)


TYPES["BitcastTypeConstraint"] = TypeConstraint(
    "non-zero-bitwidth-signless-integer-or-float-like or memref of non-zero-bitwidth signless integer or float",
    lambda ty: _like(_bitcast_scalar, _value_semantics)(ty) or (isinstance(ty, T.MemRefType) and _bitcast_scalar(ty.element)),
)


def _mma_matrix_of(allowed: Sequence[TypeConstraint]) -> TypeConstraint:
    """`MMAMatrixOf<[...]>`: a `!gpu.mma_matrix` of one of the element types."""
    element = _any_of(allowed)

    def holds(ty: T.Type) -> bool:
        of = transform_type("mma_element", ty)
        return TYPES["GPU_MMAMatrix"].holds(ty) and isinstance(of, T.Type) and (isinstance(of, T.UnknownType) or element.holds(of))

    return TypeConstraint(f"gpu.mma_matrix of {element.summary} values", holds)


# --- attributes -----------------------------------------------------------------------------------


def _int_attr(ty: T.Type) -> Callable[[A.Attribute], bool]:
    return lambda attr: isinstance(attr, A.IntegerAttr) and attr.type == ty


def _dense(element: T.Type) -> Callable[[A.Attribute], bool]:
    return lambda attr: isinstance(attr, A.DenseArrayAttr) and attr.element == element


ATTRIBUTES: dict[str, AttrConstraint] = {
    "AnyAttr": AttrConstraint("any attribute", lambda attr: True),
    "I1Attr": AttrConstraint("1-bit signless integer attribute", lambda a: isinstance(a, A.BoolAttr) or _int_attr(T.I1)(a)),
    "I8Attr": AttrConstraint("8-bit signless integer attribute", _int_attr(T.I8)),
    "I16Attr": AttrConstraint("16-bit signless integer attribute", _int_attr(T.IntegerType(16))),
    "I32Attr": AttrConstraint("32-bit signless integer attribute", _int_attr(T.I32)),
    "I64Attr": AttrConstraint("64-bit signless integer attribute", _int_attr(T.I64)),
    "IndexAttr": AttrConstraint("index attribute", _int_attr(T.INDEX)),
    "F32Attr": AttrConstraint("32-bit float attribute", lambda a: isinstance(a, A.FloatAttr) and a.type == T.F32),
    "BoolAttr": AttrConstraint("bool attribute", lambda a: isinstance(a, A.BoolAttr) or _int_attr(T.I1)(a)),
    "StrAttr": AttrConstraint("string attribute", lambda a: isinstance(a, A.StringAttr)),
    "SymbolNameAttr": AttrConstraint("string attribute", lambda a: isinstance(a, A.StringAttr)),
    "UnitAttr": AttrConstraint("unit attribute", lambda a: isinstance(a, A.UnitAttr)),
    "TypeAttr": AttrConstraint("any type attribute", lambda a: isinstance(a, A.TypeAttr)),
    "SymbolRefAttr": AttrConstraint("symbol reference attribute", lambda a: isinstance(a, A.SymbolRefAttr)),
    "FlatSymbolRefAttr": AttrConstraint(
        "flat symbol reference attribute", lambda a: isinstance(a, A.SymbolRefAttr) and not a.nested
    ),
    "DenseI8ArrayAttr": AttrConstraint("i8 dense array attribute", _dense(T.I8)),
    "DenseI16ArrayAttr": AttrConstraint("i16 dense array attribute", _dense(T.IntegerType(16))),
    "DenseI32ArrayAttr": AttrConstraint("i32 dense array attribute", _dense(T.I32)),
    "DenseI64ArrayAttr": AttrConstraint("i64 dense array attribute", _dense(T.I64)),
    "DictArrayAttr": AttrConstraint(
        "Array of dictionary attributes", lambda a: isinstance(a, A.ArrayAttr) and all(isinstance(e, A.DictAttr) for e in a.elements)
    ),
    "I64ArrayAttr": AttrConstraint(
        "64-bit integer array attribute",
        lambda a: isinstance(a, A.ArrayAttr) and all(_int_attr(T.I64)(e) for e in a.elements),
    ),
}


def _is_target(attr: A.Attribute) -> bool:
    """An attribute that may implement a GPU interface: a dialect attribute or an alias of one."""
    return isinstance(attr, A.DialectAttr) or (isinstance(attr, A.OpaqueAttr) and attr.text.startswith("#"))


def _gpu_target(attr: A.Attribute) -> bool:
    """A GPU target (`#nvvm.target`, `#rocdl.target`, ...): no `#gpu.*` attribute is one."""
    return _is_target(attr) and not (isinstance(attr, A.DialectAttr) and attr.dialect == "gpu")


def _gpu_object(attr: A.Attribute) -> bool:
    return isinstance(attr, A.DialectAttr) and attr.dialect == "gpu" and attr.name == "object"


def _non_empty_array_of(test: Callable[[A.Attribute], bool]) -> Callable[[A.Attribute], bool]:
    return lambda attr: isinstance(attr, A.ArrayAttr) and bool(attr.elements) and all(test(e) for e in attr.elements)


# GPUOps.td's attributes of kernel containers.
ATTRIBUTES["GPUTargetArrayAttr"] = AttrConstraint(
    "array of GPU target attributes with at least 1 elements", _non_empty_array_of(_gpu_target)
)
ATTRIBUTES["GPUObjectArrayAttr"] = AttrConstraint(
    "an array of GPU object attributes with at least 1 elements", _non_empty_array_of(_gpu_object)
)
ATTRIBUTES["OffloadingTranslationAttr"] = AttrConstraint(
    "any attribute with the `OffloadingTranslationAttrTrait` trait.", _is_target
)
ATTRIBUTES["ArrayAttr"] = AttrConstraint("array attribute", lambda a: isinstance(a, A.ArrayAttr))
ATTRIBUTES["TypeAttrOf<FunctionType>"] = AttrConstraint(
    "type attribute of function type", lambda a: isinstance(a, A.TypeAttr) and isinstance(a.type, T.FunctionType)
)
ATTRIBUTES["GPU_AddressSpaceAttrArray"] = AttrConstraint("GPU Address Space array", lambda a: isinstance(a, A.ArrayAttr))
ATTRIBUTES["MemRefTypeAttr"] = AttrConstraint(
    "memref type attribute", lambda a: isinstance(a, A.TypeAttr) and isinstance(a.type, T.MemRefType)
)
ATTRIBUTES["AnyIntElementsAttr"] = AttrConstraint(
    "integer elements attribute",
    lambda a: isinstance(a, A.OpaqueAttr)
    and (a.kind != "dense" or isinstance(getattr(a.type, "element", None), (T.IntegerType, T.IndexType))),
)
ATTRIBUTES["IndexListArrayAttr"] = AttrConstraint(
    "Array of 64-bit integer array attributes",
    lambda a: isinstance(a, A.ArrayAttr) and all(ATTRIBUTES["I64ArrayAttr"].holds(e) for e in a.elements),
)
ATTRIBUTES["GPU_OptionalDimSizeHintAttr"] = AttrConstraint(
    "i32 dense array attribute with 3 elements (if present) and all elements >= 1",
    lambda a: isinstance(a, A.DenseArrayAttr) and a.element == T.I32 and len(a.values) == 3 and all(v >= 1 for v in a.values),
)
ATTRIBUTES["Vector_CombiningKindAttr"] = AttrConstraint(
    "Kind of combining function for contractions and reductions",
    lambda a: isinstance(a, A.OpaqueAttr) or (isinstance(a, A.DialectAttr) and (a.dialect, a.name) == ("vector", "kind")),
)

# What upstream's enum attributes are called in its messages: a dialect enum by its summary
# (EnumDef.description where it is known); an integer enum lists its values.
_ENUM_SUMMARIES = {
    "GPU_DimensionAttr": "a dimension, either 'x', 'y', or 'z'",
    "GPU_ShuffleModeAttr": "Indexing modes supported by gpu.shuffle.",
    "GPU_AllReduceOperationAttr": "built-in reduction operations supported by gpu.allreduce.",
    "GPU_BroadcastTypeAttr": "a lane to broadcast from",
    "MMAElementWiseAttr": "elementwise operation to apply to mma matrix",
    "IndexCmpPredicateAttr": "index comparison predicate kind",
    "GPU_TransposeModeAttr": "transpose mode of sparse matrix supported by sparse tensor ops",
    "GPU_Prune2To4SpMatFlagAttr": "pruning strategy for 2:4 sparse matrix",
    "GPU_SpGEMMWorkEstimationOrComputeKindAttr": "choose whether spgemm_work_estimation_or_compute does work estimation or compute",
    "RcpRoundingModeAttr": "Rounding mode of rcp",
}
_FLAG_SUMMARIES = {
    "Arith_FastMathAttr": "Floating point fast math flags",
    "Arith_IntegerOverflowAttr": "Integer overflow arith flags",
    "AMDGPU_SchedBarrierOpOptAttr": "The possible options for scheduling barriers",
}


def _enum_attr(enum: EnumDef) -> AttrConstraint | None:
    """An enum attribute: one of its cases (an alias is not looked into)."""
    if enum.mnemonic:
        summary = _ENUM_SUMMARIES.get(enum.constraint, enum.description)
        return AttrConstraint(summary, lambda a: isinstance(a, A.OpaqueAttr) or enum.case(a) is not None) if summary else None
    width = getattr(enum.type, "width", 64)
    summary = f"allowed {width}-bit signless integer cases: " + ", ".join(str(i) for i in range(len(enum.cases)))
    return AttrConstraint(summary, lambda a: _int_attr(enum.type)(a) and enum.case(a) is not None)


def _flags_attr(flags: FlagsDef, summary: str) -> AttrConstraint:
    """A bit-flag attribute, `#dialect.mnemonic<...>` (its flags are read when it is parsed)."""
    return AttrConstraint(
        summary,
        lambda a: isinstance(a, A.OpaqueAttr) or (isinstance(a, A.DialectAttr) and (a.dialect, a.name) == (flags.dialect, flags.mnemonic)),
    )


for _enum in ENUMS.values():
    if (_found := _enum_attr(_enum)) is not None:
        ATTRIBUTES.setdefault(_enum.constraint, _found)
for _flag_name, _flag_summary in _FLAG_SUMMARIES.items():
    ATTRIBUTES[_flag_name] = _flags_attr(FLAGS[_flag_name], _flag_summary)


def _int_value(attr: A.Attribute) -> int | None:
    return attr.value if isinstance(attr, A.IntegerAttr) else None


def _elements(attr: A.Attribute) -> int | None:
    if isinstance(attr, A.DenseArrayAttr):
        return len(attr.values)
    if isinstance(attr, A.ArrayAttr):
        return len(attr.elements)
    return None


def _bound(test: Callable[[int], bool], measure: Callable[[A.Attribute], int | None] = _int_value) -> Callable[[A.Attribute], bool]:
    """Whether the number `measure` reads from an attribute (its value, by default) passes `test`."""

    def holds(attr: A.Attribute) -> bool:
        number = measure(attr)
        return number is None or test(number)

    return holds


def _confinement(text: str) -> AttrConstraint | None:
    """One predicate of a `ConfinedAttr<base, [...]>` (`IntMinValue<0>`), or None when not known."""
    head, args = _call(text)
    number = int(args[0]) if len(args) == 1 and args[0].lstrip("-").isdigit() else None
    if head == "IntPositive" and not args:
        return AttrConstraint("whose value is positive", _bound(lambda v: v > 0))
    if head == "IntNonNegative" and not args:
        return AttrConstraint("whose value is non-negative", _bound(lambda v: v >= 0))
    if head == "IntIsOneOf" and len(args) == 1 and (values := _ints(args[0])) is not None:
        allowed = tuple(values)
        return AttrConstraint(f"whose value is one of {{{', '.join(map(str, allowed))}}}", _bound(lambda v: v in allowed))
    if head == "IntPowerOf2" and not args:
        return AttrConstraint("whose value is a power of two > 0", _bound(lambda v: v > 0 and v & (v - 1) == 0))
    if number is None:
        return None
    if head == "IntMinValue":
        return AttrConstraint(f"whose minimum value is {number}", _bound(lambda v: v >= number))
    if head == "IntMaxValue":
        return AttrConstraint(f"whose maximum value is {number}", _bound(lambda v: v <= number))
    if head == "DenseArrayCount":
        return AttrConstraint(f"with exactly {number} elements", _bound(lambda n: n == number, _elements))
    if head == "ArrayMinCount":
        return AttrConstraint(f"with at least {number} elements", _bound(lambda n: n >= number, _elements))
    return None


@functools.cache
def attr_constraint(name: str) -> AttrConstraint | None:
    """The ODS attribute constraint `name` (`I64Attr`, `ConfinedAttr<I32Attr, [IntPositive]>`), or None."""
    return _named(ATTRIBUTES, name, _confined)


def _confined(head: str, args: list[str]) -> AttrConstraint | None:
    """`ConfinedAttr<base, [predicates]>`: the base's summary followed by the predicates' joined with `and`;
    `AnyAttrOf<[...]>`: the alternatives' joined with `or`."""
    if head == "AnyAttrOf" and len(args) == 1:
        found = [attr_constraint(item) for item in _items(args[0])]
        if any(c is None for c in found):
            return None
        tests = tuple(c.holds for c in found if c is not None)
        return AttrConstraint(" or ".join(c.summary for c in found if c is not None), lambda attr: any(t(attr) for t in tests))
    if head != "ConfinedAttr" or len(args) != 2:
        return None
    base = attr_constraint(args[0])
    parts = [_confinement(item) for item in _items(args[1])]
    if base is None or any(p is None for p in parts):
        return None
    tests = (base.holds, *(p.holds for p in parts if p is not None))
    summary = base.summary + " " + " and ".join(p.summary for p in parts if p is not None)
    return AttrConstraint(summary, lambda attr: all(t(attr) for t in tests))
