"""What one operation is, declared as upstream's ODS declares it: operands, attributes, traits, format."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from gpu_lsp.ir.opdefs.enums import ENUMS
from gpu_lsp.ir.opdefs.flags import FLAGS
from gpu_lsp.ir.opdefs.format import AttrDict, Custom, Directive, FunctionalType, Literal, OIList, OptionalGroup, TypeOf, Var, parse_format
from gpu_lsp.ir.opdefs.typing import known_transform

# Trait names (lower case, like the rest of the code base; ODS names in brackets):
#   isolated        IsolatedFromAbove       terminator     IsTerminator
#   symbol          Symbol                  symbol_table   SymbolTable
#   async           GPU_AsyncOpInterface    pure           Pure (no memory effects)
#   no_terminator   NoTerminator            single_block   SingleBlock
#   graph           graph regions           function       FunctionOpInterface
#   return_like     ReturnLike              constant_like  ConstantLike
#   recursive_effects  RecursiveMemoryEffects
#   same_type       SameOperandsAndResultType
#   attr_sized_operands  AttrSizedOperandSegments (derived from the operands)
#   region_return   ReturnLike or RegionBranchTerminatorOpInterface (and gpu.terminator): a
#                   terminator that hands its operands to the parent op or the caller, not a branch
TRAITS = frozenset({
    "isolated", "terminator", "symbol", "symbol_table", "async", "pure", "no_terminator",
    "single_block", "graph", "function", "return_like", "constant_like", "recursive_effects",
    "same_type", "attr_sized_operands", "region_return",
})

SINGLE, OPTIONAL, VARIADIC = "single", "optional", "variadic"

@dataclass(frozen=True)
class Arg:
    """One named operand, result, attribute, region or successor of an op definition."""

    name: str
    constraint: str
    kind: str = SINGLE


@dataclass(frozen=True)
class AttrArg:
    """One inherent attribute: its name, constraint and whether it may be absent.

    `stored_default`: a DefaultValuedAttr, whose default the op holds when the text leaves it out.
    `constraint` is the base attribute (how the value is written); `declared` the whole ODS
    constraint when it says more (`ConfinedAttr<I64Attr, [IntPositive]>`), which the verifier checks.
    """

    name: str
    constraint: str
    optional: bool = False
    default: str | None = None
    stored_default: bool = False
    declared: str = ""

    @property
    def checked(self) -> str:
        """The constraint the verifier checks (constraints.attr_constraint reads it)."""
        return self.declared or self.constraint


@dataclass(frozen=True)
class TypeRule:
    """A type one argument takes from another (AllTypesMatch, TypesMatchWith)."""

    target: str
    source: str
    transform: str = "same"


@dataclass
class OpDef:
    """An operation's declaration; readers and printers of hand-written forms attach to it."""

    name: str
    summary: str = ""
    syntax: str = ""
    traits: frozenset[str] = frozenset()
    operands: tuple[Arg, ...] | None = None
    results: tuple[Arg, ...] | None = None
    attributes: tuple[AttrArg, ...] = ()
    regions: tuple[Arg, ...] | None = None
    successors: tuple[Arg, ...] | None = None
    parents: tuple[str, ...] = ()
    implicit_terminator: str | None = None
    default_dialect: str | None = None
    type_rules: tuple[TypeRule, ...] = ()
    format: str | None = None
    successor_operands: tuple[str, ...] = ()
    reader: Callable[..., Any] | None = field(default=None, compare=False)
    printer: Callable[..., Any] | None = field(default=None, compare=False)

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def inherent(self) -> tuple[str, ...]:
        """Names of the inherent attributes (properties), as `getAttributeNames()`."""
        names = tuple(a.name for a in self.attributes)
        return names + ("operandSegmentSizes",) if self.has("attr_sized_operands") else names

    def has(self, trait: str) -> bool:
        return trait in self.traits

    # Lookups by name (readers ask for every name of every op they read): built on first use.
    @cached_property
    def _operands_by_name(self) -> dict[str, Arg]:
        return {a.name: a for a in self.operands or ()}

    @cached_property
    def _results_by_name(self) -> dict[str, Arg]:
        return {a.name: a for a in self.results or ()}

    @cached_property
    def _attributes_by_name(self) -> dict[str, AttrArg]:
        return {a.name: a for a in self.attributes}

    def operand(self, name: str) -> Arg | None:
        return self._operands_by_name.get(name)

    def result(self, name: str) -> Arg | None:
        return self._results_by_name.get(name)

    def attribute(self, name: str) -> AttrArg | None:
        return self._attributes_by_name.get(name)


_ARG = re.compile(r"\s*(?P<constraint>.+?)\s*:\s*\$(?P<name>[A-Za-z_]\w*)\s*$")
_WRAPPER = re.compile(r"(Variadic|Optional|VariadicRegion|VariadicSuccessor|VariadicOfVariadic)<(.*)>\Z")
_ATTR_WRAPPER = re.compile(r"(OptionalAttr|DefaultValuedAttr|DefaultValuedOptionalAttr|UnitAttr|OptionalProp|DefaultValuedProp)\b(?:<(.*)>)?\Z")


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split `text` at `sep` outside <>, (), [] and quotes."""
    parts: list[str] = []
    depth, quote, start = 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quote = not quote
        elif quote:
            continue
        elif ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _arg(text: str) -> tuple[str, str]:
    found = _ARG.match(text)
    if found is None:
        raise ValueError(f"expected `Constraint:$name`, got {text!r}")
    return found["constraint"].strip(), found["name"]


def _value_arg(constraint: str, name: str) -> Arg:
    wrapped = _WRAPPER.match(constraint)
    if wrapped is None:
        return Arg(name, constraint)
    kind = OPTIONAL if wrapped[1] == "Optional" else VARIADIC
    return Arg(name, wrapped[2].strip(), kind)


def _is_attribute(constraint: str) -> bool:
    head = constraint.split("<", 1)[0]
    return head.endswith(("Attr", "AttrOf", "Prop", "Property")) or _ATTR_WRAPPER.match(constraint) is not None


_CONFINED = re.compile(r"ConfinedAttr<(.*)>\Z")


def _unconfined(constraint: str) -> str:
    """`ConfinedAttr<I32Attr, [IntPositive]>` -> `I32Attr`: how it is written is the base attribute's."""
    confined = _CONFINED.match(constraint)
    return split_top_level(confined[1])[0] if confined else constraint


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
    pieces = split_top_level(inner or "")
    default = pieces[1].strip('"') if wrapper.startswith("DefaultValued") and len(pieces) > 1 else None
    stored = wrapper in ("DefaultValuedAttr", "DefaultValuedProp") and default is not None
    base = _unconfined(pieces[0]) if pieces else "Attr"
    inner_declared = pieces[0] if pieces and base != pieces[0] else ""
    return AttrArg(name, base, optional=True, default=default, stored_default=stored, declared=inner_declared)


def arguments(text: str) -> tuple[tuple[Arg, ...], tuple[AttrArg, ...]]:
    """`ins` as ODS writes it: `AnyMemRef:$memref, Variadic<Index>:$indices, UnitAttr:$nontemporal`."""
    operands: list[Arg] = []
    attributes: list[AttrArg] = []
    for piece in split_top_level(text):
        constraint, name = _arg(piece)
        if _is_attribute(constraint):
            attributes.append(_attr_arg(constraint, name))
        else:
            operands.append(_value_arg(constraint, name))
    return tuple(operands), tuple(attributes)


def values(text: str) -> tuple[Arg, ...]:
    """`outs`, `regions` or `successors` as ODS writes them: `Index:$result, Variadic<AnyType>:$rest`."""
    return tuple(_value_arg(*_arg(piece)) for piece in split_top_level(text))


_RULE = re.compile(r"(AllTypesMatch|TypesMatchWith)<(.*)>\Z")


def type_rules(texts: Iterable[str]) -> tuple[TypeRule, ...]:
    """`AllTypesMatch<a, b, c>` and `TypesMatchWith<source, target, transform>` as TypeRules."""
    rules: list[TypeRule] = []
    for text in texts:
        found = _RULE.match(text.strip())
        if found is None:
            raise ValueError(f"unknown type rule {text!r}")
        names = [n.strip().lstrip("$") for n in split_top_level(found[2])]
        if found[1] == "AllTypesMatch":
            rules.extend(TypeRule(target, names[0]) for target in names[1:])
            rules.extend(TypeRule(names[0], target) for target in names[1:])
        else:
            source, target, *transform = names
            if transform and not known_transform(transform[0]):
                raise ValueError(f"unknown type transform {transform[0]!r} in {text!r}")
            rules.append(TypeRule(target, source, transform[0] if transform else "same"))
    return tuple(rules)


# --- the one-line form an op is written in (hover, completion), from its format ------------


def _type_placeholder(arg: Arg | None) -> str:
    if arg is None:
        return "T"
    constraint = arg.constraint
    if "MemRef" in constraint:
        return "memref<...>"
    if constraint == "Index":
        return "index"
    if "Vector" in constraint:
        return "vector<...>"
    return "T"


# How hover text shows a `custom<Name>(...)` hook whose arguments read badly one by one.
_CUSTOM_SYNTAX = {"DynamicIndexList": "[...]", "AwaitResultType": "T", "MNKDimensionList": "MxNxK"}


class _Writer:
    def __init__(self, op: OpDef) -> None:
        self.op = op
        self.parts: list[str] = []
        self.should_emit_space = True
        self.last_was_punctuation = False

    def element(self, text: str) -> None:
        if self.should_emit_space or not self.last_was_punctuation:
            self.parts.append(" ")
        self.parts.append(text)
        self.should_emit_space, self.last_was_punctuation = True, False

    def literal(self, text: str) -> None:
        if text in ("", " ", "\\n"):
            if text == " ":
                self.parts.append(" ")
            self.should_emit_space, self.last_was_punctuation = False, True
            return
        spaced = len(text) != 1 and text != "->" or text[0] not in ("<>(){}[]," if not self.last_was_punctuation else ">)}],")
        if self.should_emit_space and spaced:
            self.parts.append(" ")
        self.parts.append(text)
        self.should_emit_space = len(text) != 1 or text[0] not in "<({["
        self.last_was_punctuation = not (text[0] == "_" or text[0].isalpha())

    def literal_text(self, text: str) -> None:
        """Text glued to what precedes it (`overflow<nsw, nuw>`)."""
        self.parts.append(text)
        self.should_emit_space, self.last_was_punctuation = True, False

    def directives(self, directives: tuple[Directive, ...]) -> None:
        op = self.op
        for d in directives:
            if isinstance(d, Literal):
                self.literal(d.text)
            elif isinstance(d, Var):
                self.variable(d.name)
            elif isinstance(d, TypeOf):
                self.element(_type_placeholder(op.operand(d.name) or op.result(d.name)))
            elif isinstance(d, FunctionalType):
                self.element("(T, ...) -> (U, ...)")
            elif isinstance(d, AttrDict):
                continue
            elif isinstance(d, OptionalGroup):
                self.optional(d.elements)
            elif isinstance(d, OIList):
                for clause in d.clauses:
                    self.optional(clause)
            elif isinstance(d, Custom) and d.name in _CUSTOM_SYNTAX:
                self.element(_CUSTOM_SYNTAX[d.name])
            elif isinstance(d, Custom):
                self.directives(d.args)

    def optional(self, elements: tuple[Directive, ...]) -> None:
        """` [...]`: what may be left out (a unit attribute's variable stands in its keyword)."""
        self.parts.append(" [")
        self.should_emit_space, self.last_was_punctuation = False, True
        self.directives(tuple(e for e in elements if not (isinstance(e, Var) and self.is_unit(e.name))))
        self.parts.append("]")

    def is_unit(self, name: str) -> bool:
        attr = self.op.attribute(name)
        return attr is not None and attr.constraint == "UnitAttr"

    def variable(self, name: str) -> None:
        op = self.op
        operand = op.operand(name)
        if operand is not None:
            self.element(f"%{name}" if operand.kind == SINGLE else f"%{name}, ...")
            return
        attr = op.attribute(name)
        if attr is not None and attr.constraint in FLAGS:
            kind = FLAGS[attr.constraint]
            flags = ((kind.all_name,) if kind.all_name else ()) + kind.flags
            joint = kind.separator.strip() + ("" if kind.separator.strip() == "|" else " ")
            self.literal_text("<" + joint.join(flags[:3]) + (joint + "...>" if len(flags) > 3 else ">"))
        elif attr is not None and attr.constraint in ENUMS:
            self.element("|".join(ENUMS[attr.constraint].cases[:4]) + ("|..." if len(ENUMS[attr.constraint].cases) > 4 else ""))
        elif attr is not None and attr.constraint == "UnitAttr":
            return
        elif any(r.name == name for r in op.regions or ()):
            self.element("{ ... }")
        else:
            self.element(name if attr is None else f"<{name}>")


def render_syntax(op: OpDef, directives: tuple[Directive, ...]) -> str:
    """`%result = memref.load %memref[%indices, ...] : memref<...>` for memref.load's format."""
    writer = _Writer(op)
    if directives and isinstance(directives[0], Literal) and directives[0].text == "":
        directives = directives[1:]  # the op name is still spaced from what follows (see format_printer)
    writer.directives(directives)
    results = [f"%{r.name}" if r.kind == SINGLE else f"%{r.name}..." for r in op.results or ()]
    head = f"{', '.join(results)} = {op.name}" if results else op.name
    return head + "".join(writer.parts)


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
) -> OpDef:
    """One op definition from ODS-style text; `inherent` names attributes not declared in `ins`.

    `successor_operands` names, per successor, the operand group passed to it (BranchOpInterface).
    """
    trait_set = frozenset(traits.split())
    unknown = trait_set - TRAITS
    if unknown:
        raise ValueError(f"{name}: unknown traits {sorted(unknown)}")
    operands, attributes = arguments(ins) if ins is not None else (None, ())
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
        results=values(outs) if outs is not None else None,
        attributes=attributes,
        regions=values(regions) if regions is not None else None,
        successors=values(successors) if successors is not None else None,
        parents=tuple(parents.split()),
        implicit_terminator=implicit_terminator,
        default_dialect=default_dialect,
        type_rules=type_rules(types),
        format=format,
        successor_operands=tuple(successor_operands.split()),
    )
    if format is not None and not syntax:
        definition.syntax = render_syntax(definition, parse_format(format))
    return definition
