"""Affine maps read from their text (`affine_map<(d0)[s0] -> (d0 * 4 + s0 floordiv 2)>`).

An expression is a tree: ("const", n) | ("var", k) (k indexes dimensions, then symbols) |
(op, left, right) with op one of + * floordiv ceildiv mod (a - b is a + b * -1).
"""

from __future__ import annotations

import re
from functools import lru_cache

from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import Unsupported
from gpu_lsp.syntax.names import BARE_ID

_TOKEN = re.compile(rf"\s*(floordiv|ceildiv|mod|{BARE_ID}|\d+|[-+*()])")

Expr = tuple


class _Reader:
    """Recursive descent over one result expression."""

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
def op_map(op: Operation, by: str) -> tuple[str, int, tuple[Expr, ...]]:
    """The text, dimension and symbol count and results of an affine op's `map`; Unsupported
    (saying it is not supported `by` the runner or code generator) when it cannot be read."""
    attr = op.get_attr("map")
    text = getattr(attr, "text", None) or str(attr)
    try:
        count, results = parse_map(text)
    except ValueError as exc:
        raise Unsupported(f"'{op.name}' with the map {text} is not supported by {by} ({exc})", op) from None
    return text, count, results


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
