"""GPU141: the constraints an op's declaration states (ODS's verifyInvariants), with upstream's messages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Stage, Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, q, rejected_by_parser
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.ir.opdefs.constraints import AttrConstraint, TypeConstraint, attr_constraint, type_constraint
from gpu_lsp.ir.opdefs.model import VARIADIC, Arg, OpDef
from gpu_lsp.ir.opdefs.opdef import TypeRelation
from gpu_lsp.ir.opdefs.relations import elementwise_problem, relation_holds, same_operands_and_result_type
from gpu_lsp.ir.opdefs.segments import operand_groups, result_groups, segment_sizes
from gpu_lsp.text import TextRange


@dataclass(frozen=True)
class _Checks:
    """What the declaration of one op lets the verifier check, in ODS's order."""

    attributes: tuple[tuple[str, AttrConstraint], ...]
    operands: tuple[tuple[str, TypeConstraint | None], ...]
    results: tuple[tuple[str, TypeConstraint | None], ...]
    # Upstream's PredOpTraits in declaration order, then its native traits (verified after OpInvariants).
    relations: tuple[TypeRelation, ...]
    same_type: bool
    elementwise: bool

    # Whether an operand's type, a result's type, or types against each other are checked
    # (what an op of the declaration is worth splitting into named groups for).
    operands_checked: bool = False
    results_checked: bool = False
    related: bool = False

    @property
    def empty(self) -> bool:
        return not (self.attributes or self.operands_checked or self.results_checked or self.related)


def _values(args: tuple[Arg, ...] | None) -> tuple[tuple[str, TypeConstraint | None], ...]:
    """Each group's constraint; a variadic group's summary is `variadic of ...`, as ODS's `Variadic<>` says."""
    out = []
    for arg in args or ():
        found = type_constraint(arg.constraint)
        if found is not None and arg.kind == VARIADIC:
            found = TypeConstraint(f"variadic of {found.summary}", found.holds)
        out.append((arg.name, None if found is None or arg.constraint == "AnyType" else found))
    return tuple(out)


# By the identity of a declaration (a project may declare an op again under the same name).
_CHECKS: dict[int, tuple[OpDef, _Checks]] = {}


def _checks(definition: OpDef) -> _Checks:
    known = _CHECKS.get(id(definition))
    if known is not None and known[0] is definition:
        return known[1]
    attributes = tuple((a.name, c) for a in definition.attributes if (c := attr_constraint(a.checked)) is not None and a.checked != "AnyAttr")
    relations = tuple(sorted(definition.type_relations, key=lambda r: r.native))
    operands, results = _values(definition.operands), _values(definition.results)
    same_type, elementwise = definition.has("same_type"), definition.has("elementwise")
    found = _Checks(
        attributes, operands, results, relations, same_type, elementwise,
        operands_checked=any(c for _, c in operands),
        results_checked=any(c for _, c in results),
        related=bool(relations) or same_type or elementwise,
    )
    _CHECKS[id(definition)] = (definition, found)
    return found


def _constrained(definition: OpDef) -> bool:
    """Whether the declaration states a constraint GPU141 can check."""
    return not _checks(definition).empty


def _dictionary_key(op: Operation, name: str, ctx: RuleContext) -> TextRange | None:
    """The `{` of the attribute dictionary that sets `name` in an op's custom form, if it does."""
    rng = op.range
    if ctx.text is None or rng is None:
        return None
    key = re.compile(rf"\b{re.escape(name)}\s*=").search(ctx.text, rng.start, rng.end)
    brace = ctx.text.rfind("{", rng.start, key.start()) if key else -1
    return TextRange(brace, brace + 1) if brace >= 0 else None


def _attribute_violation(
    op: Operation, name: str, constraint: AttrConstraint, ctx: RuleContext, formatted: bool, passed: dict[tuple[int, int], Attribute]
) -> Violation | None:
    attr = op.attributes.get(name, op.properties.get(name))
    if attr is None:
        return None
    # An attribute object the constraint held for holds again (the parser makes one object of a
    # keyword's attribute, `#gpu<dim x>`, and a default one; each key keeps its attribute alive).
    key = (id(constraint), id(attr))
    if passed.get(key) is attr:
        return None
    if constraint.holds(attr):
        passed[key] = attr
        return None
    if rejected_by_parser(attr):
        return None
    message = op_error(op, f"attribute '{name}' failed to satisfy constraint: {constraint.summary}")
    written = _dictionary_key(op, name, ctx) if formatted and not op.generic else None
    if written is None:
        return Violation(message, at(op))
    # The parser of a declared format checks an attribute of the dictionary while it builds the op's
    # properties (a hand-written parser leaves it to the verifier).
    return Violation(f"custom op '{op.name}' {message}", written)


def _value_violation(
    op: Operation,
    what: str,
    checks: tuple[tuple[str, TypeConstraint | None], ...],
    groups: dict[str, list] | None,
    mistyped: frozenset[int] = frozenset(),
) -> Violation | None:
    if groups is None:
        return None
    index = 0
    for name, constraint in checks:
        values: Sequence[Value] = groups.get(name, ())
        for value in values:
            ty = value.type
            if constraint is not None and index not in mistyped and not isinstance(ty, T.UnknownType) and not constraint.holds(ty):
                return Violation(op_error(op, f"{what} #{index} must be {constraint.summary}, but got {q(ty)}"), at(op))
            index += 1
    return None


def _types(groups: dict[str, list] | None, mistyped: frozenset[int] = frozenset()) -> dict[str, tuple[T.Type, ...]]:
    """The types of each named group; an operand used with another type than its definition's is of unknown type."""
    out: dict[str, tuple[T.Type, ...]] = {}
    index = 0
    for name, values in (groups or {}).items():
        out[name] = tuple(T.UNKNOWN if index + k in mistyped else v.type for k, v in enumerate(values))
        index += len(values)
    return out


def _relation_violation(op: Operation, checks: _Checks, operands: dict[str, list] | None, results: dict[str, list] | None) -> Violation | None:
    """The first type relation the op's values break (upstream's trait order), with upstream's message."""
    mistyped = op.facts.mistyped
    operand_types = [T.UNKNOWN if i in mistyped else v.type for i, v in enumerate(op.operands)] if mistyped else [v.type for v in op.operands]
    result_types = [r.type for r in op.results]
    types = {**_types(operands, mistyped), **_types(results)} if checks.relations else {}
    for relation in checks.relations:
        if not relation_holds(relation, types, operand_types, result_types):
            message = relation.description if relation.native else f"failed to verify that {relation.description}"
            return Violation(op_error(op, message), at(op))
    if checks.same_type and not same_operands_and_result_type(operand_types, result_types):
        return Violation(op_error(op, "requires the same type for all operands and results"), at(op))
    problem = elementwise_problem(operand_types, result_types) if checks.elementwise else None
    return Violation(op_error(op, problem), at(op)) if problem is not None else None


# The ctx.cache key of the attributes (by constraint and attribute object) their constraint held for.
_HELD = ("op_constraint.held",)
# The ctx.cache key of the typings (`violations`' key, to the op that passed) whose values passed their checks.
_PASSED = ("op_constraint.passed",)


def violation(op: Operation, definition: OpDef, ctx: RuleContext) -> Violation | None:
    """The first broken constraint of `op`'s declaration: attributes, operands, results, then type relations.

    An operand whose use GPU005 reports (written with another type than its definition's) is not
    checked again: its type here is the definition's, not the one the op was written with. Nor is an
    attribute whose value the parser rejected (GPU122, GPU123): upstream reports that error alone.
    """
    checks = _checks(definition)
    if checks.attributes:
        held = ctx.cache.get(_HELD)
        if held is None:
            held = ctx.cache[_HELD] = {}
        for name, constraint in checks.attributes:
            found = _attribute_violation(op, name, constraint, ctx, definition.format is not None, held)
            if found is not None:
                return found
    if not (checks.operands_checked or checks.results_checked or checks.related):
        return None
    # The values' checks read their types and how they split into groups only: an op of the chunk
    # with the same name, types and segment sizes that passed them passes. The types are told by
    # identity (the parser makes one object of each type it reads: hashing them, field by field,
    # cost more than the check); each key keeps the op that passed, whose values keep those types,
    # so that no other type takes their ids.
    key = (op.name, op.facts.mistyped, segment_sizes(definition, op), tuple([id(v.type) for v in op.operands]), tuple([id(r.type) for r in op.results]))
    passed = ctx.cache.get(_PASSED)
    if passed is None:
        passed = ctx.cache[_PASSED] = {}
    if key in passed:
        return None
    # The named groups, where a check reads them (a type relation names its values).
    named = bool(checks.relations)
    operands = operand_groups(definition, op) if named or checks.operands_checked else None
    results = result_groups(definition, op) if named or checks.results_checked else None
    found = _value_violation(op, "operand", checks.operands, operands, op.facts.mistyped) if checks.operands_checked else None
    if found is None and checks.results_checked:
        found = _value_violation(op, "result", checks.results, results)
    if found is None and checks.related:
        found = _relation_violation(op, checks, operands, results)
    if found is None:
        passed[key] = op
    return found


@rule("GPU141", "op-constraint", Severity.ERROR, declared=_constrained, upstream=True, stage=Stage.INVARIANTS)
def op_constraint(op: Operation, ctx: RuleContext) -> Iterable[Violation]:
    """
    ## What it does
    Checks what an op's declaration constrains, as upstream's generated verifier does before
    the op's own checks: each attribute's kind and value (`alignment` of `memref.alloc` is
    a positive power of two of type `i64`, `leadDimension` of the MMA loads an `index`),
    then each operand's and each result's type (`gpu.shuffle` shuffles an integer, float or
    1-D vector of them; `memref.load` reads a memref), then the relations between those
    types its traits state (`gpu.shuffle` returns the type it shuffles: AllTypesMatch;
    `memref.load` the memref's element type: TypesMatchWith; SameTypeOperands;
    SameOperandsAndResultType). Reports upstream's `'<op>' op operand #N must be
    <constraint>, but got '<type>'`, `attribute '<name>' failed to satisfy constraint:
    <constraint>` (for an attribute of a declared format's dictionary at the dictionary, as
    upstream's generated parser does), `failed to verify that all of {value, shuffleResult} have same
    type` and `requires the same type for all operands and results`.

    ## Why is this bad?
    Upstream rejects the op: a value of the wrong type, or an attribute of the wrong kind
    (`32 : i32` where `32 : index` is required; an untyped `32` is `i64`) or value, is not
    what the op is defined on.

    ## Example
    ```mlir
    %v, %ok = gpu.shuffle xor %i, %offset, %width : index
    %x = "memref.load"(%m, %j) : (memref<4xf32>, index) -> f16
    ```
    Use instead: shuffle an `i32` or `i64` (`arith.index_cast` first); load an `f32`.

    ## Fix safety
    There is no fix: the intended type or value is for the author to choose.

    ## References
    - [Operation definition constraints](https://mlir.llvm.org/docs/DefiningDialects/Operations/#constraints)
    - [`gpu.shuffle`](https://mlir.llvm.org/docs/Dialects/GPU/#gpushuffle-gpushuffleop)
    """
    definition = lookup(op.name)
    found = violation(op, definition, ctx) if definition is not None else None
    # A tuple, not a generator: the check runs for nearly every op and almost always finds nothing.
    return () if found is None else (found,)
