"""GPU2xx: async tokens and lowering readiness (what `gpu-to-llvm` rejects, leaks, forks and races)."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.mlir_versions import (
    ALLOC_SYNC,
    Lowering,
    LoweringFact,
    dependencies_fact,
    sync_dependencies_fact,
)
from gpu_lsp.diagnostics.model import Applicability, Fix, Related, Severity
from gpu_lsp.diagnostics.registry import FixAvailability, Violation, rule
from gpu_lsp.diagnostics.rules._util import (
    at,
    buffer_root,
    buffer_value,
    captured_memrefs,
    delete_op_line,
    fix,
    insert_line_after,
    insert_line_before,
    is_memref,
    value_name,
)
from gpu_lsp.ir import effects
from gpu_lsp.ir.core import Operation, OpResult, Value, source_start
from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.symbols import closest_module
from gpu_lsp.ir.views import AllocView, LaunchFuncView, async_dependencies, async_token, is_async_op, is_token_type
from gpu_lsp.text import Edit, TextRange

# Async ops the runtime lowering converts one by one (gpu.wait is the one that joins tokens).
LOWERED_ASYNC_OPS = tuple(sorted(n for n, s in OPS.items() if s.has("async") and n != "gpu.wait"))
ASYNC_OPS = LOWERED_ASYNC_OPS + ("gpu.wait",)


def _names(values: list[Value]) -> str:
    return ", ".join(f"`{value_name(v)}`" for v in values)


def _deps_list(values: list[Value]) -> str:
    return ", ".join(value_name(v) for v in values)


def dependency_brackets(op: Operation, ctx: RuleContext) -> TextRange | None:
    """The `[...]` holding the async dependencies of `op` in the text, when it can be found."""
    deps = async_dependencies(op)
    text = ctx.text
    if not deps or text is None or len(op.operand_spans) < len(deps):
        return None
    first, last = op.operand_spans[0], op.operand_spans[len(deps) - 1]
    if first is None or last is None:
        return None
    start = text.rfind("[", op.range.start if op.range else 0, first.range.start)
    end = text.find("]", last.range.end)
    if start < 0 or end < 0:
        return None
    return TextRange(start, end + 1)


def _alone_on_line(ctx: RuleContext, op: Operation) -> bool:
    """Whether `op` starts its line (so a line can be inserted before it)."""
    if ctx.text is None or op.range is None:
        return False
    return ctx.text[ctx.line_start(op.range.start) : op.range.start].strip() == ""


def _lowering_problem(fact: LoweringFact, version: int) -> str | None:
    """What `gpu-to-llvm` does wrong with this form at `version` (None: it lowers it), saying which versions when it varies."""
    outcome = fact.at(version)
    if outcome is Lowering.LOWERED:
        return None
    verb = "rejects it" if outcome is Lowering.REJECTED else "leaves it unconverted"
    when = f"with {fact.versions_with(outcome)}, " if fact.varies else ""
    return f"{when}`gpu-to-llvm` {verb} (`{fact.reason}`)"


@rule("GPU201", "multiple-async-dependencies", Severity.WARNING, ops=LOWERED_ASYNC_OPS, fix=FixAvailability.SOMETIMES)
def multiple_async_dependencies(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports an async op other than `gpu.wait` that depends on more than one token where
    the chosen `mlir-version`'s `gpu-to-llvm` cannot lower that, e.g.
    `gpu.memcpy async [%a, %b]` (every version) or `gpu.launch_func async [%a, %b]`
    (LLVM 22 and older).

    ## Why is this bad?
    `gpu-to-llvm` maps each token to a stream and lowers an op onto the stream of its one
    dependency. Copies, fills, allocations, frees and the sparse ops are only converted
    with exactly one dependency (`Can only convert with exactly one async dependency.`):
    with more, the op stays unconverted and translation to LLVM IR fails. Up to LLVM 22 it
    also rejects a `gpu.launch_func` with more than one (`Cannot convert with more than one
    async dependency.`); since llvm-project PR #188987 (LLVM 23) it joins them itself, so
    the rule is quiet on launches with `mlir-version = 23`. A `gpu.launch` keeps its
    dependencies when outlined, so it counts as a launch. Only `gpu.wait async` joins
    several tokens in every version.

    ## Example
    ```mlir
    %t3 = gpu.memcpy async [%t1, %t2] %dst, %src : memref<4xf32>, memref<4xf32>
    ```
    Use instead:
    ```mlir
    %j = gpu.wait async [%t1, %t2]
    %t3 = gpu.memcpy async [%j] %dst, %src : memref<4xf32>, memref<4xf32>
    ```

    ## Fix safety
    The fix inserts the joining `gpu.wait async` right before the op and makes the op
    depend on it alone. It is safe: the op still starts after all its dependencies. It
    is offered when the op starts its line.

    ## References
    - [`gpu-to-llvm`: GPUToLLVMConversion.cpp](https://github.com/llvm/llvm-project/blob/main/mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp)
    - [llvm-project PR #188987: lower launch_func with several dependencies](https://github.com/llvm/llvm-project/pull/188987)
    - [`gpu.wait`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    deps = async_dependencies(op)
    if len(deps) < 2:
        return
    problem = _lowering_problem(dependencies_fact(op.name), ctx.mlir_version)
    if problem is None:
        return
    joined = ctx.fresh_token(op) if _alone_on_line(ctx, op) else None
    the_fix = None
    brackets = dependency_brackets(op, ctx)
    if joined is not None and brackets is not None:
        the_fix = fix(
            f"Join {_deps_list(deps)} with `gpu.wait async` into `%{joined}`",
            [insert_line_before(ctx, op, f"%{joined} = gpu.wait async [{_deps_list(deps)}]"), Edit(brackets, f"[%{joined}]")],
        )
    yield Violation(
        f"`{op.name}` depends on {len(deps)} tokens ({_names(deps)}) but {problem}: it lowers an op onto the "
        f"stream of one token; join them first with `gpu.wait async [{_deps_list(deps)}]`",
        at(op),
        the_fix,
    )


def _make_async_fix(op: Operation, ctx: RuleContext, dependency: str | None) -> Fix | None:
    """Name a token for synchronous `op`, mark it `async` (on `dependency` when given) and block on it after."""
    if op.range is None or ctx.text is None or op.name_range is None:
        return None
    token = ctx.fresh_token(op)
    if op.results:
        last = op.results[-1].def_span
        if last is None:
            return None
        naming = Edit(TextRange(last.range.end, last.range.end), f", %{token}")
    else:
        naming = Edit(TextRange(op.range.start, op.range.start), f"%{token} = ")
    if dependency is None:
        brackets = dependency_brackets(op, ctx)
        if brackets is None:
            return None
        edits: list[Edit | None] = [naming, Edit(TextRange(brackets.start, brackets.start), "async ")]
    else:
        end = op.name_range.end
        edits = [insert_line_before(ctx, op, f"%{dependency} = gpu.wait async"), naming, Edit(TextRange(end, end), f" async [%{dependency}]")]
    edits.append(insert_line_after(ctx, op, f"gpu.wait [%{token}]"))
    return fix(f"Make `{op.name}` async as `%{token}` and wait for it", edits)


@rule("GPU202", "sync-op-with-dependencies", Severity.WARNING, ops=LOWERED_ASYNC_OPS, fix=FixAvailability.SOMETIMES)
def sync_op_with_dependencies(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a synchronous op (no `async`, so no token) that lists async dependencies,
    e.g. `gpu.launch_func [%t] @kernels::@k ...` or `gpu.memcpy [%t] %dst, %src`.
    `gpu.wait [%t]` is the exception: it is the blocking wait.

    ## Why is this bad?
    In every LLVM version `gpu-to-llvm` rejects the launch (`Cannot convert non-async op
    with async dependencies.`) and leaves copies, fills, allocations and frees unconverted
    (`Can convert only async version.`), so the dependency would be silently lost if they
    were lowered any other way. The host-side meaning (wait for the tokens, run, block
    until done) has to be spelled with an async op and a blocking `gpu.wait`.

    ## Example
    ```mlir
    gpu.launch_func [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```
    Use instead:
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    ```

    ## Fix safety
    The fix makes the op async with a fresh token name and inserts a blocking `gpu.wait` on
    that token right after it. It is safe: the host still blocks until the op finished.

    ## References
    - [`gpu-to-llvm`: GPUToLLVMConversion.cpp](https://github.com/llvm/llvm-project/blob/main/mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp)
    """
    deps = async_dependencies(op)
    if not deps or async_token(op) is not None or op.facts.unnamed_async:
        return
    problem = _lowering_problem(sync_dependencies_fact(op.name), ctx.mlir_version)
    if problem is None:
        return
    yield Violation(
        f"`{op.name}` is synchronous but depends on {_names(deps)}; {problem}: make it `async` and wait for its token",
        at(op),
        _make_async_fix(op, ctx, None),
    )


@rule("GPU209", "synchronous-allocation", Severity.WARNING, ops=("gpu.alloc", "gpu.dealloc"), fix=FixAvailability.SOMETIMES)
def synchronous_allocation(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    With `mlir-version` 22 or older, reports a `gpu.alloc` (not `host_shared`) or
    `gpu.dealloc` without `async` and without dependencies.

    ## Why is this bad?
    Up to LLVM 22, `gpu-to-llvm` converts these ops only in their async form with exactly
    one dependency (`Can convert only async version.`): a synchronous one stays
    unconverted and translation to LLVM IR fails. llvm-project PR #191661 (LLVM 23) lowers
    it onto the null stream, so the rule is quiet with `mlir-version = 23`.

    ## Example
    ```mlir
    %m = gpu.alloc (%n) : memref<?xf32>
    ```
    Use instead:
    ```mlir
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    gpu.wait [%t1]
    ```

    ## Fix safety
    The fix creates a token before the op, makes the op async on it and blocks on the op's
    token right after. It is safe: the host still waits for the allocation.

    ## References
    - [`gpu-to-llvm`: GPUToLLVMConversion.cpp](https://github.com/llvm/llvm-project/blob/main/mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp)
    - [llvm-project PR #191661: lower synchronous gpu.alloc/gpu.dealloc](https://github.com/llvm/llvm-project/pull/191661)
    """
    if async_dependencies(op) or async_token(op) is not None or op.facts.unnamed_async:
        return
    if op.name == "gpu.alloc" and AllocView(op).host_shared:
        return
    problem = _lowering_problem(ALLOC_SYNC, ctx.mlir_version)
    if problem is None:
        return
    dependency = ctx.fresh_token(op) if _alone_on_line(ctx, op) else None
    yield Violation(
        f"`{op.name}` is synchronous; {problem}: make it `async` on a token and wait for its token",
        at(op),
        _make_async_fix(op, ctx, dependency) if dependency is not None else None,
    )


def _host_function(op: Operation) -> Operation | None:
    """The host function `op` is in (a function-like op not inside a gpu.module), or None."""
    func = None
    for ancestor in op.ancestors():
        if ancestor.name == "gpu.module":
            return None
        if func is None:
            spec = OPS.get(ancestor.name)
            if spec is not None and spec.has("function"):
                func = ancestor
    return func


@rule("GPU204", "inline-launch", Severity.INFO, ops=("gpu.launch",))
def inline_launch(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Points out a `gpu.launch` (an inline kernel) in a host function.

    ## Why is this bad?
    It is valid, but `gpu-async-region` rejects a function that still contains one
    (`'gpu.launch' op replace with gpu.launch_func first`) and `gpu-to-llvm` only launches
    outlined kernels. `gpu-kernel-outlining` moves the body into a `gpu.func` of a new
    `gpu.module` and leaves a `gpu.launch_func` with the same dependencies and token.

    ## Example
    ```mlir
    %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    ```
    Use instead: run `gpu-opt -gpu-kernel-outlining`, or the editor's "Outline gpu.launch"
    code action.

    ## Fix safety
    There is no fix here; outlining is offered as a refactoring by the language server.

    ## References
    - [`gpu-kernel-outlining`](https://mlir.llvm.org/docs/Passes/#-gpu-kernel-outlining)
    - [`gpu-async-region`](https://mlir.llvm.org/docs/Passes/#-gpu-async-region)
    """
    func = _host_function(op)
    if func is None:
        return
    yield Violation(
        "`gpu.launch` is an inline kernel: `gpu-async-region` and `gpu-to-llvm` expect `gpu.launch_func`; "
        "outline it with `gpu-kernel-outlining`",
        at(op),
    )


@rule("GPU205", "redundant-single-token-wait", Severity.HINT, ops=("gpu.wait",), fix=FixAvailability.ALWAYS, tags=("unnecessary",))
def redundant_single_token_wait(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports `%t1 = gpu.wait async [%t0]`: an async wait on exactly one token, when nothing
    else uses `%t0`.

    ## Why is this bad?
    It has no effect: `%t1` completes exactly when `%t0` does. `gpu.wait async` exists to
    join several tokens (or to fork one explicitly, when `%t0` has other users). The
    canonicalizer replaces `%t1` by `%t0`; the lowering creates an event and a stream for
    nothing.

    ## Example
    ```mlir
    %t1 = gpu.wait async [%t0]
    %t2 = gpu.launch_func async [%t1] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```
    Use instead:
    ```mlir
    %t2 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    The fix replaces every use of `%t1` with `%t0` and deletes the wait. It is safe.

    ## References
    - [`gpu.wait` canonicalization (SimplifyGpuWaitOp)](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    token = async_token(op)
    deps = async_dependencies(op)
    if token is None or len(deps) != 1 or op.facts.unnamed_async:
        return
    source = deps[0]
    if len(source.users) != 1 or not source.name:
        return
    edits: list[Edit | None] = [delete_op_line(ctx, op)]
    for use in token.uses:
        edits.append(Edit(use.span.range, value_name(source)) if use.span is not None else None)
    yield Violation(
        f"`{value_name(token)} = gpu.wait async [{value_name(source)}]` waits for one token and has no effect: "
        f"use `{value_name(source)}` instead",
        at(op),
        fix(f"Replace `{value_name(token)}` with `{value_name(source)}` and remove the wait", edits),
    )


def _token_users_description(users: list[Operation], ctx: RuleContext) -> str:
    parts = []
    for user in users[:3]:
        where = ""
        if ctx.lines is not None and user.range is not None:
            line, col = ctx.lines.position(at(user).start)
            where = f" at {line + 1}:{col + 1}"
        parts.append(f"`{user.name}`{where}")
    more = f" and {len(users) - 3} more" if len(users) > 3 else ""
    return ", ".join(parts) + more


@rule("GPU206", "unconsumed-async-token", Severity.WARNING, ops=LOWERED_ASYNC_OPS + ("gpu.wait",), fix=FixAvailability.SOMETIMES)
def unconsumed_async_token(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports an async op whose `!gpu.async.token` nothing uses: no op depends on it, no
    `gpu.wait` waits for it, it is not returned or yielded.

    ## Why is this bad?
    Nothing orders later work after it and the host never waits for it: the function can
    return while the work still runs (its results may be read too early, or freed), and
    the stream the lowering creates for the token is never synchronized or destroyed.

    ## Example
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
    ```
    Use instead:
    ```mlir
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    return
    ```

    ## Fix safety
    The fix inserts `gpu.wait [%t]` before the terminator of the token's block. It is
    unsafe: the host now blocks there, which changes when later host code runs.

    ## References
    - [`gpu.wait`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    token = async_token(op)
    if token is None or token.uses or not token.name or op.facts.unnamed_async:
        return
    if op.name == "gpu.wait" and not async_dependencies(op):
        message = f"`{value_name(token)} = gpu.wait async` creates a token nothing uses: remove it or depend on it"
    else:
        message = (
            f"the token `{value_name(token)}` of `{op.name}` is never used: nothing waits for this work, which may still "
            f"run when the function returns; wait for it with `gpu.wait [{value_name(token)}]`"
        )
    the_fix = None
    block = op.parent
    term = block.operations[-1] if block is not None and block.operations else None
    if term is not None and term is not op and _alone_on_line(ctx, term):
        spec = OPS.get(term.name)
        if spec is not None and spec.has("terminator"):
            the_fix = fix(
                f"Wait for `{value_name(token)}` before `{term.name}`",
                [insert_line_before(ctx, term, f"gpu.wait [{value_name(token)}]")],
                Applicability.UNSAFE,
            )
    yield Violation(message, at(op), the_fix)


def _is_fork(user: Operation) -> bool:
    return user.name == "gpu.wait" and async_token(user) is not None


def _token_values(ctx: RuleContext) -> Iterator[Value]:
    """Every `!gpu.async.token` value of the chunk: async op results and block arguments."""
    by_name = ctx.index.by_name
    for name in ASYNC_OPS:
        for op in by_name.get(name, ()):
            token = async_token(op)
            if token is not None:
                yield token
    for op in ctx.index.ops:
        if op.regions:
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if is_token_type(arg.type):
                            yield arg


@rule("GPU207", "implicit-token-fork", Severity.WARNING, fix=FixAvailability.SOMETIMES, whole_module=True)
def implicit_token_fork(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports a `!gpu.async.token` used by more than one op other than `gpu.wait async`
    (the explicit fork, which only records an event on the token's stream).

    ## Why is this bad?
    The lowering maps a token to one stream and each user continues on, synchronizes or
    destroys that stream. Two users race for it: work meant to run side by side is
    serialized on one stream, a blocking `gpu.wait` destroys a stream another op still
    uses, or a stream is never destroyed. Forking through `gpu.wait async` gives each
    branch its own stream, ordered after the token with an event.

    ## Example
    ```mlir
    %a = gpu.launch_func async [%t0] @kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %b = gpu.launch_func async [%t0] @kernels::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```
    Use instead:
    ```mlir
    %f = gpu.wait async [%t0]
    %a = gpu.launch_func async [%t0] @kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %b = gpu.launch_func async [%f] @kernels::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    ```

    ## Fix safety
    The fix keeps the first user on the token, inserts one `gpu.wait async` per other user
    right after the token's definition and points each of them at its own fork. It is
    safe: every user still runs after the token. It is offered when the token is an op
    result defined alone on its line.

    ## References
    - [`gpu-async-region` (forks through async.execute)](https://mlir.llvm.org/docs/Passes/#-gpu-async-region)
    - [`gpu.wait`](https://mlir.llvm.org/docs/Dialects/GPU/#gpuwait-gpuwaitop)
    """
    for token in _token_values(ctx):
        if len(token.uses) < 2:
            continue
        users = [u for u in token.users if not _is_fork(u)]
        if len(users) < 2:
            continue
        users.sort(key=lambda u: at(u).start)
        first, rest = users[0], users[1:]
        the_fix = None
        uses = [use for use in token.uses if any(use.owner is u for u in rest)]
        owner_range = token.owner.range if isinstance(token, OpResult) else None
        if isinstance(token, OpResult) and owner_range is not None and _alone_on_line(ctx, token.owner) and all(use.span is not None for use in uses):
            forks = [ctx.fresh_token(token.owner) for _ in rest]
            fork_of = {id(u): f for u, f in zip(rest, forks)}
            indent = ctx.indentation(owner_range.start)
            lines = f"\n{indent}".join(f"%{f} = gpu.wait async [{value_name(token)}]" for f in forks)
            edits: list[Edit | None] = [insert_line_after(ctx, token.owner, lines)]
            edits.extend(Edit(use.span.range, f"%{fork_of[id(use.owner)]}") for use in uses if use.span is not None)
            n = len(rest)
            the_fix = fix(f"Fork `{value_name(token)}` explicitly for {'the other user' if n == 1 else f'the {n} other users'}", edits)
        related = tuple(Related(f"`{value_name(token)}` is used here", at(u)) for u in rest)
        yield Violation(
            f"`{value_name(token)}` is used by {len(users)} ops ({_token_users_description(users, ctx)}) without an explicit "
            f"fork: the lowering gives a token one stream; fork it with `gpu.wait async [{value_name(token)}]`",
            at(first),
            the_fix,
            related,
        )


# --- host-side races ----------------------------------------------------------------------------

# Host ops that use a buffer without touching its memory, which an async op may still be using.
_PASSES_BUFFERS = frozenset({"func.call", "func.return"})


def direct_access(op: Operation) -> bool:
    """An op the host runs itself that reads, writes or frees a buffer's memory (its declaration's
    effects), not one put on a GPU stream."""
    return effects.touches(op) and not is_async_op(op)


# Ops whose regions run on the device.
_DEVICE_REGIONS = frozenset({"gpu.launch", "gpu.module", "gpu.func"})


def _written_in_body(op: Operation, captured_only: bool, ctx: RuleContext) -> set[int]:
    """Buffers (roots) a device body may write: memrefs it uses other than by plain reads."""
    if captured_only:
        users, values = captured_memrefs(op, ctx)
        return {buffer_root(value) for user, value in zip(users, values) if not effects.only_reads(user)}
    out: set[int] = set()
    for nested in op.nested():
        if effects.only_reads(nested):
            continue
        for value in nested.operands:
            if not is_memref(value):
                continue
            out.add(buffer_root(value))
    return out


def _writes(op: Operation, ctx: RuleContext) -> tuple[set[int], str]:
    """The buffers an async op writes (or allocates), and a word for what it does to them."""
    if op.name == "gpu.launch":
        return _written_in_body(op, True, ctx), "written"
    if op.name == "gpu.launch_func":
        view = LaunchFuncView(op)
        operands = [v for v in view.kernel_operands if is_memref(v)]
        kernel = view.kernel
        module = closest_module(op)
        func = ctx.symbols.lookup_in(module, kernel) if module is not None and kernel is not None else None
        if func is not None and func.name == "gpu.func" and func.regions and func.regions[0].blocks:
            args = func.regions[0].blocks[0].arguments
            key = ("GPU208.written", id(func))  # once per kernel, however many launches
            written_args = ctx.cache.get(key)
            if written_args is None:
                written_args = ctx.cache[key] = _written_in_body(func, False, ctx)
            picked = [v for i, v in enumerate(view.kernel_operands) if is_memref(v) and i < len(args) and id(args[i]) in written_args]
            return {buffer_root(v) for v in picked}, "written"
        return {buffer_root(v) for v in operands}, "written"
    if op.name in ("gpu.memcpy", "gpu.memset") and len(op.operands) >= 2:
        return {buffer_root(op.operands[-2])}, "written"
    if op.name == "gpu.alloc" and op.results and is_memref(op.results[0]):
        return {id(op.results[0])}, "allocated"
    return set(), ""


class _Pending:
    __slots__ = ("op", "token", "buffers", "verb")

    def __init__(self, op: Operation, token: Value, buffers: set[int], verb: str) -> None:
        self.op = op
        self.token = token
        self.buffers = buffers
        self.verb = verb


def _escapes(token: Value) -> bool:
    """Whether the token (or one that depends on it) flows somewhere this analysis does not follow."""
    stack = [token]
    seen: set[int] = set()
    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        for user in value.users:
            spec = OPS.get(user.name)
            if spec is None or not spec.has("async"):
                return True
            dependent = async_token(user)
            if dependent is not None:
                stack.append(dependent)
    return False


class _RaceFinder:
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.pending: dict[int, _Pending] = {}  # id(token) -> producer
        self.deps: dict[int, list[Value]] = {}  # id(token) -> tokens it waits for
        self.tokens: list[Value] = []  # every token made so far, in program order
        self.out: list[Violation] = []

    def covered(self, token: Value) -> set[int]:
        """The tokens `token` completes after: itself and, transitively, its dependencies."""
        stack = [token]
        seen: set[int] = set()
        while stack:
            value = stack.pop()
            if id(value) not in seen:
                seen.add(id(value))
                stack.extend(self.deps.get(id(value), ()))
        return seen

    def complete(self, tokens: list[Value]) -> None:
        for token in tokens:
            for done in self.covered(token):
                self.pending.pop(done, None)

    def block_ops(self, ops: list[Operation]) -> None:
        for op in ops:
            self.visit(op)

    def visit(self, op: Operation) -> None:
        name = op.name
        if name == "gpu.module":
            return
        if name in _ASYNC_NAMES:
            deps = async_dependencies(op)
            token = async_token(op)
            if token is None:
                self.complete(deps)  # a synchronous op waits for its dependencies and itself
                return
            self.deps[id(token)] = deps
            self.tokens.append(token)
            buffers, verb = _writes(op, self.ctx)
            if buffers:
                self.pending[id(token)] = _Pending(op, token, buffers, verb)
            return
        if self.pending and (name in _PASSES_BUFFERS or direct_access(op)):
            self.check_access(op)
        for region in op.regions:
            for block in region.blocks:
                self.block_ops(block.operations)

    def cover(self, hits: list[_Pending]) -> Value | None:
        """The one token whose completion covers every hit: a hit's own token if one does, else a later one."""
        wanted = {id(p.token) for p in hits}
        candidates = [p.token for p in hits] + [t for t in self.tokens if all(t is not p.token for p in hits)]
        return next((t for t in candidates if wanted <= self.covered(t)), None)

    def check_access(self, op: Operation) -> None:
        roots = {buffer_root(v): v for v in op.operands if is_memref(v) and not _on_device(v, op)}
        if not roots:
            return
        hits: list[tuple[_Pending, Value]] = []
        for pending in list(self.pending.values()):
            hit = next((roots[r] for r in pending.buffers if r in roots), None)
            if hit is None:
                continue
            if _escapes(pending.token):
                self.pending.pop(id(pending.token), None)
                continue
            hits.append((pending, hit))
        if not hits:
            return
        producers = [p for p, _ in hits]
        token = self.cover(producers)
        wait, lines = self.wait_lines(op, token, producers)
        running = " and ".join(f"`{p.op.name}` (token `{value_name(p.token)}`)" for p in producers)
        if token is not None and len(producers) > 1:
            advice = f"wait for `{value_name(token)}`, which covers them all, first: `{wait}`"
        elif token is None:
            advice = f"join their tokens and wait first: `{wait}`"
        else:
            advice = f"wait for it first: `{wait}`"
        the_fix = None
        if _alone_on_line(self.ctx, op):
            the_fix = fix(
                f"Wait for {_names([token]) if token is not None else _names([p.token for p in producers])} before `{op.name}`",
                [insert_line_before(self.ctx, op, line) for line in lines],
                Applicability.UNSAFE,
            )
        notes = tuple(Related(f"`{value_name(hit)}` is {p.verb} here, asynchronously", at(p.op)) for p, hit in hits)
        used = ", ".join(dict.fromkeys(f"`{value_name(hit)}`" for _, hit in hits))
        self.out.append(
            Violation(
                f"`{op.name}` uses {used} on the host while {running} may still be running: {advice}",
                at(op),
                the_fix,
                notes,
            )
        )
        self.complete([token] if token is not None else [p.token for p in producers])

    def wait_lines(self, op: Operation, token: Value | None, producers: list[_Pending]) -> tuple[str, list[str]]:
        """The blocking wait to insert (as one phrase) and its lines: one `gpu.wait` on an unused token, else
        through a `gpu.wait async` so that no token gets a second user (GPU207)."""
        if token is not None and not token.uses:
            line = f"gpu.wait [{value_name(token)}]"
            return line, [line]
        joined = [token] if token is not None else [p.token for p in producers]
        name = self.ctx.fresh_token(op)
        lines = [f"%{name} = gpu.wait async [{_deps_list(joined)}]", f"gpu.wait [%{name}]"]
        return "; ".join(lines), lines


def _device_allocation(value: Value) -> Operation | None:
    """The `gpu.alloc` (not host_shared) that made the buffer `value` views, if any."""
    root = buffer_value(value)
    if isinstance(root, OpResult) and root.owner.name == "gpu.alloc" and root.index == 0 and not AllocView(root.owner).host_shared:
        return root.owner
    return None


def _on_device(value: Value, user: Operation) -> bool:
    """Whether `user` touches `value` as device memory that the host may not access (GPU415 reports it)."""
    return direct_access(user) and _device_allocation(value) is not None


@rule("GPU208", "host-access-before-wait", Severity.WARNING, fix=FixAvailability.SOMETIMES, whole_module=True)
def host_access_before_wait(ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Follows each host function in program order and reports a host-side use of a buffer
    (an op reading, writing or freeing it as its declaration states: `memref.load`/`store`,
    `memref.copy`, `memref.dealloc`, vector loads and stores, ...; `func.call`, `return`) while an
    async GPU op that writes it (`gpu.launch_func`, `gpu.launch`, `gpu.memcpy`,
    `gpu.memset`) or allocates it (`gpu.alloc`) has not been waited for: no blocking
    `gpu.wait` on its token, or on a token that depends on it, comes first.

    ## Why is this bad?
    Async ops return immediately; the host reads stale data, writes data the GPU is about
    to overwrite, or frees memory still in use. The result depends on timing.

    A kernel launched with `gpu.launch_func` is taken to write the memref arguments its
    `gpu.func` stores to (all memref arguments when the kernel cannot be found). Tokens
    that leave the function's straight-line code (yielded, returned, passed to a call) are
    not followed.

    ## Example
    ```mlir
    %t1 = gpu.memcpy async [%t0] %host, %dev : memref<4xf32>, memref<4xf32>
    %x = memref.load %host[%c0] : memref<4xf32>
    ```
    Use instead:
    ```mlir
    %t1 = gpu.memcpy async [%t0] %host, %dev : memref<4xf32>, memref<4xf32>
    gpu.wait [%t1]
    %x = memref.load %host[%c0] : memref<4xf32>
    ```

    ## Fix safety
    The fix inserts `gpu.wait [%t]` before the host access, when nothing else uses `%t`. It
    is unsafe: it makes the host block, and it orders later GPU work after the wait.

    ## References
    - [`gpu` dialect: async execution](https://mlir.llvm.org/docs/Dialects/GPU/)
    """
    by_name = ctx.index.by_name
    groups = [by_name[name] for name in by_name if name in _FUNCTIONS]
    funcs = groups[0] if len(groups) == 1 else sorted((f for g in groups for f in g), key=source_start)
    for func in funcs:
        if not func.regions or _in_gpu_module(func):
            continue
        for block in func.regions[0].blocks:
            finder = _RaceFinder(ctx)
            finder.block_ops(block.operations)
            yield from finder.out


def device_memory_on_host(op: Operation) -> Iterator[Violation]:
    """A host load, store, copy or free (`op`, a `direct_access`) of `gpu.alloc` memory that is not host_shared (GPU415)."""
    for value in op.operands:
        if is_memref(value) and (alloc := _device_allocation(value)) is not None:
            if _host_function(op) is None or any(a.name in _DEVICE_REGIONS for a in op.ancestors()):
                return
            yield Violation(
                f"`{op.name}` accesses `{value_name(value)}` on the host, but it is device memory from `gpu.alloc` "
                "(not `host_shared`): copy it to host memory with `gpu.memcpy`, or allocate it `host_shared`",
                at(op),
                None,
                (Related(f"`{value_name(buffer_value(value))}` is allocated on the device here", at(alloc)),),
            )
            return


_FUNCTIONS = frozenset(n for n, s in OPS.items() if s.has("function"))
_ASYNC_NAMES = frozenset(ASYNC_OPS)


def _in_gpu_module(op: Operation) -> bool:
    return any(a.name == "gpu.module" for a in op.ancestors())
