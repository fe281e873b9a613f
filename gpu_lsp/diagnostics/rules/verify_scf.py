"""Upstream verifiers of scf ops in GPU code: `scf.forall`'s loop counts."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.operands import operand_group

# The lists of a loop's bounds, by the name upstream's messages give them, and their property.
_BOUNDS = (("lower bound", "staticLowerBound"), ("upper bound", "staticUpperBound"), ("step", "staticStep"))


@rule("GPU150", "invalid-forall", Severity.ERROR, ops=("scf.forall",), upstream=True)
def invalid_forall(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs `scf.forall`'s verifier: one result per shared output, a body argument per loop
    (as many loops as lower bounds: `in (...)` gives one per induction variable) and per
    output, a mapping as long as the loops, and as many upper bounds and steps as loops.
    Reports upstream's `region expects 2 arguments`, `mapping attribute size must match op
    rank` and `expected 2 upper bound values, got 1`.

    ## Why is this bad?
    Upstream's verifier rejects the op. A bound dropped while editing is the usual cause:
    `scf.forall (%i, %j) in (%n)` has two induction variables and one upper bound.

    ## Example
    ```mlir
    scf.forall (%i, %j) in (%n) {
    }
    ```
    Use instead: `scf.forall (%i, %j) in (%n, %m) { ... }`.

    ## Fix safety
    There is no fix: the missing bound is for the author to choose.

    ## References
    - [`scf.forall`](https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforall-scfforallop)
    """
    lists = [op.properties.get(prop) for _, prop in _BOUNDS]
    if not all(isinstance(values, DenseArrayAttr) for values in lists):
        return
    counts = [len(values.values) for values in lists if isinstance(values, DenseArrayAttr)]
    rank = counts[0]
    outputs = operand_group(op, "outputs")
    if len(op.results) != len(outputs) and not any(isinstance(r.type, T.UnknownType) for r in op.results):  # not a miscount (GPU008)
        yield Violation(op_error(op, f"produces {len(op.results)} results, but has only {len(outputs)} outputs"), at(op))
        return
    body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if body is not None:
        args = body.arguments
        if len(args) != rank + len(outputs):
            yield Violation(op_error(op, f"region expects {rank} arguments"), at(op))
            return
        for i in range(rank):
            if not isinstance(args[i].type, (T.IndexType, T.UnknownType)):
                yield Violation(op_error(op, f"expects {i}-th block argument to be an index"), at(op))
                return
        for i, output in enumerate(outputs):
            if args[rank + i].type != output.type and not isinstance(output.type, T.UnknownType):
                yield Violation(op_error(op, f"type mismatch between {i}-th output and corresponding block argument"), at(op))
                return
    mapping = op.get_attr("mapping")
    if isinstance(mapping, ArrayAttr) and mapping.elements and len(mapping.elements) != rank:
        yield Violation(op_error(op, "mapping attribute size must match op rank"), at(op))
        return
    for (name, _), count in zip(_BOUNDS, counts):
        if count != rank:
            yield Violation(f"expected {rank} {name} values, got {count}", at(op))  # emitError: no op prefix
            return
