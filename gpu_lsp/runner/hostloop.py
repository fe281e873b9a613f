"""Host `scf.for` loops whose iterations are independent, run as NumPy array operations.

A loop qualifies when its body holds only scalar arith, math, `affine.apply`/`min`/`max`,
`memref.load`/`store`/`dim` and `scf.if`; every store writes, through an identity-layout
memref, an index that is affine in the induction variable with a non-zero coefficient (so
iterations write distinct elements); every other access to a stored buffer uses the same memref value and the same
indices; and each `iter_args` value only feeds one associative combination (addi, mulf,
maximumf, ...) whose result is all the iteration yields. The iterations then run as the
lanes of a one-block thread space (the kernel engine, with host memory rules), chunk by
chunk; float sums and products are accumulated in iteration order, so results are those
of the scalar loop. On an error the loop is run again scalar, for the scalar message.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.runner.elementwise import float_binary, integer_binary
from gpu_lsp.runner.errors import RunError, RunTimeout
from gpu_lsp.runner.interp import Ctx, Env, Interpreter
from gpu_lsp.runner.lanes import TX, Lin, Space, materialize
from gpu_lsp.runner.memory import Access, MemRef

CHUNK = 1 << 20
MIN_TRIPS = 16
_BODY_OPS = frozenset({"memref.load", "memref.store", "memref.dim", "affine.apply", "affine.min", "affine.max"})
_INT_COMBINE = frozenset({"addi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"})
_FLOAT_COMBINE = frozenset({"addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf"})
_ORDERED = {"addf": np.add, "mulf": np.multiply}
_AFFINE_CASTS = frozenset({"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"})


class Plan:
    """What the static analysis of one loop found: its reductions and memory accesses."""

    __slots__ = ("body", "reductions", "accesses")

    def __init__(self, body: list[Operation], reductions: list[tuple[Operation, Value]], accesses: list[tuple[Value, tuple, bool]]) -> None:
        self.body = body  # the ops before the yield
        self.reductions = reductions  # per iter_arg, (the op combining it, the iter_arg)
        self.accesses = accesses  # (memref value, indices, is_store)


def plan_of(loop: Operation) -> Plan | None:
    """The loop's plan, or None when it must run scalar."""
    if loop.get_attr("unsignedCmp") is not None:
        return None
    block = loop.regions[0].blocks[0]
    iv, *carried = block.arguments
    ops = list(block.operations)
    yielded = list(ops.pop().operands) if ops and ops[-1].name == "scf.yield" else []
    inside: set[int] = set()
    accesses: list[tuple[Value, tuple, bool]] = []
    for op in _walk(ops):
        inside.update(id(r) for r in op.results)
        dialect = op.name.partition(".")[0]
        if op.name in ("scf.if", "scf.yield"):  # the body's own yield is not walked
            continue
        if op.regions or not (dialect in ("arith", "math") or op.name in _BODY_OPS):
            return None
        if any(isinstance(v.type, T.VectorType) for v in list(op.operands) + list(op.results)):
            return None
        if op.name == "memref.load":
            accesses.append((op.operands[0], tuple(op.operands[1:]), False))
        elif op.name == "memref.store":
            accesses.append((op.operands[1], tuple(op.operands[2:]), True))
    reductions = _reductions(ops, carried, yielded)
    if reductions is None:
        return None
    coefficient = _affine(iv, inside)
    for _mem, idx, store in accesses:
        if store and not any(coefficient(v) not in (None, 0) for v in idx):
            return None
    return Plan(ops, reductions, accesses)


def _walk(ops: list[Operation]):
    for op in ops:
        yield op
        for region in op.regions:
            for block in region.blocks:
                yield from _walk(block.operations)


def _reductions(ops: list[Operation], carried: Sequence[Value], yielded: Sequence[Value]) -> list[tuple[Operation, Value]] | None:
    """For each iter_arg, the top-level op `acc = combine(arg, x)` that the yield returns."""
    if len(yielded) != len(carried):
        return None
    out = []
    for arg, value in zip(carried, yielded):
        op = getattr(value, "owner", None)
        if op is None or op not in ops or len(arg.uses) != 1 or arg.uses[0].owner is not op or len(value.uses) != 1:
            return None
        name = op.name.partition(".")[2]
        dt_name = str(value.type)
        combines = name in _INT_COMBINE or (name in _FLOAT_COMBINE and dt_name in ("f16", "f32", "f64"))
        if combines and list(op.operands).count(arg) == 1:
            out.append((op, arg))
            continue
        return None
    return out


def _affine(iv: Value, inside: set[int]):
    """`coefficient(v)`: v = c * iv + (loop-invariant), c an int; None when not affine."""
    memo: dict[int, int | None] = {}

    def coefficient(v: Value) -> int | None:
        if v is iv:
            return 1
        if id(v) not in inside:
            return 0
        if id(v) in memo:
            return memo[id(v)]
        memo[id(v)] = None
        op = v.defining_op
        if op is None:  # a block argument of a nested region
            return None
        out: int | None = None
        ins = [coefficient(x) for x in op.operands]
        known = [c for c in ins if c is not None]
        if op.name == "arith.constant":
            out = 0
        elif op.name in ("arith.addi", "arith.subi") and len(known) == len(ins):
            out = known[0] + known[1] if op.name == "arith.addi" else known[0] - known[1]
        elif op.name == "arith.muli" and len(known) == len(ins):
            consts = [_int_constant(x) for x in op.operands]
            if known[0] == 0 and known[1] == 0:
                out = 0
            elif consts[1] is not None:
                out = known[0] * consts[1]
            elif consts[0] is not None:
                out = known[1] * consts[0]
        elif op.name in _AFFINE_CASTS:
            out = ins[0]
        elif ins and all(c == 0 for c in ins) and not op.regions and op.name != "memref.load":
            out = 0
        memo[id(v)] = out
        return out

    return coefficient


def _int_constant(v: Value) -> int | None:
    op = v.defining_op  # a block argument (the induction variable) is not a constant
    if op is None or op.name != "arith.constant":
        return None
    value = getattr(op.get_attr("value"), "value", None)
    return value if isinstance(value, int) else None


def independent(plan: Plan, env: Env) -> bool:
    """No two accesses of a stored buffer in the body touch different elements of one iteration."""
    stored: dict[int, tuple[Value, tuple[Value, ...]]] = {}
    for mem_value, idx, store in plan.accesses:
        if store:
            mem = env.get(mem_value)
            if not isinstance(mem, MemRef) or not mem.identity_strides():
                return False
            stored.setdefault(id(mem.buf), (mem_value, idx))
    for mem_value, idx, _store in plan.accesses:
        mem = env.get(mem_value)
        if not isinstance(mem, MemRef):
            return False
        first = stored.get(id(mem.buf))
        if first is not None and first != (mem_value, idx):
            return False
    return True


def run_vectorised(it: Interpreter, loop: Operation, env: Env, ctx: Ctx, lo: int, hi: int, st: int, inits: list, dt) -> list | None:
    """The loop's results, or None when it must run scalar (nothing ran, or an error that the scalar run reports)."""
    if ctx.device or ctx.space is not None or (hi - lo + st - 1) // st < MIN_TRIPS:
        return None
    plans = it.loop_plans  # by id: the program outlives the run
    if id(loop) not in plans:
        plans[id(loop)] = plan_of(loop)
    plan = plans[id(loop)]
    if not isinstance(plan, Plan) or not independent(plan, env):
        return None
    trips = (hi - lo + st - 1) // st
    block = loop.regions[0].blocks[0]
    skip = {id(op) for op, _arg in plan.reductions}
    values = list(inits)
    try:
        for first in range(0, trips, CHUNK):
            count = min(CHUNK, trips - first)
            space = Space((1, 1, 1), (count, 1, 1), 0, 1)
            lane_ctx = Ctx(space, False, Access(space, False, it.locator.where))
            lane_ctx.allocas = ctx.allocas
            lanes = Env(env)
            start = lo + first * st
            iv = Lin(start, tuple(st if k == TX else 0 for k in range(6)), dt)
            if not iv.fits(space):
                return None
            lanes.vals[block.arguments[0]] = iv
            it.tick(loop)
            for op in plan.body:
                if id(op) not in skip:
                    it.exec_op(op, lanes, lane_ctx, None)
            values = [_combine(red, arg, values[k], lanes, space) for k, (red, arg) in enumerate(plan.reductions)]
    except RunTimeout:
        raise
    except RunError:
        return None
    return values


def _combine(red: Operation, arg: Value, acc, env: Env, space: Space):
    """`acc` combined, iteration by iteration, with the reduction's other operand in every lane."""
    acc_first = red.operands[0] is arg
    other = red.operands[1] if acc_first else red.operands[0]
    dt = np.asarray(acc).dtype
    lanes = np.broadcast_to(materialize(env.get(other), space), space.shape).reshape(-1).astype(dt, copy=False)
    name = red.name.partition(".")[2]
    if name in _ORDERED:
        seq = np.concatenate([np.asarray([acc], dtype=dt), lanes])
        return _ORDERED[name].accumulate(seq, dtype=dt)[-1]

    def fn(a, b):
        return float_binary(name, a, b, dt) if name in _FLOAT_COMBINE else integer_binary(name, a, b, dt, red, None)

    while lanes.size > 1:
        half = lanes.size // 2
        head = fn(lanes[:half], lanes[half : 2 * half])
        lanes = np.concatenate([head, lanes[2 * half :]]) if lanes.size % 2 else head
    return fn(acc, lanes[0]) if acc_first else fn(lanes[0], acc)
