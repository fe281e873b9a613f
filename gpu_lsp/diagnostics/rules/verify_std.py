"""Upstream verifiers of the non-GPU ops in GPU code: memref access index counts, func.call and func.return against
the function, tensor.cast's compatible types."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, q, rejected_by_parser
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import StringAttr, SymbolRefAttr, TypeAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.relations import compatible_shapes
from gpu_lsp.ir.operands import operand_ranges


@rule("GPU127", "memref-index-count", Severity.ERROR, ops=("memref.load", "memref.store"), upstream=True)
def memref_index_count(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that `memref.load` and `memref.store` give one index per dimension of the
    memref. Reports upstream's `invalid number of indices for accessed memref, expected N
    but got M`.

    ## Why is this bad?
    Upstream's verifier rejects the op: an element of a rank-2 memref needs two indices.

    ## Example
    ```mlir
    %v = memref.load %m[%i] : memref<4x4xf32>
    ```
    Use instead:
    ```mlir
    %v = memref.load %m[%i, %j] : memref<4x4xf32>
    ```

    ## Fix safety
    There is no fix: the missing index is for the author to choose.

    ## References
    - [`memref.load`](https://mlir.llvm.org/docs/Dialects/MemRef/#memrefload-memrefloadop)
    """
    groups = operand_ranges(op)
    if groups is None:
        return
    ty = op.operands[groups["memref"][0]].type
    if not isinstance(ty, T.MemRefType):
        return
    got = len(groups["indices"])
    if got != len(ty.shape):
        message = f"invalid number of indices for accessed memref, expected {len(ty.shape)} but got {got}"
        yield Violation(op_error(op, message), at(op))


@rule("GPU128", "call-signature-mismatch", Severity.ERROR, ops=("func.call",), upstream=True, whole_module=True)
def call_signature_mismatch(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks a `func.call` against the `func.func` it calls: as many operands and results
    as the callee's type has, each of the callee's type. Reports upstream's `incorrect
    number of operands for callee`, `operand type mismatch: expected operand type 'T', but
    provided 'U' for operand number N`, `incorrect number of results for callee` and
    `result type mismatch at index N`.

    ## Why is this bad?
    Upstream's verifier rejects the call (`CallOp::verifySymbolUses`): the call and the
    function disagree on the signature, usually after one of them was edited.

    ## Example
    ```mlir
    func.func private @callee(index, index)
    func.func @host(%i: index) {
      func.call @callee(%i) : (index) -> ()
      return
    }
    ```
    Use instead: `func.call @callee(%i, %i) : (index, index) -> ()`.

    ## Fix safety
    There is no fix.

    ## References
    - [`func.call`](https://mlir.llvm.org/docs/Dialects/Func/#funccall-funccallop)
    """
    callee = op.get_attr("callee")
    if not isinstance(callee, SymbolRefAttr) or callee.nested:
        return
    target = ctx.symbols.lookup_nearest(op, callee)
    fn_type = target.get_attr("function_type") if target is not None and target.name == "func.func" else None
    if not (isinstance(fn_type, TypeAttr) and isinstance(fn_type.type, T.FunctionType)):
        return
    inputs, results = fn_type.type.inputs, fn_type.type.results
    if len(inputs) != len(op.operands):
        yield Violation(op_error(op, "incorrect number of operands for callee"), at(op))
        return
    for i, (want, value) in enumerate(zip(inputs, op.operands)):
        if value.type != want and not isinstance(value.type, T.UnknownType):
            message = f"operand type mismatch: expected operand type {q(want)}, but provided {q(value.type)} for operand number {i}"
            yield Violation(op_error(op, message), at(op))
            return
    if len(results) != len(op.results):
        yield Violation(op_error(op, "incorrect number of results for callee"), at(op))
        return
    for i, (want, result) in enumerate(zip(results, op.results)):
        if result.type != want and not isinstance(result.type, T.UnknownType):
            notes = (
                Related("      op result types: " + ", ".join(q(r.type) for r in op.results), at(op)),
                Related("function result types: " + ", ".join(q(t) for t in results), at(op)),
            )
            yield Violation(op_error(op, f"result type mismatch at index {i}"), at(op), related=notes)
            return


@rule("GPU129", "return-mismatch", Severity.ERROR, ops=("func.return",), upstream=True)
def return_mismatch(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks a `func.return` against the results of its `func.func`: as many operands as the
    function returns, each of the result's type. Reports upstream's `has N operands, but
    enclosing function (@f) returns M` and `type of return operand N ('T') doesn't match
    function result type ('U') in function @f`.

    ## Why is this bad?
    Upstream's verifier rejects the return: the function's signature and its body disagree.

    ## Example
    ```mlir
    func.func @f(%i: index) -> (index, index) {
      return %i : index
    }
    ```
    Use instead: `return %i, %i : index, index`.

    ## Fix safety
    There is no fix.

    ## References
    - [`func.return`](https://mlir.llvm.org/docs/Dialects/Func/#funcreturn-funcreturnop)
    """
    fn = op.parent_op
    if fn is None or fn.name != "func.func":
        return
    fn_type = fn.get_attr("function_type")
    sym = fn.get_attr("sym_name")
    if not (isinstance(fn_type, TypeAttr) and isinstance(fn_type.type, T.FunctionType)):
        return
    name = f"@{sym.value}" if isinstance(sym, StringAttr) else "@"
    results = fn_type.type.results
    found: Violation | None = None
    if len(results) != len(op.operands):
        found = Violation(op_error(op, f"has {len(op.operands)} operands, but enclosing function ({name}) returns {len(results)}"), at(op))
    else:
        for i, (want, value) in enumerate(zip(results, op.operands)):
            if value.type != want and not isinstance(value.type, T.UnknownType):
                message = f"type of return operand {i} ({q(value.type)}) doesn't match function result type ({q(want)}) in function {name}"
                found = Violation(message, at(op))
                break
    # A function type the parser rejected is reported there alone (looked at only for a mismatch:
    # it prints the type).
    if found is not None and not rejected_by_parser(fn_type):
        yield found


_TENSORS = (T.TensorType, T.UnrankedTensorType)


@rule("GPU148", "tensor-cast-incompatible", Severity.ERROR, ops=("tensor.cast",), upstream=True)
def tensor_cast_incompatible(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that a `tensor.cast` keeps the element type and casts between compatible shapes
    (the same rank, and equal sizes where both are static; an unranked tensor is compatible
    with any). Reports upstream's `operand type 'tensor<4xf32>' and result type
    'tensor<5xf32>' are cast incompatible`.

    ## Why is this bad?
    Upstream's verifier (CastOpInterface's `areCastCompatible`) rejects the op: a cast only
    adds or removes static shape information.

    ## Example
    ```mlir
    %t = tensor.cast %a : tensor<4xf32> to tensor<5xf32>
    ```
    Use instead: `tensor.cast %a : tensor<4xf32> to tensor<?xf32>`.

    ## Fix safety
    There is no fix: the intended type is for the author to choose.

    ## References
    - [`tensor.cast`](https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcast-tensorcastop)
    """
    if len(op.operands) != 1 or len(op.results) != 1:
        return
    source, result = op.operands[0].type, op.results[0].type
    if not isinstance(source, _TENSORS) or not isinstance(result, _TENSORS):
        return
    if source.element != result.element or not compatible_shapes(source, result):
        yield Violation(op_error(op, f"operand type {q(source)} and result type {q(result)} are cast incompatible"), at(op))
