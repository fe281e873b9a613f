"""Upstream's verifier of vector memory accesses: one index per dimension of the memref or tensor."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.effects import reads, writes
from gpu_lsp.ir.opdefs import lookup
from gpu_lsp.ir.operands import operand_range

_ACCESSES = (
    "vector.load", "vector.store", "vector.maskedload", "vector.maskedstore", "vector.expandload",
    "vector.compressstore", "vector.transfer_read", "vector.transfer_write",
)


def _index_count(op: Operation, base: int, ctx: RuleContext) -> int | None:
    """How many indices `op` gives (None when that cannot be told)."""
    definition = lookup(op.name)
    if definition is not None and definition.operands is not None:
        return len(operand_range(op, "indices"))
    segments = op.properties.get("operandSegmentSizes")
    if isinstance(segments, DenseArrayAttr) and len(segments.values) > base + 1:
        return segments.values[base + 1]
    if op.generic or ctx.text is None or len(op.operand_spans) != len(op.operands):
        return None
    # The custom form writes the indices in brackets right after the base: `%m[%i, %j]`.
    spans = op.operand_spans
    base_span = spans[base]
    if base_span is None:
        return None
    close = ctx.text.find("]", base_span.range.end)
    return sum(1 for span in spans[base + 1 :] if span is not None and span.range.start < close)


@rule("GPU140", "vector-index-count", Severity.ERROR, ops=_ACCESSES, upstream=True)
def vector_index_count(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that the vector loads, stores and transfers (`vector.load`, `vector.store`,
    `vector.maskedload`, `vector.maskedstore`, `vector.expandload`, `vector.compressstore`,
    `vector.transfer_read`, `vector.transfer_write`) give one index per dimension of the
    memref or tensor they access. Reports upstream's `requires N indices`.

    ## Why is this bad?
    Upstream's verifier rejects the op: the indices name the first element accessed, one
    per dimension of the source.

    ## Example
    ```mlir
    %v = vector.transfer_read %m[%i], %pad : memref<4x4xf32>, vector<4xf32>
    ```
    Use instead:
    ```mlir
    %v = vector.transfer_read %m[%i, %j], %pad : memref<4x4xf32>, vector<4xf32>
    ```

    ## Fix safety
    There is no fix: the missing index is for the author to choose.

    ## References
    - [`vector.transfer_read`](https://mlir.llvm.org/docs/Dialects/Vector/#vectortransfer_read-vectortransferreadop)
    """
    accessed = reads(op) + writes(op)  # the base, which the indices index
    if not accessed:
        return
    base = accessed[0]
    ty = op.operands[base].type
    if not isinstance(ty, (T.MemRefType, T.TensorType)):
        return
    got = _index_count(op, base, ctx)
    if got is not None and got != len(ty.shape):
        yield Violation(op_error(op, f"requires {len(ty.shape)} indices"), at(op))
