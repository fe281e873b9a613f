"""Races and out-of-bounds accesses of a kernel body decided with z3, each proven one with a witness."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from gpu_lsp.diagnostics.sanitizer.accesses import ATOMIC, GLOBAL, READ, SPACES, WORKGROUP, Access, KernelModel, kernel_model
from gpu_lsp.diagnostics.sanitizer.terms import AXES, Launch, Threads
from gpu_lsp.ir.core import Operation, Value

QUERY_MS = 200  # z3's time limit per query; an undecided query is never a warning
KERNEL_MS = 1500  # the budget of one kernel: what is left undecided past it stays undecided
MAX_ACCESSES = 64  # larger kernels are not analysed (their queries would outrun the budget)
PROVEN, FOUND, UNDECIDED = "proven", "found", "undecided"


@dataclass(frozen=True)
class Witness:
    """Two threads (block and thread ids), the element they both touch, and the symbols it needs."""

    blocks: tuple[tuple[int, ...], tuple[int, ...]]
    threads: tuple[tuple[int, ...], tuple[int, ...]]
    element: tuple[int, ...]

    def thread(self, t: int) -> str:
        return f"thread ({', '.join(map(str, self.threads[t]))}) of block ({', '.join(map(str, self.blocks[t]))})"


@dataclass(frozen=True)
class Race:
    """Two accesses of one buffer, unordered, touching the same element, at least one writing."""

    first: Access
    second: Access
    witness: Witness


@dataclass(frozen=True)
class OutOfBounds:
    """An access whose index leaves the buffer's shape for some thread."""

    access: Access
    witness: Witness


@dataclass
class Verdicts:
    """What the solver decided about one kernel body."""

    model: KernelModel
    launch: Launch
    races: list[Race] = field(default_factory=list)
    out_of_bounds: list[OutOfBounds] = field(default_factory=list)
    race_state: dict[int, str] = field(default_factory=dict)  # id(access op) -> PROVEN / FOUND / UNDECIDED
    bounds_state: dict[int, str] = field(default_factory=dict)
    seconds: float = 0.0


def _epoch(access: Access, space: str) -> tuple:
    return access.epochs[SPACES.index(space)]


def _conflict(a: Access, b: Access) -> bool:
    if a.root is not b.root:
        return False
    if a.kind == READ and b.kind == READ:
        return False
    return not (a.kind == ATOMIC and b.kind == ATOMIC)


def _solve(solver: z3.Solver, facts: list) -> tuple[str, z3.ModelRef | None]:
    solver.push()
    solver.add(*facts)
    result = solver.check()
    model = solver.model() if result == z3.sat else None
    solver.pop()
    return (FOUND if result == z3.sat else PROVEN if result == z3.unsat else UNDECIDED), model


def _value(model: z3.ModelRef, expr: z3.ExprRef) -> int:
    v = model.eval(expr, model_completion=True)
    return v.as_long() if z3.is_int_value(v) else 0


def _witness(model: z3.ModelRef, threads: Threads, element: list) -> Witness:
    ids = threads.ids
    return Witness(
        tuple(tuple(_value(model, ids[t][f"bid_{a}"]) for a in AXES) for t in (0, 1)),  # type: ignore[arg-type]
        tuple(tuple(_value(model, ids[t][f"tid_{a}"]) for a in AXES) for t in (0, 1)),  # type: ignore[arg-type]
        tuple(_value(model, e) for e in element),
    )


class _Checker:
    def __init__(self, model: KernelModel, launch: Launch) -> None:
        self.model = model
        self.threads = Threads(launch)
        self.solver = z3.Solver()
        self.solver.set("timeout", QUERY_MS)
        self.solver.add(*self.threads.constraints)
        self.out = Verdicts(model, launch)
        self.deadline = time.perf_counter() + KERNEL_MS / 1000

    def over_budget(self) -> bool:
        return time.perf_counter() > self.deadline

    def race(self, a: Access, b: Access) -> None:
        th = self.threads
        ia, pa, ea = th.access(a, 0)
        ib, pb, eb = th.access(b, 1)
        ids0, ids1 = th.ids
        same_block = z3.And(*(ids0[f"bid_{x}"] == ids1[f"bid_{x}"] for x in AXES))
        other_thread = z3.Or(*(ids0[f"tid_{x}"] != ids1[f"tid_{x}"] for x in AXES))
        ordered_apart = _epoch(a, a.space) != _epoch(b, b.space)
        facts = pa + pb
        # A vector access touches `width` consecutive elements along the last dimension.
        oa, ob = z3.Int("off0"), z3.Int("off1")
        facts += [oa >= 0, oa < a.width, ob >= 0, ob < b.width]
        facts += [x == y for x, y in zip(ia[:-1], ib[:-1])]
        facts.append(ia[-1] + oa == ib[-1] + ob)
        for guard in a.guards:
            if guard.lockstep and guard in b.guards:
                va, vb = th.loop_variable(guard, 0, a.bindings), th.loop_variable(guard, 1, b.bindings)
                if va is not None and vb is not None:
                    facts.append(va == vb)
        if a.space == WORKGROUP:
            if ordered_apart:
                return
            facts += [same_block, other_thread]
        elif ordered_apart:
            facts.append(z3.Not(same_block))
        else:
            facts.append(z3.Or(z3.Not(same_block), other_thread))
        state, found = _solve(self.solver, facts)
        exact = ea and eb
        if state == FOUND and not exact:
            state = UNDECIDED
        for access in (a, b):
            key = id(access.op)
            if self.out.race_state.get(key) != FOUND and (state != PROVEN or key not in self.out.race_state):
                self.out.race_state[key] = state
        if state == FOUND and found is not None:
            element = [x + (oa if i == len(ia) - 1 else 0) for i, x in enumerate(ia)]
            self.out.races.append(Race(a, b, _witness(found, th, element)))

    def bounds(self, a: Access) -> None:
        if a.op.name.startswith("vector.transfer"):
            return  # out-of-bounds transfers are masked, not faults
        th = self.threads
        index, path, exact = th.access(a, 0)
        outside = []
        for i, (x, size) in enumerate(zip(index, a.shape)):
            if size is None:
                continue
            last = x + (a.width - 1 if i == len(index) - 1 else 0)
            outside += [x < 0, last >= size]
        if not outside:
            self.out.bounds_state[id(a.op)] = UNDECIDED if None in a.shape else PROVEN
            return
        state, found = _solve(self.solver, path + [z3.Or(*outside)])
        if state == FOUND and not exact:
            state = UNDECIDED
        self.out.bounds_state[id(a.op)] = state
        if state == FOUND and found is not None:
            self.out.out_of_bounds.append(OutOfBounds(a, _witness(found, th, index)))

    def undecided(self, *accesses: Access) -> None:
        for a in accesses:
            if self.out.race_state.get(id(a.op)) != FOUND:
                self.out.race_state[id(a.op)] = UNDECIDED

    def run(self) -> Verdicts:
        accesses = self.model.accesses
        for a in accesses:
            if self.over_budget():
                self.out.bounds_state.setdefault(id(a.op), UNDECIDED)
            else:
                self.bounds(a)
        racy: set[int] = set()
        for i, a in enumerate(accesses):
            for b in accesses[i:]:
                if not _conflict(a, b):
                    continue
                if id(a.op) in racy or id(b.op) in racy or self.over_budget():
                    self.undecided(a, b)  # not asked: one of them already races, or no time is left
                    continue
                self.race(a, b)
                if self.out.races and self.out.races[-1].first is a and self.out.races[-1].second is b:
                    racy.update((id(a.op), id(b.op)))
        for a in accesses:
            state = self.out.race_state.setdefault(id(a.op), PROVEN)
            if state == PROVEN and not self.model.complete:
                self.out.race_state[id(a.op)] = UNDECIDED  # a call it could not follow may touch the buffer
        return self.out


def check_kernel(kernel: Operation, launch: Launch, callee: Callable[[Operation], Operation | None]) -> Verdicts:
    """The races and out-of-bounds accesses of a kernel body, proven or refuted per access."""
    start = time.perf_counter()
    model = kernel_model(kernel, callee)
    if len(model.accesses) > MAX_ACCESSES:
        out = Verdicts(model, launch)
    else:
        out = _Checker(model, launch).run()
    out.seconds = time.perf_counter() - start
    return out


def params_of(values: dict[Value, list[int | None]]) -> dict[Value, int]:
    """The parameters every launch site passes the same constant for."""
    return {arg: seen[0] for arg, seen in values.items() if seen and seen[0] is not None and all(s == seen[0] for s in seen)}


__all__ = ["GLOBAL", "WORKGROUP", "Launch", "Race", "OutOfBounds", "Verdicts", "Witness", "check_kernel", "params_of"]
