"""affine.apply, affine.min and affine.max: the map is read from its text and evaluated on index values.

Expressions are `+`, `-`, `*`, `floordiv`, `ceildiv` and `mod` over dimensions, symbols
and integers, with MLIR's semantics (`mod` is never negative for a positive divisor).
In kernels, values that stay affine in the thread ids stay symbolic (`Lin`).
"""

from __future__ import annotations

import numpy as np

from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.affinemap import Expr, op_map
from gpu_lsp.runner.elementwise import integer_binary
from gpu_lsp.runner.errors import Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter, handles
from gpu_lsp.runner.lanes import INDEX, materialize
from gpu_lsp.runner.ops_core import integer_result


def _binary(name: str, a, b, op: Operation, ctx: Ctx, mask):
    return integer_result(name, a, b, INDEX, op, ctx, mask)


def _evaluate(e: Expr, values: list, op: Operation, ctx: Ctx, mask):
    kind = e[0]
    if kind == "const":
        return np.int64(e[1])
    if kind == "var":
        return values[e[1]]
    a = _evaluate(e[1], values, op, ctx, mask)
    b = _evaluate(e[2], values, op, ctx, mask)
    if kind == "+":
        return _binary("addi", a, b, op, ctx, mask)
    if kind == "*":
        return _binary("muli", a, b, op, ctx, mask)
    if kind == "floordiv":
        return _binary("floordivsi", a, b, op, ctx, mask)
    if kind == "ceildiv":
        return _binary("ceildivsi", a, b, op, ctx, mask)
    # mod: a - floordiv(a, b) * b, never negative for b > 0
    q = _binary("floordivsi", a, b, op, ctx, mask)
    return _binary("subi", a, _binary("muli", q, b, op, ctx, mask), op, ctx, mask)


@handles("affine.apply", "affine.min", "affine.max")
def _apply(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    text, count, results = op_map(op, "the runner")
    values = it.operands(op, env)
    if len(values) != count or not results or (op.name == "affine.apply" and len(results) != 1):
        raise Unsupported(f"'{op.name}' with the map {text} and {len(values)} operands is not supported by the runner", op)
    outs = [_evaluate(e, values, op, ctx, mask) for e in results]
    out = outs[0]
    pick = "minsi" if op.name == "affine.min" else "maxsi"
    for other in outs[1:]:
        out = integer_binary(pick, materialize(out, ctx.space), materialize(other, ctx.space), INDEX, op, mask)
    it.assign(env, op.results[0], out, ctx, mask)
