"""Upstream's generic trait verifiers: IsolatedFromAbove uses and a terminator's place in its block."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Stage, Violation, rule
from gpu_lsp.diagnostics.rules._util import at, op_error
from gpu_lsp.ir.core import Operation, Region, Value
from gpu_lsp.ir.opdefs import has_trait, lookup
from gpu_lsp.parser.resolve import UndefinedValue


def _defining_region(value: Value) -> Region | None:
    block = value.parent_block
    return None if block is None else block.parent


def _inside(region: Region | None, isolated: Operation) -> bool:
    while region is not None:
        if region.parent is isolated:
            return True
        owner = region.parent
        block = owner.parent if owner is not None else None
        region = block.parent if block is not None else None
    return False


@rule("GPU125", "value-from-outside-isolated-region", Severity.ERROR, ops=("*",), traits=("isolated",), upstream=True, stage=Stage.REGIONS)
def value_from_outside_isolated_region(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that the regions of an isolated-from-above op (`func.func`, `gpu.func`,
    `gpu.module`, `builtin.module`, ...) use no value defined outside them. Reports
    upstream's `'<op>' op using value defined outside the region` with the note
    `required by region isolation constraints` at the isolated op.

    ## Why is this bad?
    Upstream's verifier rejects the IR. A function or kernel is compiled on its own: a
    value of the enclosing code is not available in it and must be passed as an argument.

    ## Example
    ```mlir
    %c0 = arith.constant 0 : index
    func.func @f() -> index {
      return %c0 : index
    }
    ```
    Use instead:
    ```mlir
    func.func @f() -> index {
      %c0 = arith.constant 0 : index
      return %c0 : index
    }
    ```

    ## Fix safety
    There is no fix: whether to pass the value in or recompute it is a design choice.

    ## References
    - [MLIR Traits: IsolatedFromAbove](https://mlir.llvm.org/docs/Traits/#isolatedfromabove)
    """
    spec = lookup(op.name)
    if spec is None or not spec.has("isolated"):
        return
    # The regions walked so far are inside `op`; a value defined in one is inside (the usual
    # case: a use is dominated by its definition, in the same region or an enclosing one).
    inside: set[int] = set()
    pending = [region for region in op.regions]
    while pending:
        region = pending.pop()
        inside.add(id(region))
        for block in region.blocks:
            for nested in block.operations:
                for value in nested.operands:
                    if isinstance(value, UndefinedValue):
                        continue
                    defined_in = _defining_region(value)
                    if id(defined_in) not in inside and not _inside(defined_in, op):
                        note = Related("required by region isolation constraints", at(op))
                        yield Violation(op_error(nested, "using value defined outside the region"), at(nested), related=(note,))
                        return
                if nested.regions and not has_trait(nested.name, "isolated"):
                    pending.extend(nested.regions)


@rule("GPU126", "terminator-not-last", Severity.ERROR, ops=("*",), traits=("terminator",), upstream=True, stage=Stage.ENTRANCE)
def terminator_not_last(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that a terminator (`gpu.return`, `gpu.terminator`, `gpu.yield`, `func.return`,
    `scf.yield`, `cf.br`, ...) is the last operation of its block. Reports upstream's
    `'<op>' op must be the last operation in the parent block`.

    ## Why is this bad?
    Upstream's verifier rejects the IR. Operations after a terminator are never reached;
    usually a line was pasted below the `return` by mistake.

    ## Example
    ```mlir
    gpu.func @k(%m: memref<4xf32>, %i: index, %v: f32) kernel {
      gpu.return
      memref.store %v, %m[%i] : memref<4xf32>
    }
    ```
    Use instead:
    ```mlir
    gpu.func @k(%m: memref<4xf32>, %i: index, %v: f32) kernel {
      memref.store %v, %m[%i] : memref<4xf32>
      gpu.return
    }
    ```

    ## Fix safety
    There is no fix: whether the code after the terminator is dead or misplaced is for
    the author to say.

    ## References
    - [MLIR Traits: Terminator](https://mlir.llvm.org/docs/Traits/#terminator)
    """
    spec = lookup(op.name)
    block = op.parent
    if spec is None or not op.known or not spec.has("terminator") or block is None:
        return
    if block.operations and block.operations[-1] is not op:
        yield Violation(op_error(op, "must be the last operation in the parent block"), at(op))
