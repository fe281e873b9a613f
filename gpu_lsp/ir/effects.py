"""What an op does to the buffers it is given, as its declaration states it: the operands it reads,
writes or frees, the results it allocates, and the operand a view's result is part of."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.opdefs import OPS, lookup
from gpu_lsp.ir.opdefs.opdef import ALLOC, EFFECTS, FREE, READ, SINGLE, WRITE, OpDef
from gpu_lsp.ir.operands import operand_range, operand_ranges

Place = int | str  # an operand's position when the operands before it are single, else its group's name


class _Plan:
    """Where one declaration's effects lie among an op's operands and results."""

    def __init__(self, definition: OpDef) -> None:
        self.definition = definition
        self.operands: list[tuple[frozenset[str], Place]] = []
        self.results: list[tuple[frozenset[str], int]] = []
        self.view: Place | None = None
        if definition.operands is None:
            self.operands = [(effects, i) for i, effects in definition.positional_effects]
            self.view = definition.view_source
        else:
            fixed = True
            for i, arg in enumerate(definition.operands):
                if arg.effects:
                    self.operands.append((arg.effects, i if fixed else arg.name))
                if arg.name == definition.view_source:
                    self.view = i if fixed else arg.name
                fixed = fixed and arg.kind == SINGLE
        for i, arg in enumerate(definition.results or ()):
            if arg.kind != SINGLE:
                break
            if arg.effects:
                self.results.append((arg.effects, i))
        # Per effect, the places of the operands it is on, in declaration order.
        self.by_effect: dict[str, tuple[Place, ...]] = {
            effect: tuple(place for effects, place in self.operands if effect in effects) for effect in EFFECTS.values()
        }


_PLANS: dict[str, _Plan] = {}
_MEMREFS = (T.MemRefType, T.UnrankedMemRefType)


def _plan(name: str) -> _Plan | None:
    """Where the effects of the declaration of ops named `name` lie (None: undeclared); kept per name while the declaration stays."""
    definition = OPS.get(name)  # `lookup`, without a call: this runs several times per op
    if definition is None:
        return None
    plan = _PLANS.get(name)
    if plan is None or plan.definition is not definition:
        plan = _PLANS[name] = _Plan(definition)
    return plan


def _positions(op: Operation, place: Place) -> range:
    if isinstance(place, int):
        return range(place, place + 1) if place < len(op.operands) else range(0)
    return operand_range(op, place)


def _at(op: Operation, places: tuple[Place, ...]) -> list[int]:
    """The positions in `op.operands` of the operands at `places` (`_positions` of each, the groups split once)."""
    out: list[int] = []
    groups: dict[str, range] | None = None
    for place in places:
        if isinstance(place, int):
            if place < len(op.operands):
                out.append(place)
            continue
        if groups is None:
            groups = operand_ranges(op) or {}
        out.extend(groups.get(place, ()))
    return out


def operands_with(op: Operation, effect: str) -> list[int]:
    """The positions in `op.operands` of the operands `op` has `effect` on (READ, WRITE, FREE)."""
    plan = _plan(op.name)
    if plan is None:
        return []
    return _at(op, plan.by_effect.get(effect, ()))


def operand_effects(op: Operation) -> tuple[list[int], list[int], list[int]]:
    """`reads(op)`, `writes(op)` and `frees(op)` at once (the declaration looked up once)."""
    plan = _plan(op.name)
    if plan is None or not plan.operands:
        return [], [], []
    places = plan.by_effect
    return _at(op, places[READ]), _at(op, places[WRITE]), _at(op, places[FREE])


def reads(op: Operation) -> list[int]:
    """The operands whose memory `op` reads (MemRead)."""
    return operands_with(op, READ)


def writes(op: Operation) -> list[int]:
    """The operands whose memory `op` writes (MemWrite)."""
    return operands_with(op, WRITE)


def frees(op: Operation) -> list[int]:
    """The operands whose memory `op` frees (MemFree)."""
    return operands_with(op, FREE)


def may_touch(name: str) -> bool:
    """Whether an op named `name` may read, write or free an operand's memory (its declaration puts an
    effect on an operand): `touches` is false for every op of another name."""
    plan = _plan(name)
    return plan is not None and bool(plan.operands)


def touches(op: Operation) -> bool:
    """Whether `op` reads, writes or frees the memory of an operand."""
    plan = _plan(op.name)
    return plan is not None and any(_positions(op, place) for _, place in plan.operands)


def only_reads(op: Operation) -> bool:
    """Whether `op` leaves the memory it is given unwritten: it reads and neither writes nor frees,
    or it is pure and makes no memref (a size, a rank; a view's uses are the view's)."""
    read, write, free = operand_effects(op)
    if read:
        return not (write or free)
    definition = lookup(op.name)
    return definition is not None and definition.has("pure") and not any(isinstance(r.type, _MEMREFS) for r in op.results)


def allocated(op: Operation) -> list[Value]:
    """The results that are memory `op` allocates (MemAlloc)."""
    plan = _plan(op.name)
    if plan is None:
        return []
    return [op.results[i] for effects, i in plan.results if ALLOC in effects and i < len(op.results)]


def declares_effects(op: Operation) -> bool:
    """Whether `op`'s declaration states effects on some operand or result."""
    plan = _plan(op.name)
    return plan is not None and bool(plan.operands or plan.results)


def is_view(op: Operation) -> bool:
    """Whether `op`'s result views (part of) the buffer of one of its operands (ViewLikeOpInterface)."""
    plan = _plan(op.name)
    return plan is not None and plan.view is not None


def view_source(op: Operation) -> Value | None:
    """The operand whose buffer a view's result is part of (None: `op` makes no view, or lacks it)."""
    plan = _plan(op.name)
    if plan is None or plan.view is None:
        return None
    at = _positions(op, plan.view)
    return op.operands[at[0]] if len(at) == 1 else None
