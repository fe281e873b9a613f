"""Host scf.for bodies compiled once into closures, for loops that must run iteration by iteration.

Integer arithmetic, comparisons, casts, `arith.select` and in-bounds loads and stores of
live host memory on scalars get closures that work on Python ints (wrapped to the type's
width, as two's complement does); every other op, and any operand the fast path does not
expect (an error to report, a value that is not a plain scalar), goes through the
interpreter's handler, so semantics and messages are the interpreter's.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.traits import REGION_RETURNS
from gpu_lsp.runner.elementwise import predicate_name
from gpu_lsp.runner.errors import Unsupported
from gpu_lsp.runner.interp import BRANCHES, Ctx, Env, Interpreter, operand_dtype, result_dtype
from gpu_lsp.runner.memory import HOST, MemRef

Step = Callable[[Env], None]

_INT_OPS = {"addi": operator.add, "subi": operator.sub, "muli": operator.mul, "andi": operator.and_, "ori": operator.or_, "xori": operator.xor}
_SIGNED_CMP = {"eq": operator.eq, "ne": operator.ne, "slt": operator.lt, "sle": operator.le, "sgt": operator.gt, "sge": operator.ge}
_UNSIGNED_CMP = {"ult": operator.lt, "ule": operator.le, "ugt": operator.gt, "uge": operator.ge}
_SIGN_CASTS = frozenset({"arith.index_cast", "arith.extsi", "arith.trunci"})
_ZERO_CASTS = frozenset({"arith.index_castui", "arith.extui"})


def run_scalar_loop(it: Interpreter, loop: Operation, env: Env, ctx: Ctx, lo: int, hi: int, st: int, inits: list, dt: np.dtype) -> list | None:
    """The results of a host scf.for run iteration by iteration on its compiled body; None when
    the body leaves its block other than by its final scf.yield (the interpreter runs it then)."""
    block = loop.regions[0].blocks[0]
    ops = list(block.operations)
    yielded = list(ops.pop().operands) if ops and ops[-1].name == "scf.yield" else []
    if any(op.name in REGION_RETURNS or op.name in BRANCHES for op in ops):
        return None
    key = (id(loop), id(ctx))
    steps = it.compiled_loops.get(key)
    if steps is None:
        steps = it.compiled_loops[key] = [_compile(it, op, ctx) for op in ops]
    iv, *carried = block.arguments
    vals = env.vals
    values = list(inits)
    i = lo
    while i < hi:
        it.tick(loop)
        vals[iv] = dt.type(i)
        for arg, value in zip(carried, values):
            vals[arg] = value
        for step in steps:
            step(env)
        values = [env.get(v) for v in yielded]
        i += st
    return values


def _general(it: Interpreter, op: Operation, ctx: Ctx) -> Step:
    def step(env: Env) -> None:
        it.exec_op(op, env, ctx, None)

    return step


def _int_type(dt: np.dtype) -> bool:
    return dt.kind == "i" and dt != np.bool_


def _wrap(bits: int, scalar: type) -> Callable[[int], object]:
    mask = (1 << bits) - 1
    half = 1 << (bits - 1)

    def wrap(value: int):
        value &= mask
        return scalar(value - (1 << bits) if value >= half else value)

    return wrap


def _compile(it: Interpreter, op: Operation, ctx: Ctx) -> Step:
    general = _general(it, op, ctx)
    if len(op.results) > 1 or op.regions:
        return general
    try:
        return _fast(it, op, general) or general
    except Unsupported:  # a type the handler will report when it runs
        return general


def _fast(it: Interpreter, op: Operation, general: Step) -> Step | None:
    name = op.name
    dt = result_dtype(op) if op.results and name != "memref.load" else None
    if name.startswith("arith.") and name[6:] in _INT_OPS and dt is not None and _int_type(dt):
        return _binary(op, _INT_OPS[name[6:]], _wrap(dt.itemsize * 8, dt.type), dt.type, general)
    if name == "arith.cmpi" and _int_type(operand_dtype(op)):
        return _compare(op, general)
    if (name in _SIGN_CASTS or name in _ZERO_CASTS) and dt is not None and _int_type(dt) and _int_type(operand_dtype(op)):
        return _cast(op, operand_dtype(op), _wrap(dt.itemsize * 8, dt.type), name in _ZERO_CASTS, general)
    if name == "arith.select":
        return _select(op, general)
    if name in ("memref.load", "memref.store"):
        return _access(it, op, general)
    return None


def _binary(op: Operation, fn, wrap, scalar: type[np.integer], general: Step) -> Step:
    a, b = op.operands
    (r,) = op.results

    def step(env: Env) -> None:
        vals = env.vals
        x: Any = vals.get(a)  # runtime values; `type(...) is scalar` checks them
        y: Any = vals.get(b)
        if type(x) is scalar and type(y) is scalar:
            vals[r] = wrap(fn(int(x), int(y)))
        else:
            general(env)

    return step


def _compare(op: Operation, general: Step) -> Step:
    a, b = op.operands
    (r,) = op.results

    try:
        pred = predicate_name(op, "cmpi")
    except Unsupported:
        return general
    scalar: type[np.integer] = operand_dtype(op).type
    bits = np.dtype(scalar).itemsize * 8
    mask = (1 << bits) - 1
    unsigned = pred in _UNSIGNED_CMP
    fn = _UNSIGNED_CMP[pred] if unsigned else _SIGNED_CMP[pred]

    def step(env: Env) -> None:
        vals = env.vals
        x: Any = vals.get(a)  # runtime values; `type(...) is scalar` checks them
        y: Any = vals.get(b)
        if type(x) is scalar and type(y) is scalar:
            i, j = int(x), int(y)
            vals[r] = np.bool_(fn(i & mask, j & mask) if unsigned else fn(i, j))
        else:
            general(env)

    return step


def _cast(op: Operation, src: np.dtype, wrap, zero_extend: bool, general: Step) -> Step:
    (a,) = op.operands
    (r,) = op.results
    scalar: type[np.integer] = src.type
    mask = (1 << (src.itemsize * 8)) - 1

    def step(env: Env) -> None:
        vals = env.vals
        x = vals.get(a)
        if type(x) is scalar:
            vals[r] = wrap(int(x) & mask if zero_extend else int(x))
        else:
            general(env)

    return step


def _select(op: Operation, general: Step) -> Step:
    c, a, b = op.operands
    (r,) = op.results

    def step(env: Env) -> None:
        vals = env.vals
        cond = vals.get(c)
        if type(cond) is np.bool_ and a in vals and b in vals:
            vals[r] = vals[a] if cond else vals[b]
        else:
            general(env)

    return step


def _access(it: Interpreter, op: Operation, general: Step) -> Step:
    store = op.name == "memref.store"
    value_ref = op.operands[0] if store else None
    mem_ref = op.operands[1] if store else op.operands[0]
    index_refs = tuple(op.operands[2:] if store else op.operands[1:])
    result = None if store else op.results[0]
    tracker = it.tracker

    def step(env: Env) -> None:
        vals = env.vals
        mem = vals.get(mem_ref)
        if type(mem) is not MemRef or mem.buf.freed or mem.buf.kind != HOST or type(mem.offset) is not int:
            general(env)
            return
        addr = mem.offset
        for ref, size, stride in zip(index_refs, mem.sizes, mem.strides):
            i = vals.get(ref)
            if type(i) is not np.int64 or not 0 <= i < size:
                general(env)
                return
            addr += int(i) * int(stride)
        data = mem.data
        if not 0 <= addr < data.shape[0] or (value_ref is not None and value_ref not in vals):
            general(env)
            return
        tracker.host_access(mem.buf, op, write=store)
        if value_ref is not None:  # a store
            data[addr] = vals[value_ref]
        elif result is not None:
            vals[result] = data[addr]

    return step
