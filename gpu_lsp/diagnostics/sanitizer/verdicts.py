"""Races and out-of-bounds accesses of a kernel body decided with z3, each proven one with a witness."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpu_lsp.diagnostics.sanitizer.accesses import ATOMIC, READ, Access, KernelModel, Launch, kernel_model
from gpu_lsp.diagnostics.sanitizer.linear import in_bounds, race_free
from gpu_lsp.diagnostics.sanitizer.witness import FOUND, PROVEN, UNDECIDED, OutOfBounds, Race
from gpu_lsp.ir.core import Operation, Value

if TYPE_CHECKING:
    from gpu_lsp.diagnostics.sanitizer.solver import Checker

KERNEL_MS = 1500  # the budget of one kernel: what is left undecided past it stays undecided
MAX_ACCESSES = 64  # larger kernels are not analysed (their queries would outrun the budget)


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


def _conflict(a: Access, b: Access) -> bool:
    if a.root is not b.root:
        return False
    if a.kind == READ and b.kind == READ:
        return False
    return not (a.kind == ATOMIC and b.kind == ATOMIC)


class _Run:
    """One kernel's checks: the fast path first, the solver (loaded when first needed) for the rest."""

    def __init__(self, model: KernelModel, launch: Launch) -> None:
        self.model = model
        self.launch = launch
        self.out = Verdicts(model, launch)
        self.deadline = time.perf_counter() + KERNEL_MS / 1000
        self._checker: Checker | None = None
        self.memo: dict = {}  # the fast path's linear forms

    def checker(self) -> Checker | None:
        if time.perf_counter() > self.deadline:
            return None
        if self._checker is None:
            from gpu_lsp.diagnostics.sanitizer.solver import Checker

            self._checker = Checker(self.launch)
        return self._checker

    def bounds(self, a: Access) -> None:
        if a.op.name.startswith("vector.transfer"):
            return  # out-of-bounds transfers are masked, not faults
        key = id(a.op)
        if all(size is None for size in a.shape):
            self.out.bounds_state[key] = UNDECIDED  # no static size to check against
            return
        if in_bounds(a, self.launch, self.memo):
            self.out.bounds_state[key] = PROVEN
            return
        checker = self.checker()
        if checker is None:
            self.out.bounds_state[key] = UNDECIDED
            return
        state, found = checker.bounds(a)
        self.out.bounds_state[key] = state
        if found is not None:
            self.out.out_of_bounds.append(found)

    def race(self, a: Access, b: Access) -> bool:
        """Decide one pair; whether it races."""
        if race_free(a, b, self.launch, self.memo):
            state, found = PROVEN, None
        else:
            checker = self.checker()
            state, found = checker.race(a, b) if checker is not None else (UNDECIDED, None)
        for access in (a, b):
            key = id(access.op)
            if self.out.race_state.get(key) != FOUND and (state != PROVEN or key not in self.out.race_state):
                self.out.race_state[key] = state
        if found is not None:
            self.out.races.append(found)
        return found is not None

    def undecided(self, *accesses: Access) -> None:
        for a in accesses:
            if self.out.race_state.get(id(a.op)) != FOUND:
                self.out.race_state[id(a.op)] = UNDECIDED

    def run(self) -> Verdicts:
        accesses = self.model.accesses
        for a in accesses:
            self.bounds(a)
        racy: set[int] = set()
        for i, a in enumerate(accesses):
            for b in accesses[i:]:
                if not _conflict(a, b):
                    continue
                if id(a.op) in racy or id(b.op) in racy:
                    self.undecided(a, b)  # not asked: one of them already races
                    continue
                if self.race(a, b):
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
        out = _Run(model, launch).run()
    out.seconds = time.perf_counter() - start
    return out


def params_of(values: dict[Value, list[int | None]]) -> dict[Value, int]:
    """The parameters every launch site passes the same constant for."""
    return {arg: seen[0] for arg, seen in values.items() if seen and seen[0] is not None and all(s == seen[0] for s in seen)}
