"""Upstream's verifiers of vector ops: one index per dimension of an access, casts that keep the elements or bits."""

from __future__ import annotations

import math
from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, q
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


def _bits(ty: T.Type) -> int | None:
    """The element's size in bits as the default data layout gives it (None where gpu-lsp cannot tell)."""
    if isinstance(ty, T.IntegerType):
        return ty.width
    if isinstance(ty, T.IndexType):
        return 64
    if isinstance(ty, T.FloatType) and ty.name != "tf32":
        return ty.width
    return None


def _shape_cast_problem(source: T.VectorType, result: T.VectorType) -> str | None:
    """`vector.shape_cast`'s verifier: one element type, as many elements, as many scalable dimensions."""
    if source.element != result.element:
        return f"source element type ({q(source.element)}) does not match result element type ({q(result.element)})"
    count, got = math.prod(source.shape), math.prod(result.shape)
    if count != got:
        return f"has different number of elements at source ({count}) and result ({got})"
    scalable, scalable_got = sum(source.scalable), sum(result.scalable)
    if scalable != scalable_got:
        return f"has different number of scalable dims at source ({scalable}) and result ({scalable_got})"
    return None


def _bitcast_problem(source: T.VectorType, result: T.VectorType) -> str | None:
    """`vector.bitcast`'s verifier (the ranks match: GPU141): the outer dimensions, then the bits of the minor one."""
    for i in range(len(source.shape) - 1):
        if source.shape[i] != result.shape[i]:
            return f"dimension size mismatch at: {i}"
    bits, bits_got = _bits(source.element), _bits(result.element)
    if bits is None or bits_got is None:
        return None
    if not source.shape:
        return None if bits == bits_got else "source/result bitwidth of the 0-D vector element types must be equal"
    if bits * source.shape[-1] != bits_got * result.shape[-1]:
        return "source/result bitwidth of the minor 1-D vectors must be equal"
    return None


@rule("GPU147", "invalid-vector-cast", Severity.ERROR, ops=("vector.shape_cast", "vector.bitcast"), upstream=True)
def invalid_vector_cast(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs the verifiers of `vector.shape_cast` and `vector.bitcast`. A shape cast keeps the
    element type, the number of elements and the number of scalable dimensions; a bitcast
    keeps every dimension but the minor one and the bits of the minor one. Reports
    upstream's `source element type ('f32') does not match result element type ('i32')`,
    `has different number of elements at source (4) and result (6)`, `dimension size
    mismatch at: 0` and `source/result bitwidth of the minor 1-D vectors must be equal`.

    ## Why is this bad?
    Upstream's verifier rejects the op: a shape cast only reshapes, and a bitcast only
    reinterprets the bits of its minor dimension.

    ## Example
    ```mlir
    %r = vector.shape_cast %v : vector<4xf32> to vector<2x3xf32>
    %b = vector.bitcast %v : vector<4xf32> to vector<4xf16>
    ```
    Use instead: `vector<2x2xf32>` for the shape cast, `vector<8xf16>` for the bitcast.

    ## Fix safety
    There is no fix: the intended type is for the author to choose.

    ## References
    - [`vector.shape_cast`](https://mlir.llvm.org/docs/Dialects/Vector/#vectorshape_cast-vectorshapecastop)
    - [`vector.bitcast`](https://mlir.llvm.org/docs/Dialects/Vector/#vectorbitcast-vectorbitcastop)
    """
    if len(op.operands) != 1 or len(op.results) != 1:
        return
    source, result = op.operands[0].type, op.results[0].type
    if not isinstance(source, T.VectorType) or not isinstance(result, T.VectorType):
        return
    if op.name == "vector.shape_cast":
        problem = _shape_cast_problem(source, result)
    elif len(source.shape) == len(result.shape):
        problem = _bitcast_problem(source, result)
    else:
        problem = None
    if problem is not None:
        yield Violation(op_error(op, problem), at(op))
