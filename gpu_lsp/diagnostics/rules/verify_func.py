"""GPU107-GPU109: gpu.func signatures and bodies, memory attributions, gpu.return."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Stage, Violation, hook, rule
from gpu_lsp.diagnostics.rules._util import at, op_error, q
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, TypeAttr
from gpu_lsp.ir.core import BlockArgument, Operation
from gpu_lsp.ir.views import FuncView, LaunchView


@rule("GPU107", "invalid-gpu-func", Severity.ERROR, ops=("gpu.func",), upstream=True)
def invalid_gpu_func(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Runs `gpu.func`'s verifier (that `function_type` is a function type and
    `known_block_size`, `known_grid_size` and `known_cluster_size` are arrays of three
    positive i32 are GPU141's declared constraints): a kernel returns nothing, the body has a block whose arguments start with the function's
    arguments (same types) followed by the workgroup attributions.

    ## Why is this bad?
    Upstream's verifier rejects the function, e.g. `'gpu.func' op expected void return
    type for kernel function`: a kernel launched from the host has nowhere to return a
    value to.

    ## Example
    ```mlir
    gpu.func @k() -> index kernel {
      %c0 = arith.constant 0 : index
      gpu.return %c0 : index
    }
    ```
    Use instead: write results to a memref argument.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.func`](https://mlir.llvm.org/docs/Dialects/GPU/#gpufunc-gpugpufuncop)
    """
    fn_attr = op.get_attr("function_type")
    if fn_attr is None:
        yield Violation(op_error(op, "requires attribute 'function_type'"), at(op))
        return
    if not (isinstance(fn_attr, TypeAttr) and isinstance(fn_attr.type, T.FunctionType)):
        return  # GPU141's: the declared constraint TypeAttrOf<FunctionType>
    view = FuncView(op)
    fn_type = fn_attr.type
    if view.is_kernel and fn_type.results:
        yield Violation(op_error(op, "expected void return type for kernel function"), at(op))
        return
    body = view.body
    if body is None or not body.blocks:
        yield Violation(op_error(op, "expected body with at least one block"), at(op))
        return
    entry = body.blocks[0]
    expected = len(fn_type.inputs) + view.num_workgroup_attributions
    if len(entry.arguments) < expected:
        yield Violation(op_error(op, f"expected at least {expected} arguments to body region"), at(op))
        return
    for i, ty in enumerate(fn_type.inputs):
        got = entry.arguments[i].type
        if got != ty and not isinstance(got, T.UnknownType):
            yield Violation(op_error(op, f"expected body region argument #{i} to be of type {q(ty)}, got {q(got)}"), at(op))
            return


def _address_space(ty: T.MemRefType) -> str | None:
    space = ty.memory_space
    if isinstance(space, DialectAttr) and space.dialect == "gpu" and space.name == "address_space":
        return (space.body or "").strip()
    return None


def attribution_problem(op: Operation, attributions: list[BlockArgument], space: str) -> Violation | None:
    """The first attribution that is not a memref in `space` (upstream's verifyAttributions)."""
    for arg in attributions:
        ty = arg.type
        if isinstance(ty, T.UnknownType):
            continue
        if not isinstance(ty, T.MemRefType):
            return Violation(op_error(op, "expected memref type in attribution"), at(op))
        actual = _address_space(ty)
        if actual is not None and actual != space:
            return Violation(op_error(op, f"expected memory space {space} in attribution"), at(op))
    return None


@rule("GPU108", "invalid-attribution", Severity.ERROR, ops=("gpu.func",), upstream=True)
def invalid_attribution(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks the memory attributions of `gpu.func` and `gpu.launch`: each is a memref, in
    `#gpu.address_space<workgroup>` for `workgroup(...)` and
    `#gpu.address_space<private>` for `private(...)` (numeric memory spaces are not
    checked, as upstream).

    ## Why is this bad?
    Upstream's verifier rejects the op (`expected memref type in attribution`,
    `expected memory space workgroup in attribution`): an attribution is a buffer the
    kernel allocates in that memory, and a buffer in the wrong memory space cannot be
    placed there.

    ## Example
    ```mlir
    gpu.func @k() workgroup(%buf : memref<32xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
    ```
    Use instead:
    ```mlir
    gpu.func @k() workgroup(%buf : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      gpu.return
    }
    ```

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.func` memory attributions](https://mlir.llvm.org/docs/Dialects/GPU/#gpufunc-gpugpufuncop)
    """
    view = FuncView(op)
    if view.function_type is None or view.body is None or not view.body.blocks:
        return
    workgroup, private = view.attributions()
    problem = attribution_problem(op, workgroup, "workgroup") or attribution_problem(op, private, "private")
    if problem is not None:
        yield problem


@hook("GPU108", ("gpu.launch",), Stage.REGIONS)
def _launch_attributions(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    view = LaunchView(op)
    if view.entry is None or len(view.entry.arguments) < view.num_config_args + view.num_workgroup_attributions:
        return
    problem = attribution_problem(op, view.workgroup_attributions, "workgroup") or attribution_problem(
        op, view.private_attributions, "private"
    )
    if problem is not None:
        yield problem


@rule("GPU109", "invalid-gpu-return", Severity.ERROR, ops=("gpu.return",), upstream=True)
def invalid_gpu_return(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Checks that `gpu.return` returns as many values as the enclosing `gpu.func` declares,
    of the declared types.

    ## Why is this bad?
    Upstream's verifier rejects it: `'gpu.return' op expected 0 result operands`, with a
    note at the function (`return type declared here`).

    ## Example
    ```mlir
    gpu.func @f() {
      %c0 = arith.constant 0 : index
      gpu.return %c0 : index
    }
    ```
    Use instead: declare the result (`gpu.func @f() -> index`) or return nothing.

    ## Fix safety
    There is no fix.

    ## References
    - [`gpu.return`](https://mlir.llvm.org/docs/Dialects/GPU/#gpureturn-gpureturnop)
    """
    func = next((a for a in op.ancestors() if a.name == "gpu.func"), None)
    if func is None:
        return
    fn_type = FuncView(func).function_type
    if fn_type is None:
        return
    if len(fn_type.results) != len(op.operands):
        note = Related("return type declared here", at(func))
        yield Violation(op_error(op, f"expected {len(fn_type.results)} result operands"), at(op), related=(note,))
        return
    for i, (ty, value) in enumerate(zip(fn_type.results, op.operands)):
        if ty != value.type and not isinstance(value.type, T.UnknownType):
            yield Violation(op_error(op, f"unexpected type `{q(value.type)}' for operand #{i}"), at(op))
            return
