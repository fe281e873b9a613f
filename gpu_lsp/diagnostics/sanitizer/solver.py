"""The z3 side of the kernel checks: one query per access pair (a race) or access (its bounds)."""

from __future__ import annotations

import z3

from gpu_lsp.diagnostics.sanitizer.accesses import AXES, SPACES, WORKGROUP, Access, Launch
from gpu_lsp.diagnostics.sanitizer.terms import Threads
from gpu_lsp.diagnostics.sanitizer.witness import FOUND, PROVEN, QUERY_MS, UNDECIDED, OutOfBounds, Race, Witness


def _epoch(access: Access, space: str) -> tuple:
    return access.epochs[SPACES.index(space)]


def _solve(solver: z3.Solver, facts: list) -> tuple[str, z3.ModelRef | None]:
    solver.push()
    solver.add(*facts)
    result = solver.check()
    model = solver.model() if result == z3.sat else None
    solver.pop()
    return (FOUND if result == z3.sat else PROVEN if result == z3.unsat else UNDECIDED), model


def _value(model: z3.ModelRef, expr: z3.ExprRef | None) -> int:
    if expr is None:
        return 0  # an id no constraint names: any value fits, 0 does
    v = model.eval(expr, model_completion=True)
    return v.as_long() if z3.is_int_value(v) else 0


def _witness(model: z3.ModelRef, threads: Threads, element: list) -> Witness:
    ids = threads.ids
    return Witness(
        tuple(tuple(_value(model, ids[t].get(f"bid_{a}")) for a in AXES) for t in (0, 1)),  # type: ignore[arg-type]
        tuple(tuple(_value(model, ids[t].get(f"tid_{a}")) for a in AXES) for t in (0, 1)),  # type: ignore[arg-type]
        tuple(_value(model, e) for e in element),
    )


def _least(facts: list, keys: list) -> z3.ModelRef | None:
    """A model of `facts` whose `keys` are lexicographically least: the witness then depends on the
    query alone, not on what the shared solver was asked before. None when the optimiser times out."""
    opt = z3.Optimize()
    opt.set("timeout", QUERY_MS)
    opt.set(priority="lex")
    opt.add(*facts)
    for key in keys:
        opt.minimize(key)
    return opt.model() if opt.check() == z3.sat else None


class Checker:
    """Queries about the accesses of one kernel launch, sharing one solver."""

    def __init__(self, launch: Launch) -> None:
        self.threads = Threads(launch)
        self.solver = z3.Solver()
        self.solver.set("timeout", QUERY_MS)

    def solve(self, facts: list) -> tuple[str, z3.ModelRef | None]:
        """Whether `facts` hold for some threads; a found model is the least in block then thread ids."""
        th = self.threads
        state, model = _solve(self.solver, th.constraints + facts)
        if state == FOUND:
            ids = [ids[f"{kind}_{a}"] for ids in th.ids for kind in ("bid", "tid") for a in AXES if f"{kind}_{a}" in ids]
            model = _least(th.constraints + facts, ids) or model
        return state, model

    def race(self, a: Access, b: Access) -> tuple[str, Race | None]:
        """Whether two threads running `a` and `b` can touch one element unordered, with a witness."""
        th = self.threads
        ia, pa, ea = th.access(a, 0)
        ib, pb, eb = th.access(b, 1)
        same_block = z3.And(*(th.id_var(0, "bid", i) == th.id_var(1, "bid", i) for i in range(len(AXES))))
        other_thread = z3.Or(*(th.id_var(0, "tid", i) != th.id_var(1, "tid", i) for i in range(len(AXES))))
        ordered_apart = _epoch(a, a.space) != _epoch(b, b.space)
        facts = pa + pb
        # A vector access touches `width` consecutive elements along the last dimension.
        oa, ob = z3.Int("off0"), z3.Int("off1")
        facts += [oa >= 0, oa < a.width, ob >= 0, ob < b.width]
        facts += [x == y for x, y in zip(ia[:-1], ib[:-1])]
        if ia and ib:
            facts.append(ia[-1] + oa == ib[-1] + ob)
        for guard in a.guards:
            if guard.lockstep and guard in b.guards:
                va, vb = th.loop_variable(guard, 0, a.bindings), th.loop_variable(guard, 1, b.bindings)
                if va is not None and vb is not None:
                    facts.append(va == vb)
        if a.space == WORKGROUP:
            if ordered_apart:
                return PROVEN, None
            facts += [same_block, other_thread]
        elif ordered_apart:
            facts.append(z3.Not(same_block))
        else:
            facts.append(z3.Or(z3.Not(same_block), other_thread))
        state, found = self.solve(facts)
        # Two distinct threads exist only for some launch sizes unless the launch sites fix them all.
        if state == FOUND and found is not None and ea and eb and th.launch_known:
            element = [x + (oa if i == len(ia) - 1 else 0) for i, x in enumerate(ia)]
            return FOUND, Race(a, b, _witness(found, th, element))
        return (UNDECIDED if state == FOUND else state), None

    def bounds(self, a: Access) -> tuple[str, OutOfBounds | None]:
        """Whether a thread on `a`'s path indexes outside the static shape, with a witness."""
        th = self.threads
        index, path, exact = th.access(a, 0)
        outside = []
        for i, (x, size) in enumerate(zip(index, a.shape)):
            if size is None:
                continue
            last = x + (a.width - 1 if i == len(index) - 1 else 0)
            outside += [x < 0, last >= size]
        if not outside:
            return (UNDECIDED if None in a.shape else PROVEN), None
        state, found = self.solve(path + [z3.Or(*outside)])
        if state == FOUND and found is not None and exact:
            return FOUND, OutOfBounds(a, _witness(found, th, index))
        return (UNDECIDED if state == FOUND else state), None
