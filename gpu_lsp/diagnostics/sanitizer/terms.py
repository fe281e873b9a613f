"""Index expressions and path conditions of a kernel's accesses as z3 terms, per thread of a pair."""

from __future__ import annotations

from dataclasses import dataclass

import z3

from gpu_lsp.diagnostics.sanitizer.accesses import AXES, COMPARE, DIM_OPS, Access, Guard, Launch, axis_of, predicate_name, resolve
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.core import BlockArgument, Operation, OpResult, Value
from gpu_lsp.ir.traits import constant_int


@dataclass(frozen=True)
class Term:
    """A z3 term and whether it is exact: false when it holds an unknown value or a symbolic parameter."""

    expr: z3.ExprRef
    exact: bool


class Threads:
    """Builds the terms of two threads (0 and 1) of one kernel launch."""

    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self.cache: dict[tuple[int, int, int], Term] = {}
        self.fresh = 0
        self.shared: dict[str, z3.ArithRef] = {}
        self.constraints: list[z3.BoolRef] = []
        self.ids: list[dict[str, z3.ArithRef]] = [{}, {}]
        self.launch_known = None not in launch.block and None not in launch.grid

    def id_var(self, t: int, kind: str, axis: int) -> z3.ArithRef:
        """The variable of a thread or block id of thread `t`, bounded by its size when first used."""
        key = f"{kind}_{AXES[axis]}"
        var = self.ids[t].get(key)
        if var is None:
            var = self.ids[t][key] = z3.Int(f"{kind}{t}_{AXES[axis]}")
            size = self.size("bdim" if kind == "tid" else "gdim", axis)
            self.constraints += [var >= 0, var < size.expr]
        return var

    def size(self, kind: str, axis: int) -> Term:
        """A block or grid size: the launch sites' constant, else a positive symbol."""
        known = (self.launch.block if kind == "bdim" else self.launch.grid)[axis]
        if known is not None:
            return Term(z3.IntVal(known), True)
        key = f"{kind}_{AXES[axis]}"
        var = self.shared.get(key)
        if var is None:
            var = self.shared[key] = z3.Int(key)
            self.constraints.append(var >= 1)
            bound = self.launch.size_bounds.get((kind, axis))
            if bound is not None:
                self.constraints.append(var <= bound)
        return Term(var, False)

    def unknown(self, t: int) -> Term:
        self.fresh += 1
        return Term(z3.Int(f"u{t}_{self.fresh}"), False)

    def term(self, value: Value, t: int, bindings: dict[Value, Value]) -> Term:
        """`value` as thread `t` computes it."""
        value = resolve(value, bindings)
        key = (id(value), t, id(bindings) if bindings else 0)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._term(value, t, bindings)
        return found

    def _term(self, value: Value, t: int, bindings: dict[Value, Value]) -> Term:
        known = constant_int(value)
        if known is not None:
            if isinstance(value.type, T.IntegerType) and value.type.width == 1:
                return Term(z3.BoolVal(bool(known)), True)
            return Term(z3.IntVal(known), True)
        if isinstance(value, BlockArgument):
            return self._argument(value, t)
        if not isinstance(value, OpResult):
            return self.unknown(t)
        op = value.owner
        name = op.name
        if name in DIM_OPS:
            return self._dim(op, DIM_OPS[name], t)
        if name == "gpu.global_id":
            axis = axis_of(op)
            if axis is None:
                return self.unknown(t)
            tid, bid, size = self.thread_id(t, "tid", axis), self.thread_id(t, "bid", axis), self.size("bdim", axis)
            return Term(bid.expr * size.expr + tid.expr, tid.exact and bid.exact)
        if name == "arith.constant":
            attr = op.properties.get("value") or op.attributes.get("value")
            if isinstance(attr, IntegerAttr) and isinstance(attr.value, bool):
                return Term(z3.BoolVal(attr.value), True)
            return self.unknown(t)
        if name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci") and op.operands:
            return self.term(op.operands[0], t, bindings)
        if name == "arith.cmpi" and len(op.operands) == 2:
            return self._compare(op, t, bindings)
        if name == "arith.select" and len(op.operands) == 3:
            c, a, b = (self.term(v, t, bindings) for v in op.operands)
            if _sorts_match(a, b) and z3.is_bool(c.expr):
                return Term(z3.If(c.expr, a.expr, b.expr), c.exact and a.exact and b.exact)
            return self.unknown(t)
        if len(op.operands) == 2 and name in _BINARY:
            a, b = (self.term(v, t, bindings) for v in op.operands)
            built = _BINARY[name](a.expr, b.expr)
            if built is not None:
                return Term(built, a.exact and b.exact)
        return self.unknown(t)

    def _argument(self, value: BlockArgument, t: int) -> Term:
        param = self.launch.params.get(value)
        if param is not None:
            return Term(z3.IntVal(param), True)
        role = self.launch.launch_args.get(value)
        if role is not None:
            kind, axis = role
            if kind in ("tid", "bid"):
                return self.thread_id(t, kind, axis)
            return self.size(kind, axis)
        owner = value.owner.parent_op
        if owner is not None and owner.name == "scf.for" and value.index == 0:
            return Term(z3.Int(f"iv{t}_{id(value)}"), True)  # its range is the loop's guard
        if owner is not None and owner.name == "scf.while" and len(owner.regions) == 2 and value.owner in owner.regions[1].blocks:
            return Term(z3.Int(f"w{t}_{id(value)}"), True)  # its values are the loop's guard
        if owner is not None and owner.name in ("gpu.func", "func.func"):
            var = self.shared.get(f"p_{id(value)}")
            if var is None:
                var = self.shared[f"p_{id(value)}"] = z3.Int(f"p_{id(value)}")
            return Term(var, False)  # a symbolic parameter, the same for every thread
        return self.unknown(t)

    def _dim(self, op: Operation, kind: str, t: int) -> Term:
        axis = axis_of(op)
        if axis is None:
            return self.unknown(t)
        if kind in ("tid", "bid"):
            return self.thread_id(t, kind, axis)
        return self.size(kind, axis)

    def thread_id(self, t: int, kind: str, axis: int) -> Term:
        """A thread or block id of thread `t`: exact when the launch sites fix its range."""
        size = self.size("bdim" if kind == "tid" else "gdim", axis)
        return Term(self.id_var(t, kind, axis), size.exact)

    def _compare(self, op: Operation, t: int, bindings: dict[Value, Value]) -> Term:
        name = predicate_name(op)
        a, b = (self.term(v, t, bindings) for v in op.operands)
        if name is None or not (z3.is_int(a.expr) and z3.is_int(b.expr)):
            return self.unknown_bool(t)
        return Term(COMPARE[name](a.expr, b.expr), a.exact and b.exact)

    def unknown_bool(self, t: int) -> Term:
        self.fresh += 1
        return Term(z3.Bool(f"c{t}_{self.fresh}"), False)

    def guard(self, guard: Guard, t: int, bindings: dict[Value, Value]) -> tuple[list[z3.BoolRef], bool]:
        """The constraints a step of the path puts on thread `t`, and whether they are exact."""
        op = guard.op
        if guard.kind == "if" and op.operands:
            cond = self.term(op.operands[0], t, bindings)
            if not z3.is_bool(cond.expr):
                return [], False
            return [cond.expr if guard.taken else z3.Not(cond.expr)], cond.exact
        if guard.kind == "for" and len(op.operands) >= 3 and op.regions and op.regions[0].blocks:
            iv = op.regions[0].blocks[0].arguments[0] if op.regions[0].blocks[0].arguments else None
            if iv is None:
                return [], False
            lb, ub, step = (self.term(v, t, bindings) for v in op.operands[:3])
            var = self.term(iv, t, bindings).expr
            if not all(z3.is_int(x.expr) for x in (lb, ub, step)):
                return [], False
            out = [var >= lb.expr, var < ub.expr]
            if not (z3.is_int_value(step.expr) and step.expr.as_long() == 1):
                k = self.unknown(t).expr
                out += [k >= 0, var == lb.expr + k * step.expr]
            return out, lb.exact and ub.exact and step.exact
        if guard.kind == "while" and len(op.regions) == 2 and op.regions[1].blocks:
            args = op.regions[1].blocks[0].arguments
            trip = self.trip(guard, t)
            values = [self.term(a, t, bindings).expr for a in args]
            return [trip >= 0, trip < len(guard.iterations), z3.Or(*(
                z3.And(trip == k, *(v == x for v, x in zip(values, tuple_))) for k, tuple_ in enumerate(guard.iterations)
            ))], True
        return [], False

    def trip(self, guard: Guard, t: int) -> z3.ArithRef:
        """Which trip of a while loop thread `t` is in."""
        return z3.Int(f"trip{t}_{id(guard.op)}")

    def access(self, access: Access, t: int) -> tuple[list[z3.ArithRef], list[z3.BoolRef], bool]:
        """The indices thread `t` uses in `access`, its path constraints, and whether all are exact."""
        exact = access.direct
        indices = []
        for d, v in enumerate(access.indices):
            term = self.term(v, t, access.bindings)
            if not z3.is_int(term.expr):
                term = self.unknown(t)
            expr = term.expr
            exact = exact and term.exact
            for part in access.offsets[d] if access.offsets else ():
                offset = Term(z3.IntVal(part), True) if isinstance(part, int) else self.term(part, t, access.bindings)
                expr = expr + offset.expr if z3.is_int(offset.expr) else self.unknown(t).expr
                exact = exact and offset.exact and z3.is_int(offset.expr)
            indices.append(expr)
        path: list[z3.BoolRef] = []
        for g in access.guards:
            cons, ok = self.guard(g, t, access.bindings)
            path += cons
            exact = exact and ok
        return indices, path, exact

    def loop_variable(self, guard: Guard, t: int, bindings: dict[Value, Value]) -> z3.ArithRef | None:
        """The induction variable of a loop guard (a while loop's trip), for thread `t`."""
        if guard.kind == "while":
            return self.trip(guard, t)
        body = guard.op.regions[0].blocks[0] if guard.op.regions and guard.op.regions[0].blocks else None
        if body is None or not body.arguments:
            return None
        return self.term(body.arguments[0], t, bindings).expr


def _sorts_match(a: Term, b: Term) -> bool:
    return (z3.is_int(a.expr) and z3.is_int(b.expr)) or (z3.is_bool(a.expr) and z3.is_bool(b.expr))


def _shift(a, b, left: bool):
    if not (z3.is_int(a) and z3.is_int_value(b)) or not 0 <= b.as_long() < 64:
        return None
    factor = 2 ** b.as_long()
    return a * factor if left else a / factor


def _mask(a, b):
    if z3.is_int(a) and z3.is_int_value(b):
        m = b.as_long()
        if m >= 0 and (m + 1) & m == 0:
            return a % (m + 1)
    return None


def _both_int(f):
    return lambda a, b: f(a, b) if z3.is_int(a) and z3.is_int(b) else None


def _both_bool(f):
    return lambda a, b: f(a, b) if z3.is_bool(a) and z3.is_bool(b) else None


_BINARY = {
    "arith.addi": _both_int(lambda a, b: a + b),
    "arith.subi": _both_int(lambda a, b: a - b),
    "arith.muli": _both_int(lambda a, b: a * b),
    "arith.divui": _both_int(lambda a, b: a / b),
    "arith.divsi": _both_int(lambda a, b: a / b),
    "arith.floordivsi": _both_int(lambda a, b: a / b),
    "arith.ceildivui": _both_int(lambda a, b: (a + b - 1) / b),
    "arith.remui": _both_int(lambda a, b: a % b),
    "arith.remsi": _both_int(lambda a, b: a % b),
    "arith.minsi": _both_int(lambda a, b: z3.If(a < b, a, b)),
    "arith.minui": _both_int(lambda a, b: z3.If(a < b, a, b)),
    "arith.maxsi": _both_int(lambda a, b: z3.If(a > b, a, b)),
    "arith.maxui": _both_int(lambda a, b: z3.If(a > b, a, b)),
    "arith.shli": lambda a, b: _shift(a, b, True),
    "arith.shrui": lambda a, b: _shift(a, b, False),
    "arith.shrsi": lambda a, b: _shift(a, b, False),
    "arith.andi": lambda a, b: _both_bool(z3.And)(a, b) if z3.is_bool(a) else _mask(a, b),
    "arith.ori": _both_bool(z3.Or),
    "arith.xori": _both_bool(z3.Xor),
}
