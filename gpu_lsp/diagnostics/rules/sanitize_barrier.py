"""GPU414: a barrier or another collective reached only by the threads a thread-dependent branch picks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name
from gpu_lsp.diagnostics.sanitizer.kernel_checks import callee_of
from gpu_lsp.diagnostics.sanitizer.kernels import PER_SUBGROUP, PER_THREAD, Taint, cached_taints
from gpu_lsp.ir.core import Block, Operation, Value

# Ops every thread of a block must reach together, and those every lane of a subgroup must.
BLOCK_COLLECTIVES = frozenset({"gpu.barrier", "gpu.all_reduce"})
SUBGROUP_COLLECTIVES = frozenset({"gpu.shuffle", "gpu.subgroup_reduce", "gpu.subgroup_broadcast", "gpu.rotate"})
# Control flow: which operands decide what runs inside.
DECIDING_OPERANDS = {"scf.if": slice(0, 1), "scf.for": slice(0, 3), "scf.index_switch": slice(0, 1), "scf.parallel": slice(None)}


@dataclass(frozen=True)
class Divergence:
    """The innermost thread-dependent control op around an op, and why it is."""

    control: Operation
    value: Value
    taint: Taint


def _condition(op: Operation, taints: dict[Value, Taint]) -> tuple[Value, Taint] | None:
    if op.name == "scf.while":
        before = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        term = before.terminator if before is not None else None
        values = term.operands[:1] if term is not None and term.name == "scf.condition" else []
    else:
        part = DECIDING_OPERANDS.get(op.name)
        values = op.operands[part] if part is not None else []
    best = None
    for v in values:
        t = taints.get(v)
        if t is not None and (best is None or t.level > best[1].level):
            best = (v, t)
    return best


def _walk(block: Block, taints: dict[Value, Taint], outer: Divergence | None, out: list[tuple[Operation, Divergence]],
          barrier_calls: dict[int, Operation]) -> None:
    for op in block.operations:
        if outer is not None:
            needs = PER_SUBGROUP if op.name in BLOCK_COLLECTIVES or id(op) in barrier_calls else PER_THREAD if op.name in SUBGROUP_COLLECTIVES else None
            if needs is not None and outer.taint.level >= needs:
                out.append((op, outer))
        if not op.regions:
            continue
        here = outer
        found = _condition(op, taints)
        if found is not None and (outer is None or found[1].level > outer.taint.level):
            here = Divergence(op, found[0], found[1])
        for region in op.regions:
            for inner in region.blocks:
                _walk(inner, taints, here, out, barrier_calls)


def _barrier_functions(ctx: RuleContext) -> dict[int, Operation]:
    """id of each `func.func` reaching a block collective (itself or through calls) -> that collective."""
    key = ("sanitizer.barrier_functions",)
    found = ctx.cache.get(key)
    if found is None:
        found = {}
        for op in ctx.index.named(*BLOCK_COLLECTIVES):
            func = next((a for a in op.ancestors() if a.name == "func.func"), None)
            if func is not None:
                found.setdefault(id(func), op)
        calls = ctx.index.named("func.call")
        changed = bool(found) and bool(calls)
        while changed:
            changed = False
            for call in calls:
                target = callee_of(call, ctx)
                caller = next((a for a in call.ancestors() if a.name == "func.func"), None)
                if target is not None and caller is not None and id(target) in found and id(caller) not in found:
                    found[id(caller)] = found[id(target)]
                    changed = True
        ctx.cache[key] = found
    return found


def _barrier_calls(ctx: RuleContext) -> dict[int, Operation]:
    """id of each `func.call` whose callee reaches a block collective -> that collective."""
    key = ("sanitizer.barrier_calls",)
    found = ctx.cache.get(key)
    if found is None:
        functions = _barrier_functions(ctx)
        found = {}
        if functions:
            for call in ctx.index.named("func.call"):
                target = callee_of(call, ctx)
                if target is not None and id(target) in functions:
                    found[id(call)] = functions[id(target)]
        ctx.cache[key] = found
    return found


def _kernels_with_collectives(ctx: RuleContext) -> set[int]:
    """The kernels and device functions holding a collective op or a call reaching one, found once per chunk."""
    key = ("sanitizer.collective_kernels",)
    found = ctx.cache.get(key)
    if found is None:
        found = set()
        calls = _barrier_calls(ctx)
        holders = [*ctx.index.named(*BLOCK_COLLECTIVES, *SUBGROUP_COLLECTIVES), *(c for c in ctx.index.named("func.call") if id(c) in calls)]
        for op in holders:
            found.update(id(a) for a in op.ancestors() if a.name in ("gpu.func", "gpu.launch", "func.func"))
        ctx.cache[key] = found
    return found


def divergent_collectives(kernel: Operation, ctx: RuleContext) -> list[tuple[Operation, Divergence]]:
    """Collective ops of a kernel body (or device function), and calls reaching one, under thread-dependent control flow."""
    if id(kernel) not in _kernels_with_collectives(ctx):
        return []
    taints = cached_taints(kernel, ctx.cache)
    out: list[tuple[Operation, Divergence]] = []
    if taints:
        calls = _barrier_calls(ctx)
        for region in kernel.regions:
            for block in region.blocks:
                _walk(block, taints, None, out, calls)
    return out


@rule("GPU414", "divergent-barrier", Severity.WARNING, ops=("gpu.func", "gpu.launch", "func.func"), whole_module=True)
def divergent_barrier(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports `gpu.barrier` and `gpu.all_reduce` under control flow (`scf.if`, `scf.for`,
    `scf.while`, `scf.index_switch`) whose condition or bounds depend on the thread:
    on `gpu.thread_id`, `gpu.lane_id`, `gpu.global_id`, `gpu.subgroup_id`, or on values
    computed or loaded from them (a loop whose trip count differs between threads runs the
    barrier a different number of times in each); a `func.call` under such control flow
    whose device function reaches a barrier (itself or through further calls), and
    thread-dependent branches inside device functions; and subgroup collectives (`gpu.shuffle`,
    `gpu.subgroup_reduce`) under control flow that depends on the lane. Conditions on
    kernel arguments, block ids and sizes, and values combined only from those, are
    uniform and stay quiet.

    ## Why is this bad?
    Every thread of a block must reach the same barrier: if some skip it, the others wait
    forever or the behaviour is undefined (CUDA's `__syncthreads` in divergent code;
    compute-sanitizer's synccheck). A collective reached by part of a block or subgroup
    reads values from threads that never contributed.

    ## Example
    ```mlir
    %tid = gpu.thread_id x
    %first = arith.cmpi ult, %tid, %c32 : index
    scf.if %first {
      gpu.barrier
    }
    ```
    Use instead: let every thread reach the barrier, and branch around the work only:
    ```mlir
    scf.if %first {
      // work
    }
    gpu.barrier
    ```

    ## Fix safety
    There is no fix: moving a barrier changes which memory accesses it orders.

    ## References
    - [`gpu.barrier`](https://mlir.llvm.org/docs/Dialects/GPU/#gpubarrier-gpubarrierop)
    - [compute-sanitizer synccheck](https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html#synccheck-tool)
    """
    if op.name == "func.func" and not any(a.name == "gpu.module" for a in op.ancestors()):
        return
    calls = _barrier_calls(ctx)
    for collective, why in divergent_collectives(op, ctx):
        source = why.taint.source
        origin = "the thread ids of `gpu.launch`" if source.name == "gpu.launch" else f"`{source.name}`"
        decides = Related(f"`{why.control.name}` decides on `{value_name(why.value)}` here", at(why.control))
        reached = calls.get(id(collective))
        if reached is not None:
            yield Violation(
                f"`{collective.name}` reaches `{reached.name}` in a device function, called only by the threads that "
                f"`{why.control.name}` picks: `{value_name(why.value)}` depends on {origin}, so threads that skip it never arrive",
                at(collective),
                related=(decides, Related(f"`{reached.name}` reached through the call", at(reached))),
            )
            continue
        yield Violation(
            f"`{collective.name}` is reached only by the threads that `{why.control.name}` picks: "
            f"`{value_name(why.value)}` depends on {origin}, so threads that skip it never arrive",
            at(collective),
            related=(decides,),
        )
