"""GPU414: a barrier or another collective reached only by the threads a thread-dependent branch picks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.model import Related, Severity
from gpu_lsp.diagnostics.registry import Violation, rule
from gpu_lsp.diagnostics.rules._util import at, value_name
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


def _walk(block: Block, taints: dict[Value, Taint], outer: Divergence | None, out: list[tuple[Operation, Divergence]]) -> None:
    for op in block.operations:
        if outer is not None:
            needs = PER_SUBGROUP if op.name in BLOCK_COLLECTIVES else PER_THREAD if op.name in SUBGROUP_COLLECTIVES else None
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
                _walk(inner, taints, here, out)


def _kernels_with_collectives(ctx: RuleContext) -> set[int]:
    """The kernels (gpu.func, gpu.launch) holding a collective op, found once per chunk."""
    key = ("sanitizer.collective_kernels",)
    found = ctx.cache.get(key)
    if found is None:
        found = set()
        for op in ctx.index.named(*BLOCK_COLLECTIVES, *SUBGROUP_COLLECTIVES):
            found.update(id(a) for a in op.ancestors() if a.name in ("gpu.func", "gpu.launch"))
        ctx.cache[key] = found
    return found


def divergent_collectives(kernel: Operation, ctx: RuleContext) -> list[tuple[Operation, Divergence]]:
    """Collective ops of a kernel body under thread-dependent control flow."""
    if id(kernel) not in _kernels_with_collectives(ctx):
        return []
    taints = cached_taints(kernel, ctx.cache)
    out: list[tuple[Operation, Divergence]] = []
    if taints:
        for region in kernel.regions:
            for block in region.blocks:
                _walk(block, taints, None, out)
    return out


@rule("GPU414", "divergent-barrier", Severity.WARNING, ops=("gpu.func", "gpu.launch"))
def divergent_barrier(op: Operation, ctx: RuleContext) -> Iterator[Violation]:
    """
    ## What it does
    Reports `gpu.barrier` and `gpu.all_reduce` under control flow (`scf.if`, `scf.for`,
    `scf.while`, `scf.index_switch`) whose condition or bounds depend on the thread:
    on `gpu.thread_id`, `gpu.lane_id`, `gpu.global_id`, `gpu.subgroup_id`, or on values
    computed or loaded from them; and subgroup collectives (`gpu.shuffle`,
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
    for collective, why in divergent_collectives(op, ctx):
        source = why.taint.source
        origin = "the thread ids of `gpu.launch`" if source.name == "gpu.launch" else f"`{source.name}`"
        yield Violation(
            f"`{collective.name}` is reached only by the threads that `{why.control.name}` picks: "
            f"`{value_name(why.value)}` depends on {origin}, so threads that skip it never arrive",
            at(collective),
            related=(Related(f"`{why.control.name}` decides on `{value_name(why.value)}` here", at(why.control)),),
        )
