"""The record of one operation's declaration (operands, attributes, traits, format), as ODS holds it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

# Trait names (lower case, like the rest of the code base; ODS names in brackets):
#   isolated        IsolatedFromAbove       terminator     IsTerminator
#   symbol          Symbol                  symbol_table   SymbolTable
#   async           GPU_AsyncOpInterface    pure           Pure (no memory effects)
#   no_terminator   NoTerminator            single_block   SingleBlock
#   graph           graph regions           function       FunctionOpInterface
#   return_like     ReturnLike              constant_like  ConstantLike
#   recursive_effects  RecursiveMemoryEffects
#   same_type       SameOperandsAndResultType
#   elementwise     Elementwise (in ElementwiseMappable): vector and tensor values map element-wise
#   attr_sized_operands  AttrSizedOperandSegments (derived from the operands)
#   attr_sized_results   AttrSizedResultSegments
#   region_return   ReturnLike or RegionBranchTerminatorOpInterface (and gpu.terminator): a
#                   terminator that hands its operands to the parent op or the caller, not a branch
TRAITS = frozenset({
    "isolated", "terminator", "symbol", "symbol_table", "async", "pure", "no_terminator",
    "single_block", "graph", "function", "return_like", "constant_like", "recursive_effects",
    "same_type", "elementwise", "attr_sized_operands", "attr_sized_results", "region_return",
})

SINGLE, OPTIONAL, VARIADIC = "single", "optional", "variadic"

# Memory effects on an operand or result (ODS's `Arg<..., [MemRead]>`, `Res<..., [MemAlloc]>`), on
# the default resource; ODS's effect names and the model's.
READ, WRITE, ALLOC, FREE = "read", "write", "alloc", "free"
EFFECTS = {"MemRead": READ, "MemWrite": WRITE, "MemAlloc": ALLOC, "MemFree": FREE}


@dataclass(frozen=True)
class Arg:
    """One named operand, result, attribute, region or successor of an op definition, with the
    memory effects the op has on the buffer it names."""

    name: str
    constraint: str
    kind: str = SINGLE
    effects: frozenset[str] = frozenset()


class ArgLayout:
    """How items split over declared args (ODS's segment accessors): the args' names, a size of one
    for each, and where the one optional or variadic arg is (-1: none; -2: several, sizes needed)."""

    __slots__ = ("names", "singles", "flexible", "sized_by_attribute", "by_count")

    def __init__(self, args: tuple[Arg, ...], sized_by_attribute: bool = False) -> None:
        self.names = tuple(a.name for a in args)
        self.singles = (1,) * len(args)
        flexible = [i for i, a in enumerate(args) if a.kind != SINGLE]
        self.flexible = -1 if not flexible else flexible[0] if len(flexible) == 1 else -2
        # Whether a segment-sizes attribute splits the items (AttrSizedOperandSegments and the like).
        self.sized_by_attribute = sized_by_attribute
        # Item count -> each arg's size where the attribute does not say (`segments.declared_sizes`,
        # filled by its callers: every op of a name asks again with the same few counts).
        self.by_count: dict[int, tuple[int, ...] | None] = {}


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


NATIVE_KINDS = frozenset({"operands", "operands_shape", "operands_element", "values_shape", "values_element"})


@dataclass(frozen=True)
class TypeRelation:
    """A trait relating the types of named values, checked after the constraints with upstream's words.

    `kind`: "all" (AllTypesMatch), "all_element" (AllElementTypesMatch, or PredOpTrait's
    TCresVTEtIsSameAsOpBase: `names` is (result, operand)), "all_rank" (AllRanksMatch), "with" (TypesMatchWith:
    `names` is (source, target), the target's types are `transform` of the source's), "tensor_dims"
    (SameInputOutputTensorDims: `in` and `out` have one shape where they are ranked tensors, none elsewhere),
    "condition" (BooleanConditionOrMatchingShape: `names` is (condition, result); the condition is i1 or
    i1 of the result's shape),
    or a native trait, which names no values and is checked after the others: "operands" (SameTypeOperands),
    "operands_shape" (SameOperandsShape), "operands_element" (SameOperandsElementType), "values_shape"
    (SameOperandsAndResultShape), "values_element" (SameOperandsAndResultElementType).
    `description` completes upstream's `failed to verify that ...` (a native trait's whole message).
    """

    kind: str
    names: tuple[str, ...]
    description: str
    transform: str = "same"

    @property
    def native(self) -> bool:
        return self.kind in NATIVE_KINDS


@dataclass(frozen=True)
class Since:
    """The LLVM version that introduced an op, the change that did, and whether the oracle's MLIR has the op."""

    version: int
    source: str
    oracle: bool = True


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
    type_relations: tuple[TypeRelation, ...] = ()
    format: str | None = None
    successor_operands: tuple[str, ...] = ()
    since: Since | None = None
    # Effects on operands by position, for an op whose operands are not declared (a hand-written reader's).
    positional_effects: tuple[tuple[int, frozenset[str]], ...] = ()
    # The operand a result views (upstream's ViewLikeOpInterface): its name, or its position when undeclared.
    view_source: str | int | None = None
    reader: Callable[..., Any] | None = field(default=None, compare=False)
    printer: Callable[..., Any] | None = field(default=None, compare=False)

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def inherent(self) -> tuple[str, ...]:
        """Names of the inherent attributes (properties), as `getAttributeNames()`."""
        names = tuple(a.name for a in self.attributes)
        names += ("operandSegmentSizes",) if self.has("attr_sized_operands") else ()
        return names + ("resultSegmentSizes",) if self.has("attr_sized_results") else names

    def has(self, trait: str) -> bool:
        return trait in self.traits

    # Derived once, on first use (readers ask for every name of every op they read).
    @cached_property
    def operand_layout(self) -> ArgLayout | None:
        """How its operands split over the declared ones; None when they are not declared."""
        return None if self.operands is None else ArgLayout(self.operands, self.has("attr_sized_operands"))

    @cached_property
    def result_layout(self) -> ArgLayout | None:
        """How its results split over the declared ones; None when they are not declared."""
        return None if self.results is None else ArgLayout(self.results, self.has("attr_sized_results"))


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
