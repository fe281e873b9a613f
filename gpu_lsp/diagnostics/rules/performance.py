"""GPU3xx: performance and style of host-side GPU code (needless stalls, empty waits, serialized work)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Applicability, Related, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Violation, rule
from gpu_lsp.diagnostics.rules._util import at, buffer_root, captured_memrefs, delete_op_line, fix, is_memref, value_name
from gpu_lsp.ir.core import BlockArgument, Operation, OpResult
from gpu_lsp.ir.views import LaunchFuncView, async_dependencies, async_token


def _next_op(op: Operation) -> Operation | None:
    block = op.parent
    if block is None:
        return None
    ops = block.operations
    i = block.index_of(op)
    return ops[i + 1] if i + 1 < len(ops) else None


@rule("GPU301", "blocking-wait-before-async-wait", Severity.WARNING, ops=("gpu.wait",), fix=FixAvailability.ALWAYS)
def blocking_wait_before_async_wait(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a blocking `gpu.wait [%t]` immediately followed by `gpu.wait async [..., %t, ...]`
    on the same token.

    ## Why is this bad?
    The host stops until `%t` completes, then only creates a new token that depends on
    `%t` anyway: the GPU would have ordered the following work after `%t` by itself. The
    stall keeps the host from queueing more work and leaves the GPU idle meanwhile.

    ## Example
    ```mlir
    gpu.wait [%t1]
    %t2 = gpu.wait async [%t1]
    ```
    Use instead:
    ```mlir
    %t2 = gpu.wait async [%t1]
    ```

    ## Fix safety
    The fix removes the blocking wait. It is unsafe: host code after the async wait that
    reads what the work behind `%t1` produced must then wait for `%t2` first.

    ## References
    - [`gpu.wait`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    if async_token(op) is not None:
        return
    deps = async_dependencies(op)
    if not deps:
        return
    nxt = _next_op(op)
    if nxt is None or nxt.name != "gpu.wait" or async_token(nxt) is None:
        return
    again = [d for d in async_dependencies(nxt) if any(d is w for w in deps)]
    if not again:
        return
    names = ", ".join(f"`{value_name(v)}`" for v in again)
    yield Violation(
        f"the host blocks on {names} and the next op, `gpu.wait async`, depends on it again: the blocking wait only "
        "stalls the host; drop it",
        at(op),
        fix("Remove the blocking `gpu.wait`", [delete_op_line(ctx, op)], Applicability.UNSAFE),
        (Related("the async wait on the same token", at(nxt)),),
    )


@rule("GPU302", "empty-wait", Severity.INFO, ops=("gpu.wait",), fix=FixAvailability.ALWAYS)
def empty_wait(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a blocking `gpu.wait` with no tokens to wait on (`gpu.wait` or `gpu.wait []`).

    ## Why is this bad?
    It waits for nothing: it does not synchronize with any earlier GPU work (the
    canonicalizer erases it, and the lowering emits no call). To wait for work, name its
    token: `gpu.wait [%t]`.

    ## Example
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait
    ```
    Use instead, to block until the launch is done, a wait on its token (or no wait at all):
    ```mlir
    gpu.wait [%t1]
    ```

    ## Fix safety
    The fix deletes the wait. It is unsafe because `gpu-async-region` gives a bare
    `gpu.wait` a meaning: it threads its current token into it, making it a real
    synchronization point.

    ## References
    - [`gpu.wait` canonicalization](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    - [`gpu-async-region`](https://mlir.llvm.org/docs/Passes/#-gpu-async-region)
    """
    if async_token(op) is not None or op.operands or op.facts.unnamed_async:
        return
    yield Violation(
        "`gpu.wait` has no token to wait for and does nothing here; name the tokens to wait on (`gpu.wait [%t]`)",
        at(op),
        fix("Remove the empty `gpu.wait`", [delete_op_line(ctx, op)], Applicability.UNSAFE),
    )


def _buffers(op: Operation, ctx: RuleContext) -> set[int] | None:
    """Roots of the memrefs a launch touches (kernel operands, or values captured by the body)."""
    key = ("GPU303.buffers", id(op))
    if key not in ctx.cache:
        ctx.cache[key] = _compute_buffers(op, ctx)
    return ctx.cache[key]


def _compute_buffers(op: Operation, ctx: RuleContext) -> set[int] | None:
    if op.name == "gpu.launch_func":
        return {buffer_root(v) for v in LaunchFuncView(op).kernel_operands if is_memref(v)}
    if op.name == "gpu.launch":
        # Not the launch's own block arguments (its attributions).
        _, values = captured_memrefs(op, ctx)
        return {buffer_root(v) for v in values if not (isinstance(v, BlockArgument) and v.owner.parent_op is op)}
    return None


@rule("GPU303", "serialized-independent-launches", Severity.INFO, ops=("gpu.launch_func", "gpu.launch"))
def serialized_independent_launches(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a kernel launch whose only dependency is the token of another kernel launch,
    when the two share no buffer (no memref argument or captured memref in common).

    ## Why is this bad?
    The second kernel cannot start before the first one ends, although neither reads what
    the other writes: the chain serializes work that could overlap on the GPU.

    ## Example
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    %t2 = gpu.launch_func async [%t1] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<64xf32>)
    ```
    Use instead: start both from forks of `%t0` and join them:
    ```mlir
    %f0 = gpu.wait async [%t0]
    %f1 = gpu.wait async [%t0]
    %t1 = gpu.launch_func async [%f0] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    %t2 = gpu.launch_func async [%f1] @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<64xf32>)
    %t3 = gpu.wait async [%t1, %t2]
    ```

    ## Fix safety
    There is no fix: which work may overlap is the author's decision (kernels can also
    share data through memory this check cannot see).

    ## References
    - [`gpu` dialect: async execution](https://mlir.llvm.org/docs/Dialects/GPU/)
    """
    deps = async_dependencies(op)
    if len(deps) != 1 or async_token(op) is None:
        return
    dep = deps[0]
    if not isinstance(dep, OpResult) or dep.owner.name not in ("gpu.launch_func", "gpu.launch") or len(dep.users) != 1:
        return
    mine, theirs = _buffers(op, ctx), _buffers(dep.owner, ctx)
    if not mine or not theirs or mine & theirs:
        return
    yield Violation(
        f"`{op.name}` waits for `{value_name(dep)}` of another kernel launch but they share no buffer: fork both from "
        "the same token with `gpu.wait async` so that they can overlap",
        at(op),
        related=(Related(f"`{value_name(dep)}` is produced here", at(dep.owner)),),
    )
