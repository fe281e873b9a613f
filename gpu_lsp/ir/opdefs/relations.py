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
    if relation.kind != "with":
        found = _singles(relation.names, types)
        if found is None:
            return True
        if relation.kind == "all_element":
            found = [_element_or_self(ty) for ty in found]
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


def _compatible_shapes(a: T.Type, b: T.Type) -> bool:
    """Upstream's verifyCompatibleShape: both shaped or neither; unranked or equal ranks with equal static sizes."""
    shape_a, shape_b = getattr(a, "shape", None), getattr(b, "shape", None)
    shaped_a, shaped_b = isinstance(a, _SHAPED), isinstance(b, _SHAPED)
    if not shaped_a or not shaped_b:
        return shaped_a == shaped_b
    if shape_a is None or shape_b is None:
        return True
    return len(shape_a) == len(shape_b) and all(x is None or y is None or x == y for x, y in zip(shape_a, shape_b))


def _native_holds(kind: str, operands: Sequence[T.Type], results: Sequence[T.Type]) -> bool:
    """A native trait as upstream verifies it (OpDefinition's verifySame...); not decided (holds) without
    operands (a result, for the traits on results too) or with a value of unknown type."""
    values = [*operands, *results] if kind.startswith("values") else list(operands)
    if not operands or (kind.startswith("values") and not results) or not _known(values):
        return True
    if kind == "operands":
        return all(ty == operands[0] for ty in operands[1:])
    if kind.endswith("_shape"):
        return all(_compatible_shapes(a, b) for a in values for b in values)
    # the element types: the first operand's, or with the results the first result's
    first = _element_or_self(results[0] if kind == "values_element" else operands[0])
    return all(_element_or_self(ty) == first for ty in values)


def same_operands_and_result_type(operands: Sequence[T.Type], results: Sequence[T.Type]) -> bool:
    """SameOperandsAndResultType as upstream verifies it: one element type and compatible shapes (its
    separate check of tensor encodings is not made)."""
    every = [*results, *operands]
    if not operands or not results or not _known(every):
        return True
    first = _element_or_self(results[0])
    return all(_element_or_self(ty) == first and _compatible_shapes(ty, results[0]) for ty in every[1:])
