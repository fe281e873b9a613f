"""The fast path before the solver: indices linear in thread and block ids, decided by ranges alone."""

from __future__ import annotations

from gpu_lsp.diagnostics.sanitizer.accesses import DIM_OPS, WORKGROUP, Access, Launch, axis_of, resolve
from gpu_lsp.ir.core import BlockArgument, OpResult, Value
from gpu_lsp.ir.traits import constant_int

# A linear form: ((symbol, coefficient), ...) sorted, and a constant; symbols are ("tid"|"bid", axis).
Linear = tuple[tuple[tuple[tuple[str, int], int], ...], int]
_CASTS = frozenset({"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"})


def _combine(a: Linear, b: Linear, sign: int) -> Linear:
    terms = dict(a[0])
    for sym, c in b[0]:
        terms[sym] = terms.get(sym, 0) + sign * c
    return tuple(sorted((s, c) for s, c in terms.items() if c)), a[1] + sign * b[1]


def _scale(a: Linear, k: int) -> Linear:
    return tuple((s, c * k) for s, c in a[0] if c * k), a[1] * k


def linear(value: Value, access: Access, launch: Launch, memo: dict, depth: int = 0) -> Linear | None:
    """`value` as a linear form of thread and block ids with known ranges, else None (memoized in `memo`)."""
    value = resolve(value, access.bindings)
    key = (id(value), id(access.bindings) if access.bindings else 0)
    if key in memo:
        return memo[key]
    found = memo[key] = _linear(value, access, launch, memo, depth)
    return found


def _linear(value: Value, access: Access, launch: Launch, memo: dict, depth: int) -> Linear | None:
    known = constant_int(value)
    if known is not None:
        return (), known
    if depth > 32:
        return None
    if isinstance(value, BlockArgument):
        role = launch.launch_args.get(value)
        param = launch.params.get(value)
        if param is not None:
            return (), param
        return _symbol(role[0], role[1], launch) if role is not None else None
    if not isinstance(value, OpResult):
        return None
    op = value.owner
    kind = DIM_OPS.get(op.name)
    if kind is not None:
        axis = axis_of(op)
        return _symbol(kind, axis, launch) if axis is not None else None
    if op.name in _CASTS and op.operands:
        return linear(op.operands[0], access, launch, memo, depth + 1)
    if op.name in ("arith.addi", "arith.subi", "arith.muli") and len(op.operands) == 2:
        a = linear(op.operands[0], access, launch, memo, depth + 1)
        b = linear(op.operands[1], access, launch, memo, depth + 1) if a is not None else None
        if a is None or b is None:
            return None
        if op.name == "arith.muli":
            if not a[0]:
                return _scale(b, a[1])
            return _scale(a, b[1]) if not b[0] else None
        return _combine(a, b, 1 if op.name == "arith.addi" else -1)
    return None


def _symbol(kind: str, axis: int, launch: Launch) -> Linear | None:
    sizes = launch.block if kind in ("tid", "bdim") else launch.grid
    size = sizes[axis]
    if size is None:
        return None
    if kind in ("bdim", "gdim"):
        return (), size
    return (((kind, axis), 1),), 0


def _range(sym: tuple[str, int], launch: Launch) -> int:
    kind, axis = sym
    size = (launch.block if kind == "tid" else launch.grid)[axis]
    return size if size is not None else 0


def in_bounds(access: Access, launch: Launch, memo: dict) -> bool:
    """Whether every thread's index lies inside the static shape, whatever path leads there."""
    if None in access.shape or not access.direct or access.offsets:
        return False
    last = len(access.indices) - 1
    for i, (index, size) in enumerate(zip(access.indices, access.shape)):
        form = linear(index, access, launch, memo)
        if form is None or size is None:
            return False
        low = high = form[1]
        for sym, c in form[0]:
            span = c * (_range(sym, launch) - 1)
            low, high = low + min(0, span), high + max(0, span)
        if low < 0 or high + (access.width - 1 if i == last else 0) >= size:
            return False
    return True


def _injective(forms: list[Linear], launch: Launch, kinds: tuple[str, ...]) -> bool:
    """Whether distinct threads (differing in the ids of `kinds`) always get distinct index tuples."""
    if any((launch.block if kind == "tid" else launch.grid)[axis] is None for kind in kinds for axis in range(3)):
        return False  # an unknown size may hold two threads that differ on any axis: the solver decides
    coefficients: dict[tuple[str, int], list[int]] = {}
    for form in forms:
        for sym, c in form[0]:
            coefficients.setdefault(sym, []).append(c)
    for kind in kinds:
        for axis in range(3):
            if _range((kind, axis), launch) > 1 and (kind, axis) not in coefficients:
                return False  # two threads differing only on this axis touch the same element
    # One dimension that encodes the ids in mixed radix is enough.
    for form in forms:
        syms = [(abs(c), _range(s, launch)) for s, c in form[0] if s[0] in kinds and _range(s, launch) > 1]
        if len(syms) != sum(1 for k in kinds for a in range(3) if _range((k, a), launch) > 1):
            continue
        reach, ok = 0, True
        for c, r in sorted(syms):
            if c <= reach:
                ok = False
                break
            reach += c * (r - 1)
        if ok:
            return True
    return False


def race_free(a: Access, b: Access, launch: Launch, memo: dict) -> bool:
    """Whether two accesses with the same linear indices never touch one element from two threads."""
    if not (a.direct and b.direct) or a.width != 1 or b.width != 1 or a.offsets or b.offsets:
        return False
    forms_a = [linear(i, a, launch, memo) for i in a.indices]
    forms_b = [linear(i, b, launch, memo) for i in b.indices]
    if None in forms_a or forms_a != forms_b:
        return False
    kinds = ("tid",) if a.space == WORKGROUP else ("tid", "bid")
    return _injective([f for f in forms_a if f is not None], launch, kinds)
