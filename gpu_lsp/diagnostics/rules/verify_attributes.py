"""Upstream's ODS constraints on op attributes: an index `leadDimension`, a power-of-two `alignment`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, IntegerAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.text import TextRange


def _index(attr: Attribute) -> bool:
    return isinstance(attr, IntegerAttr) and isinstance(attr.type, T.IndexType)


def _alignment(attr: Attribute) -> bool:
    return (
        isinstance(attr, IntegerAttr)
        and attr.type == T.I64
        and attr.value > 0
        and attr.value & (attr.value - 1) == 0
    )


_INDEX = ("index attribute", _index)
_ALIGNMENT = (
    "64-bit signless integer attribute whose value is positive and whose value is a power of two > 0",
    _alignment,
)

# op -> ((attribute, (constraint as ODS describes it, predicate)), ...)
_CONSTRAINTS: dict[str, tuple[tuple[str, tuple[str, Callable[[Attribute], bool]]], ...]] = {
    "gpu.subgroup_mma_load_matrix": (("leadDimension", _INDEX),),
    "gpu.subgroup_mma_store_matrix": (("leadDimension", _INDEX),),
    "memref.alloc": (("alignment", _ALIGNMENT),),
    "memref.alloca": (("alignment", _ALIGNMENT),),
    "memref.global": (("alignment", _ALIGNMENT),),
}


def _dictionary_range(op: Operation, name: str, ctx: RuleContext) -> TextRange:
    """The `{` of the attribute dictionary that sets `name` (where a custom parser reports it)."""
    rng = op.range
    if ctx.text is None or rng is None:
        return at(op)
    key = re.compile(rf"\b{re.escape(name)}\s*=").search(ctx.text, rng.start, rng.end)
    brace = ctx.text.rfind("{", rng.start, key.start()) if key else -1
    return TextRange(brace, brace + 1) if brace >= 0 else at(op)


@rule("GPU141", "attribute-constraint", Severity.ERROR, ops=tuple(_CONSTRAINTS), upstream=True)
def attribute_constraint(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the attributes whose kind upstream's op definitions constrain: `leadDimension`
    of `gpu.subgroup_mma_load_matrix`/`store_matrix` is an `index` attribute, `alignment`
    of `memref.alloc`, `memref.alloca` and `memref.global` a positive power of two of type
    `i64`. Reports upstream's `attribute 'A' failed to satisfy constraint: ...`; in the
    custom form at the attribute dictionary, as upstream's parser does.

    ## Why is this bad?
    Upstream rejects the op: an attribute of the wrong kind (`32 : i32` where `32 : index`
    is required, an untyped `32` is `i64`) or value cannot be read into the op's properties.

    ## Example
    ```mlir
    %a = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : i32} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    ```
    Use instead: `{leadDimension = 32 : index}`.

    ## Fix safety
    There is no fix: the intended value is for the author to choose.

    ## References
    - [`gpu.subgroup_mma_load_matrix`](https://mlir.llvm.org/docs/Dialects/GPU/#gpusubgroup_mma_load_matrix-gpusubgroupmmaloadmatrixop)
    """
    for name, (description, holds) in _CONSTRAINTS[op.name]:
        attr = op.attributes.get(name, op.properties.get(name))
        if attr is None or holds(attr):
            continue
        message = op_error(op, f"attribute '{name}' failed to satisfy constraint: {description}")
        if op.generic:
            yield Violation(message, at(op))
        else:
            yield Violation(f"custom op '{op.name}' {message}", _dictionary_range(op, name, ctx))
        return
