"""What one operation is, declared as upstream's ODS declares it: operands, attributes, traits, format."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.opdefs import format_customs  # noqa: F401  (registers the custom directives the formats name)
from gpu_lsp.ir.opdefs.format import render_syntax
from gpu_lsp.ir.opdefs.opdef import EFFECTS, OPTIONAL, SINGLE, TRAITS, VARIADIC, Arg, AttrArg, OpDef, Since, TypeRelation, TypeRule
from gpu_lsp.ir.opdefs.typing import known_transform

_ARG = re.compile(r"\s*(?P<constraint>.+?)\s*:\s*\$(?P<name>[A-Za-z_]\w*)\s*$")
_WRAPPER = re.compile(r"(Variadic|Optional|VariadicRegion|VariadicSuccessor|VariadicOfVariadic)<(.*)>\Z")
_ATTR_WRAPPER = re.compile(
    r"(OptionalAttr|DefaultValuedAttr|DefaultValuedOptionalAttr|DefaultValuedStrAttr|UnitAttr|OptionalProp|DefaultValuedProp)\b(?:<(.*)>)?\Z"
)


def _arg(text: str) -> tuple[str, str]:
    found = _ARG.match(text)
    if found is None:
        raise ValueError(f"expected `Constraint:$name`, got {text!r}")
    return found["constraint"].strip(), found["name"]


_DECORATED = re.compile(r"(?:Arg|Res)<(.*)>\Z", re.S)
_EFFECT = re.compile(r"(Mem(?:Read|Write|Alloc|Free))(?:At)?(?:<.*>)?\Z", re.S)


def effect(text: str) -> str:
    """The model's name of an ODS memory effect: `MemRead`, `MemWriteAt<0, FullEffect>`, `MemAlloc<R>` (any resource)."""
    found = _EFFECT.match(text.strip())
    if found is None:
        raise ValueError(f"expected a memory effect (MemRead, MemWrite, MemAlloc, MemFree), got {text.strip()!r}")
    return EFFECTS[found[1]]


def _decorated(constraint: str) -> tuple[str, frozenset[str]]:
    """`Arg<AnyMemRef, "doc", [MemRead]>` -> (`AnyMemRef`, {read}); other constraints have no effects."""
    found = _DECORATED.match(constraint)
    if found is None:
        return constraint, frozenset()
    pieces = split_commas(found[1], drop_empty=True)
    listed = pieces[-1] if len(pieces) > 1 and pieces[-1].startswith("[") else "[]"
    return pieces[0], frozenset(effect(e) for e in split_commas(listed[1:-1], drop_empty=True))


def _value_arg(declared: str, name: str) -> Arg:
    constraint, effects = _decorated(declared)
    wrapped = _WRAPPER.match(constraint)
    if wrapped is None:
        return Arg(name, constraint, effects=effects)
    kind = OPTIONAL if wrapped[1] == "Optional" else VARIADIC
    return Arg(name, wrapped[2].strip(), kind, effects)


def _is_attribute(constraint: str) -> bool:
    head = constraint.split("<", 1)[0]
    return head.endswith(("Attr", "AttrOf", "Prop", "Property")) or _ATTR_WRAPPER.match(constraint) is not None


_CONFINED = re.compile(r"ConfinedAttr<(.*)>\Z")


def _unconfined(constraint: str) -> str:
    """`ConfinedAttr<I32Attr, [IntPositive]>` -> `I32Attr`: how it is written is the base attribute's."""
    confined = _CONFINED.match(constraint)
    return split_commas(confined[1], drop_empty=True)[0] if confined else constraint


def _attr_arg(declared: str, name: str) -> AttrArg:
    constraint = _unconfined(declared)
    confined = declared if constraint != declared else ""
    wrapped = _ATTR_WRAPPER.match(constraint)
    if wrapped is None:
        enum = ENUMS.get(constraint)
        if enum is not None and enum.default is not None:
            return AttrArg(name, constraint, optional=True, default=enum.default, stored_default=True, declared=confined)
        return AttrArg(name, constraint, declared=confined)
    wrapper, inner = wrapped[1], wrapped[2]
    if wrapper == "UnitAttr":
        return AttrArg(name, "UnitAttr", optional=True)
    pieces = split_commas(inner or "", drop_empty=True)
    default = pieces[1].strip('"') if wrapper.startswith("DefaultValued") and len(pieces) > 1 else None
    stored = wrapper in ("DefaultValuedAttr", "DefaultValuedStrAttr", "DefaultValuedProp") and default is not None
    base = _unconfined(pieces[0]) if pieces else "Attr"
    inner_declared = pieces[0] if pieces and base != pieces[0] else ""
    return AttrArg(name, base, optional=True, default=default, stored_default=stored, declared=inner_declared)


def arguments(text: str) -> tuple[tuple[Arg, ...], tuple[AttrArg, ...]]:
    """`ins` as ODS writes it: `AnyMemRef:$memref, Variadic<Index>:$indices, UnitAttr:$nontemporal`."""
    operands: list[Arg] = []
    attributes: list[AttrArg] = []
    for piece in split_commas(text, drop_empty=True):
        constraint, name = _arg(piece)
        base = _decorated(constraint)[0]
        if _is_attribute(base):
            attributes.append(_attr_arg(base, name))
        else:
            operands.append(_value_arg(constraint, name))
    return tuple(operands), tuple(attributes)


def values(text: str) -> tuple[Arg, ...]:
    """`outs`, `regions` or `successors` as ODS writes them: `Index:$result, Variadic<AnyType>:$rest`."""
    return tuple(_value_arg(*_arg(piece)) for piece in split_commas(text, drop_empty=True))


_RELATION = re.compile(
    r"(AllTypesMatch|AllElementTypesMatch|AllRanksMatch|TypesMatchWith|BooleanConditionOrMatchingShape|PredOpTrait)<(.*)>\Z", re.S
)
# PredOpTrait's predicate on positions: result i's element type (or itself) is operand j's (OpBase.td).
_RESULT_ELEMENT_OF_OPERAND = re.compile(r"TCresVTEtIsSameAsOpBase<\s*(\d+)\s*,\s*(\d+)\s*>\Z")
_MATCHED = {"AllTypesMatch": ("all", "type"), "AllElementTypesMatch": ("all_element", "element type"), "AllRanksMatch": ("all_rank", "rank")}
# ArithOps.td's PredOpTrait on the casts' `in` and `out` (upstream's message follows `failed to verify that`).
TENSOR_DIMS = "SameInputOutputTensorDims"
# The native traits relating every operand's (and result's) type, by kind, with upstream's message.
NATIVE_RELATIONS = {
    "SameTypeOperands": ("operands", "requires all operands to have the same type"),
    "SameOperandsShape": ("operands_shape", "requires the same shape for all operands"),
    "SameOperandsElementType": ("operands_element", "requires the same element type for all operands"),
    "SameOperandsAndResultShape": ("values_shape", "requires the same shape for all operands and results"),
    "SameOperandsAndResultElementType": ("values_element", "requires the same element type for all operands and results"),
}


def type_relation(text: str, operands: Sequence[Arg] = (), results: Sequence[Arg] = ()) -> TypeRelation:
    """`AllTypesMatch<a, b>`, `AllElementTypesMatch<a, b>`, `AllRanksMatch<a, b>`, `TypesMatchWith<"description",
    source, target, transform>`, `PredOpTrait<"description", TCresVTEtIsSameAsOpBase<i, j>>` (positions in
    `results` and `operands`) or a native trait of NATIVE_RELATIONS (`SameTypeOperands`) as a TypeRelation
    (names as upstream's, which its messages print)."""
    native = NATIVE_RELATIONS.get(text.strip())
    if native is not None:
        return TypeRelation(native[0], (), native[1])
    if text.strip() == TENSOR_DIMS:
        return TypeRelation("tensor_dims", ("in", "out"), "input and output have the same tensor dimensions")
    found = _RELATION.match(text.strip())
    if found is None:
        raise ValueError(f"unknown type rule {text!r}")
    parts = split_commas(found[2], drop_empty=True)
    if found[1] == "BooleanConditionOrMatchingShape":
        condition, result = (n.strip().lstrip("$") for n in parts)
        return TypeRelation("condition", (condition, result), f"{condition} is signless i1 or has matching shape")
    if found[1] == "PredOpTrait":
        return _predicate(text, parts, operands, results)
    if found[1] in _MATCHED:
        names = tuple(n.strip().lstrip("$") for n in parts)
        kind, what = _MATCHED[found[1]]
        return TypeRelation(kind, names, f"all of {{{', '.join(names)}}} have same {what}")
    if len(parts) not in (3, 4) or not parts[0].startswith('"'):
        raise ValueError(f"expected `TypesMatchWith<\"description\", source, target[, transform]>`, got {text!r}")
    source, target, *transform = (n.lstrip("$") for n in parts[1:])
    if transform and not known_transform(transform[0]):
        raise ValueError(f"unknown type transform {transform[0]!r} in {text!r}")
    return TypeRelation("with", (source, target), parts[0].strip('"'), transform[0] if transform else "same")


def _predicate(text: str, parts: Sequence[str], operands: Sequence[Arg], results: Sequence[Arg]) -> TypeRelation:
    """A PredOpTrait whose predicate gpu-lsp knows, on the declared values it names by position."""
    predicate = _RESULT_ELEMENT_OF_OPERAND.match(parts[1].strip()) if len(parts) == 2 and parts[0].startswith('"') else None
    if predicate is None:
        raise ValueError(f"expected `PredOpTrait<\"description\", TCresVTEtIsSameAsOpBase<i, j>>`, got {text!r}")
    result, operand = int(predicate[1]), int(predicate[2])
    if result >= len(results) or operand >= len(operands):
        raise ValueError(f"{text!r} names an undeclared result or operand")
    return TypeRelation("all_element", (results[result].name, operands[operand].name), parts[0].strip('"'))


def type_rules(relations: Iterable[TypeRelation], operands: tuple[Arg, ...]) -> tuple[TypeRule, ...]:
    """The types each relation lets the format reader infer (one named value's from another's)."""
    rules: list[TypeRule] = []
    for relation in relations:
        names = relation.names if relation.kind != "operands" else tuple(a.name for a in operands)
        if relation.kind == "with":
            rules.append(TypeRule(names[1], names[0], relation.transform))
        elif relation.kind in ("all", "operands"):
            rules.extend(TypeRule(target, names[0]) for target in names[1:])
            rules.extend(TypeRule(names[0], target) for target in names[1:])
    return tuple(rules)


_TARGET = re.compile(r"\s*(?P<effect>.+?)\s*:\s*(?:\$(?P<name>[A-Za-z_]\w*)|#(?P<index>\d+))\s*\Z")


def _with_effects(args: tuple[Arg, ...] | None, effects: dict[str, set[str]]) -> tuple[Arg, ...] | None:
    """`args` with the named ones' effects added (taken out of `effects`)."""
    if args is None:
        return None
    return tuple(replace(a, effects=a.effects | effects.pop(a.name)) if a.name in effects else a for a in args)


def _effects(
    name: str, text: str, operands: tuple[Arg, ...] | None, results: tuple[Arg, ...] | None
) -> tuple[tuple[Arg, ...] | None, tuple[Arg, ...] | None, tuple[tuple[int, frozenset[str]], ...]]:
    """Operands and results with the effects `text` puts on them (`MemRead:$memref, MemWrite:$memref`),
    and the effects on operands by position (`MemRead:#0`) where the op declares no operands."""
    named: dict[str, set[str]] = {}
    positional: dict[int, set[str]] = {}
    for piece in split_commas(text, drop_empty=True):
        found = _TARGET.match(piece)
        if found is None:
            raise ValueError(f"{name}: expected `Effect:$name` or `Effect:#position`, got {piece!r}")
        if found["index"] is not None and operands is not None:
            raise ValueError(f"{name}: its operands are declared; name the operand instead of {piece!r}")
        target = named.setdefault(found["name"], set()) if found["name"] else positional.setdefault(int(found["index"]), set())
        target.add(effect(found["effect"]))
    operands, results = _with_effects(operands, named), _with_effects(results, named)
    if named:
        raise ValueError(f"{name}: effects on undeclared operands or results {sorted(named)}")
    return operands, results, tuple((i, frozenset(e)) for i, e in sorted(positional.items()))


def _view_source(name: str, view: str | None, operands: tuple[Arg, ...] | None) -> str | int | None:
    """The operand `view` names (`source`, or `#0` where the op declares no operands)."""
    if view is None:
        return None
    if view.startswith("#") and operands is None:
        return int(view[1:])
    if operands is None or all(a.name != view for a in operands):
        raise ValueError(f"{name}: view of an undeclared operand {view!r}")
    return view


def declare(
    name: str,
    summary: str = "",
    *,
    ins: str | None = None,
    outs: str | None = None,
    regions: str | None = None,
    successors: str | None = None,
    traits: str = "",
    types: Iterable[str] = (),
    format: str | None = None,
    syntax: str = "",
    parents: str = "",
    implicit_terminator: str | None = None,
    default_dialect: str | None = None,
    inherent: Iterable[str] = (),
    successor_operands: str = "",
    since: Since | None = None,
    effects: str = "",
    view: str | None = None,
) -> OpDef:
    """One op definition from ODS-style text; `inherent` names attributes not declared in `ins`.

    `successor_operands` names, per successor, the operand group passed to it (BranchOpInterface);
    `since`: the LLVM version that introduced the op, when newer than every version gpu-lsp knows.
    `effects` adds memory effects to operands and results (`MemRead:$memref`, or `MemRead:#0` by
    position where `ins` is not given), as `Arg<..., [MemRead]>` in `ins` does; `view` names the
    operand whose buffer the result views (ViewLikeOpInterface; `#0` by position).
    """
    trait_set = frozenset(traits.split())
    unknown = trait_set - TRAITS
    if unknown:
        raise ValueError(f"{name}: unknown traits {sorted(unknown)}")
    operands, attributes = arguments(ins) if ins is not None else (None, ())
    operands, results, positional = _effects(name, effects, operands, values(outs) if outs is not None else None)
    relations = tuple(type_relation(text, operands or (), results or ()) for text in types)
    declared = {a.name for a in attributes}
    attributes = attributes + tuple(AttrArg(n, "Attr", optional=True) for n in inherent if n not in declared)
    if operands is not None and sum(a.kind != SINGLE for a in operands) > 1:
        trait_set |= {"attr_sized_operands"}
    definition = OpDef(
        name,
        summary=summary,
        syntax=syntax,
        traits=trait_set,
        operands=operands,
        results=results,
        attributes=attributes,
        regions=values(regions) if regions is not None else None,
        successors=values(successors) if successors is not None else None,
        parents=tuple(parents.split()),
        implicit_terminator=implicit_terminator,
        default_dialect=default_dialect,
        type_rules=type_rules(relations, operands or ()),
        type_relations=relations,
        format=format,
        successor_operands=tuple(successor_operands.split()),
        since=since,
        positional_effects=positional,
        view_source=_view_source(name, view, operands),
    )
    if format is not None and not syntax:
        definition.syntax = render_syntax(definition)
    return definition
