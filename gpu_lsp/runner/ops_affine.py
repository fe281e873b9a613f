"""affine.apply, affine.min and affine.max: the map is read from its text and evaluated on index values.

Expressions are `+`, `-`, `*`, `floordiv`, `ceildiv` and `mod` over dimensions, symbols
and integers, with MLIR's semantics (`mod` is never negative for a positive divisor).
In kernels, values that stay affine in the thread ids stay symbolic (`Lin`).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.elementwise import integer_binary
from gpu_lsp.runner.errors import Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter, handles
from gpu_lsp.runner.lanes import Lin, materialize
from gpu_lsp.runner.ops_core import lin_binary

INDEX = np.dtype(np.int64)
_TOKEN = re.compile(r"\s*(floordiv|ceildiv|mod|[A-Za-z_][A-Za-z0-9_$.]*|\d+|[-+*()])")

# An expression tree: ("const", n) | ("var", k) | (op, left, right) with op in + * floordiv ceildiv mod.
Expr = tuple


class _Reader:
    def __init__(self, text: str, names: dict[str, int]) -> None:
        self.tokens = []
        pos = 0
        while pos < len(text.rstrip()):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise ValueError(f"unexpected {text[pos:]!r}")
            self.tokens.append(m.group(1))
            pos = m.end()
        self.names = names
        self.k = 0

    def peek(self) -> str | None:
        return self.tokens[self.k] if self.k < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise ValueError("unexpected end")
        self.k += 1
        return tok

    def expr(self) -> Expr:
        out = self.term()
        while self.peek() in ("+", "-"):
            sign = self.take()
            right = self.term()
            out = ("+", out, right if sign == "+" else ("*", right, ("const", -1)))
        return out

    def term(self) -> Expr:
        out = self.factor()
        while self.peek() in ("*", "floordiv", "ceildiv", "mod"):
            out = (self.take(), out, self.factor())
        return out

    def factor(self) -> Expr:
        tok = self.take()
        if tok == "-":
            return ("*", self.factor(), ("const", -1))
        if tok == "(":
            out = self.expr()
            if self.take() != ")":
                raise ValueError("expected ')'")
            return out
        if tok.isdigit():
            return ("const", int(tok))
        if tok in self.names:
            return ("var", self.names[tok])
        raise ValueError(f"unknown identifier {tok}")


@lru_cache(maxsize=256)
def parse_map(text: str) -> tuple[int, tuple[Expr, ...]]:
    """(number of dimensions and symbols, result expressions) of `affine_map<(d0)[s0] -> (...)>`."""
    m = re.fullmatch(r"\s*affine_map<\s*\(([^)]*)\)\s*(?:\[([^\]]*)\])?\s*->\s*\((.*)\)\s*>\s*", text, re.S)
    if m is None:
        raise ValueError("not an affine_map")
    names = [n.strip() for n in m.group(1).split(",") if n.strip()]
    names += [n.strip() for n in (m.group(2) or "").split(",") if n.strip()]
    results = []
    depth = 0
    start = 0
    body = m.group(3)
    for i, ch in enumerate(body + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            reader = _Reader(body[start:i], {n: k for k, n in enumerate(names)})
            results.append(reader.expr())
            if reader.peek() is not None:
                raise ValueError(f"unexpected {reader.peek()!r}")
            start = i + 1
    return len(names), tuple(results)


def _binary(name: str, a, b, op: Operation, ctx: Ctx, mask):
    if isinstance(a, Lin) or isinstance(b, Lin):
        out = lin_binary(name, a, b, INDEX, ctx.space)
        if out is not None:
            return out
        a, b = materialize(a, ctx.space), materialize(b, ctx.space)
    return integer_binary(name, a, b, INDEX, op, mask)


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
    attr = op.get_attr("map")
    text = getattr(attr, "text", None) or str(attr)
    try:
        count, results = parse_map(text)
    except ValueError as exc:
        raise Unsupported(f"'{op.name}' with the map {text} is not supported by the runner ({exc})", op) from None
    values = it.operands(op, env)
    if len(values) != count or not results or (op.name == "affine.apply" and len(results) != 1):
        raise Unsupported(f"'{op.name}' with the map {text} and {len(values)} operands is not supported by the runner", op)
    outs = [_evaluate(e, values, op, ctx, mask) for e in results]
    out = outs[0]
    pick = "minsi" if op.name == "affine.min" else "maxsi"
    for other in outs[1:]:
        out = integer_binary(pick, materialize(out, ctx.space), materialize(other, ctx.space), INDEX, op, mask)
    it.assign(env, op.results[0], out, ctx, mask)
