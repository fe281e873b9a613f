"""Upstream verifiers of memref ops in GPU code: `memref.get_global` against its global, `memref.subview`'s lists."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, q
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, SymbolRefAttr, TypeAttr
from gpu_lsp.ir.core import Operation

# Symbol tables whose every symbol gpu-lsp sees when the ops in them are known.
_READ_TABLES = frozenset(("builtin.module", "gpu.module"))


@rule("GPU144", "get-global-reference", Severity.ERROR, ops=("memref.get_global",), upstream=True, whole_module=True)
def get_global_reference(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that `memref.get_global @name` names a `memref.global` of the nearest symbol
    table, with the type of its result. Reports upstream's `'name' does not reference a
    valid global memref` and `result type 'T' does not match type 'U' of the global memref
    @name`.

    ## Why is this bad?
    Upstream's verifier (`GetGlobalOp::verifySymbolUses`) rejects the op: there is no such
    global (a misspelt name, a global in another module), or it has another shape.

    ## Example
    ```mlir
    memref.global "private" constant @c : memref<2xf32> = dense<0.0>
    func.func @f() {
      %m = memref.get_global @c : memref<4xf32>
      return
    }
    ```
    Use instead: `%m = memref.get_global @c : memref<2xf32>`.

    ## Fix safety
    There is no fix.

    ## References
    - [`memref.get_global`](https://mlir.llvm.org/docs/Dialects/MemRef/#memrefget_global-memrefgetglobalop)
    """
    ref = op.properties.get("name", op.attributes.get("name"))
    if not isinstance(ref, SymbolRefAttr) or ref.nested or len(op.results) != 1:
        return
    table = ctx.symbols.nearest_table(op)
    if table is None or table.name not in _READ_TABLES or not table.known:
        return
    body = [child for region in table.regions[:1] for block in region.blocks[:1] for child in block.operations]
    if not all(child.known for child in body):
        return  # an op gpu-lsp cannot read may define the symbol
    target = ctx.symbols.lookup_in(table, ref)
    declared = target.properties.get("type") if target is not None and target.name == "memref.global" else None
    if not isinstance(declared, TypeAttr):
        yield Violation(op_error(op, f"'{ref.root}' does not reference a valid global memref"), at(op))
        return
    result = op.results[0].type
    if result != declared.type and not isinstance(result, T.UnknownType):
        message = f"result type {q(result)} does not match type {q(declared.type)} of the global memref @{ref.root}"
        yield Violation(op_error(op, message), at(op))


_LISTS = (("offset", "static_offsets"), ("size", "static_sizes"), ("stride", "static_strides"))


@rule("GPU145", "subview-list-lengths", Severity.ERROR, ops=("memref.subview",), upstream=True)
def subview_list_lengths(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the offsets, sizes and strides of a `memref.subview`: as many of each, and one
    per dimension of the source memref. Reports upstream's `expected mixed offsets rank to
    match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.` (and
    the same for sizes and strides) and `expected 2 offset values, got 1`.

    ## Why is this bad?
    Upstream's verifier (`verifyOffsetSizeAndStrideOp`) rejects the op: each dimension of
    the source needs an offset, a size and a stride.

    ## Example
    ```mlir
    %v = memref.subview %m[%i][64, 32][1, 1] : memref<128x128xf32> to memref<64x32xf32, strided<[128, 1], offset: ?>>
    ```
    Use instead: `memref.subview %m[%i, %j][64, 32][1, 1] : ...`.

    ## Fix safety
    There is no fix: the missing offset is for the author to choose.

    ## References
    - [`memref.subview`](https://mlir.llvm.org/docs/Dialects/MemRef/#memrefsubview-memrefsubviewop)
    """
    counts = []
    for _, prop in _LISTS:
        values = op.properties.get(prop)
        if not isinstance(values, DenseArrayAttr):
            return
        counts.append(len(values.values))
    offsets, sizes, strides = counts
    if offsets != sizes:
        yield Violation(_mismatch("offsets", "sizes", offsets, sizes), at(op))
        return
    if sizes != strides:
        yield Violation(_mismatch("sizes", "strides", sizes, strides), at(op))
        return
    source = op.operands[0].type if op.operands else None
    if not isinstance(source, T.MemRefType):
        return
    rank = len(source.shape)
    for (what, _), got in zip(_LISTS, counts):
        if got != rank:
            yield Violation(f"expected {rank} {what} values, got {got}", at(op))
            return


def _mismatch(first: str, second: str, a: int, b: int) -> str:
    return (
        f"expected mixed {first} rank to match mixed {second} rank ({a} vs {b}) "
        "so the rank of the result type is well-formed."
    )
