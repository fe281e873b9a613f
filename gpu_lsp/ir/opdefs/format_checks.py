"""What ODS's format generator checks of an assembly format before an op may use it (for ops a project declares)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from gpu_lsp.ir.opdefs.format import AttrDict, Custom, Directive, FunctionalType, TypeOf, variables
from gpu_lsp.ir.opdefs.model import OpDef
from gpu_lsp.ir.opdefs.typing import buildable_type


def format_problem(op: OpDef, directives: tuple[Directive, ...], infers_results: bool = False) -> tuple[str, str | None] | None:
    """The first thing wrong with `op`'s format (a message and the text it concerns), else None.

    The checks and their words are mlir-tblgen's (OpFormatGen): names bound once, `attr-dict`
    present, every operand, region and successor written, every operand and result type known
    (result types need not be, with `infers_results`: InferTypeOpInterface, whose code gpu-lsp
    does not have, so they stay unknown).
    """
    inner = list(_walk(directives))
    if any(isinstance(d, Custom) for d in inner):
        return "`custom<...>` directives need code; declared ops cannot use them", "custom<"
    names = _names(op)
    written = variables(directives)
    for name in written + _typed(inner):
        if name not in names and name not in ("operands", "results", "regions", "successors"):
            return f"`${name}` is not an argument, result, region or successor", f"${name}"
    values = {a.name for a in (op.operands or ()) + (op.results or ())} | {"operands", "results"}
    for name in _typed(inner):
        if name not in values:
            return f"`type(${name})`: '{name}' is not an operand or result", f"${name}"
    seen: set[str] = set()
    for name in written:
        if name in seen:
            return f"'{name}' is already bound", f"${name}"
        seen.add(name)
    if not any(isinstance(d, AttrDict) for d in inner):
        return "'attr-dict' directive not found in custom assembly format", None
    for kind, args, whole in (("operand", op.operands, "operands"), ("region", op.regions, "regions"), ("successor", op.successors, "successors")):
        if whole in written:
            continue
        for index, arg in enumerate(args or ()):
            if arg.name not in written:
                return f"{kind} #{index}, named '{arg.name}', not found", None
    return _untyped(op, set(_typed(inner)) | ({"results"} if infers_results else set()))


def _walk(directives: tuple[Directive, ...]) -> Iterator[Directive]:
    """Every directive, and those any of them holds (optional groups, oilist clauses, custom directives)."""
    for d in directives:
        yield d
        if not is_dataclass(d):
            continue
        for f in fields(d):
            value = getattr(d, f.name)
            if isinstance(value, tuple):
                for item in value:
                    if isinstance(item, tuple):
                        yield from _walk(item)
                    elif not isinstance(item, str):
                        yield from _walk((item,))


def _names(op: OpDef) -> set[str]:
    values = (op.operands or ()) + (op.results or ()) + (op.regions or ()) + (op.successors or ())
    return {a.name for a in values} | {a.name for a in op.attributes}


def _typed(directives: list[Directive]) -> list[str]:
    """The names `type($x)` and `functional-type($a, $b)` give a type to."""
    out: list[str] = []
    for d in directives:
        if isinstance(d, TypeOf):
            out.append(d.name)
        elif isinstance(d, FunctionalType):
            out.extend((d.inputs, d.outputs))
    return out


def _untyped(op: OpDef, typed: set[str]) -> tuple[str, str | None] | None:
    """An operand or result whose type the text does not give and nothing infers."""
    values = [("operand", i, a) for i, a in enumerate(op.operands or ())] + [("result", i, a) for i, a in enumerate(op.results or ())]
    known = {a.name for kind, _, a in values if a.name in typed or (kind + "s") in typed or buildable_type(a.constraint) is not None}
    if op.has("same_type") and known & {a.name for _, _, a in values}:
        known |= {a.name for _, _, a in values}
    changed = True
    while changed:
        changed = False
        for rule in op.type_rules:
            if rule.source in known and rule.target not in known:
                known.add(rule.target)
                changed = True
    for kind, index, arg in values:
        if arg.name not in known:
            return f"type of {kind} #{index}, named '{arg.name}', is not buildable and a buildable type cannot be inferred", None
    return None
