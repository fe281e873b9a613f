"""GPU143: the elements literal of a `memref.global` against the memref's shape, as upstream's parser checks it."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Phase, Violation, rule
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import OpaqueAttr, TypeAttr, dense_literal_error
from gpu_lsp.ir.core import Operation
from gpu_lsp.text import TextRange

_DENSE = "dense<"


@rule("GPU143", "global-literal-shape", Severity.ERROR, ops=("memref.global",), upstream=True, phase=Phase.PARSE)
def global_literal_shape(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the `dense<...>` initial value of a `memref.global` against the shape of its
    memref type: nested lists as deep and as long as the dimensions, every element of a
    list of the same shape. Reports upstream's `inferred shape of elements literal ([2])
    does not match type ([3])` and `tensor literal is invalid; ranks are not consistent
    between elements`. (A literal with an explicit `: tensor<...>` type is checked by the
    parser itself.)

    ## Why is this bad?
    Upstream's parser rejects the global: the literal gives a different number of elements
    than the memref holds.

    ## Example
    ```mlir
    memref.global "private" constant @c : memref<3xf32> = dense<[1.0, 2.0]>
    ```
    Use instead: `dense<[1.0, 2.0, 3.0]>`, or a splat `dense<0.0>`.

    ## Fix safety
    There is no fix: the missing values are for the author to give.

    ## References
    - [`memref.global`](https://mlir.llvm.org/docs/Dialects/MemRefOps/#memrefglobal-memrefglobalop)
    """
    declared = op.properties.get("type")
    init = op.properties.get("initial_value")
    rng = op.range
    if not (isinstance(declared, TypeAttr) and isinstance(declared.type, T.MemRefType)):
        return
    if not (isinstance(init, OpaqueAttr) and init.kind == "dense") or ctx.text is None or rng is None:
        return
    start = ctx.text.find(_DENSE, op.name_range.end if op.name_range else rng.start, rng.end)
    if start < 0:
        return
    # the literal's own text: up to the `>` that closes `dense<`, past nested `<...>` and strings
    body_start = start + len(_DENSE)
    body = ctx.text[body_start : _closing(ctx.text, body_start, rng.end)]
    problem = dense_literal_error(body, declared.type.shape)
    if problem is None:
        return
    message, offset = problem
    at = TextRange(start, start + len(_DENSE) - 1) if offset is None else TextRange(body_start + offset, body_start + offset + 1)
    yield Violation(message, at)


def _closing(text: str, i: int, end: int) -> int:
    """Where the `>` that closes a `<` opened just before `i` is (or `end`)."""
    depth = 1
    while i < end:
        ch = text[i]
        if ch == '"':
            i = text.find('"', i + 1)
            while 0 < i < end and text[i - 1] == "\\":
                i = text.find('"', i + 1)
            if i < 0:
                return end
        elif ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return end
