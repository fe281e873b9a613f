"""Whether an op's value types satisfy the type relations its declaration states (AllTypesMatch, TypesMatchWith, ...).

The types come by name (operand and result groups, each a tuple); a relation that names an absent
value (an `Optional` left out) or a value of unknown type is not decided: it holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_lsp.ir import types as T
from gpu_lsp.ir.opdefs.opdef import TypeRelation
from gpu_lsp.ir.opdefs.typing import transform_type

Types = Mapping[str, Sequence[T.Type]]
_SHAPED: tuple[type, ...] = (T.VectorType, T.TensorType, T.UnrankedTensorType, T.MemRefType, T.UnrankedMemRefType)


def _known(types: Sequence[T.Type]) -> bool:
    return not any(isinstance(ty, T.UnknownType) for ty in types)


def _singles(names: Sequence[str], types: Types) -> list[T.Type] | None:
    """The type of each named value, or None when one is absent, variadic or unknown."""
    out = []
    for name in names:
        group = types.get(name, ())
        if len(group) != 1 or not _known(group):
            return None
        out.append(group[0])
    return out


def _element_or_self(ty: T.Type) -> T.Type:
    found = transform_type("element", ty)
    return found if isinstance(found, T.Type) else ty


def relation_holds(relation: TypeRelation, types: Types, operands: Sequence[T.Type], results: Sequence[T.Type] = ()) -> bool:
    """Whether `relation` holds of the values' types (`operands`, `results`: every one's, for the native traits)."""
    if relation.native:
        return _native_holds(relation.kind, operands, results)
    if relation.kind in ("tensor_dims", "condition"):
        found = _singles(relation.names, types)
        if found is None:
            return True
        if relation.kind == "tensor_dims":
            return _tensor_dims(found[0]) == _tensor_dims(found[1])
        return found[0] == T.I1 or found[0] == transform_type("i1_same_shape", found[1])
    if relation.kind != "with":
        found = _singles(relation.names, types)
        if found is None:
            return True
        if relation.kind == "all_element":
            found = [_element_or_self(ty) for ty in found]
        if relation.kind == "all_rank":
            ranks = [len(shape) for ty in found if (shape := getattr(ty, "shape", None)) is not None]
            return len(ranks) < len(found) or all(rank == ranks[0] for rank in ranks[1:])
        return all(ty == found[0] for ty in found[1:])
    source, target = relation.names
    given = _singles((source,), types)
    written = types.get(target, ())
    if given is None or not _known(written):
        return True
    derived = transform_type(relation.transform, given[0])
    if isinstance(derived, list):
        return not _known(derived) or list(written) == derived
    return isinstance(derived, T.UnknownType) or all(ty == derived for ty in written)


def compatible_shapes(a: T.Type, b: T.Type) -> bool:
    """Upstream's verifyCompatibleShape: both shaped or neither; unranked or equal ranks with equal static sizes."""
    shape_a, shape_b = getattr(a, "shape", None), getattr(b, "shape", None)
    shaped_a, shaped_b = isinstance(a, _SHAPED), isinstance(b, _SHAPED)
    if not shaped_a or not shaped_b:
        return shaped_a == shaped_b
    if shape_a is None or shape_b is None:
        return True
    return len(shape_a) == len(shape_b) and all(x is None or y is None or x == y for x, y in zip(shape_a, shape_b))


def _tensor_dims(ty: T.Type) -> tuple[int | None, ...]:
    """A ranked tensor's shape; no dimensions for any other type (ArithOps' getTypeDimensions)."""
    return tuple(ty.shape) if isinstance(ty, T.TensorType) else ()


def _native_holds(kind: str, operands: Sequence[T.Type], results: Sequence[T.Type]) -> bool:
    """A native trait as upstream verifies it (OpDefinition's verifySame...); not decided (holds) without
    operands (a result, for the traits on results too) or with a value of unknown type."""
    values = [*operands, *results] if kind.startswith("values") else list(operands)
    if not operands or (kind.startswith("values") and not results) or not _known(values):
        return True
    if kind == "operands":
        return all(ty == operands[0] for ty in operands[1:])
    if kind.endswith("_shape"):
        return all(compatible_shapes(a, b) for a in values for b in values)
    # the element types: the first operand's, or with the results the first result's
    first = _element_or_self(results[0] if kind == "values_element" else operands[0])
    return all(_element_or_self(ty) == first for ty in values)


_MAPPABLE: tuple[type, ...] = (T.VectorType, T.TensorType, T.UnrankedTensorType)


def elementwise_problem(operands: Sequence[T.Type], results: Sequence[T.Type]) -> str | None:
    """Upstream's verifyElementwise: its message when the vector and tensor values do not map element-wise
    (scalars beside them are broadcast), None when they do or a type is unknown."""
    if not _known([*operands, *results]):
        return None
    mapped_operands = [ty for ty in operands if isinstance(ty, _MAPPABLE)]
    mapped_results = [ty for ty in results if isinstance(ty, _MAPPABLE)]
    if not mapped_operands and not mapped_results:
        return None
    if not mapped_operands:
        return "if a result is non-scalar, then at least one operand must be non-scalar"
    if not mapped_results:
        return "if an operand is non-scalar, then there must be at least one non-scalar result"
    if len(mapped_results) != len(results):
        return "if an operand is non-scalar, then all results must be non-scalar"
    every = mapped_operands + mapped_results
    if any(type(ty) is not type(every[0]) or not all(compatible_shapes(ty, other) for other in every) for ty in every):
        return "all non-scalar operands/results must have the same shape and base type"
    return None


def same_operands_and_result_type(operands: Sequence[T.Type], results: Sequence[T.Type]) -> bool:
    """SameOperandsAndResultType as upstream verifies it: one element type and compatible shapes (its
    separate check of tensor encodings is not made)."""
    every = [*results, *operands]
    if not operands or not results:
        return True
    same = results[0]
    if all(ty is same or ty == same for ty in every):  # the common case: one type throughout (or all unknown)
        return True
    if not _known(every):
        return True
    first = _element_or_self(same)
    return all(_element_or_self(ty) == first and compatible_shapes(ty, results[0]) for ty in every[1:])
