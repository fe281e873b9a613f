"""`-gpu-launch-sink-index-computations`: copy cheap index computations into gpu.launch bodies.

Upstream's `sinkOperationsIntoLaunchOp` with `isLikelyAnIndexComputation`:
constants, `memref.dim`, `arith.select` and `arith.cmpi` defined above a launch
and used inside it are cloned at the start of the launch body (defs before
uses) when every operand they need is already available inside the kernel, so
that sinking never adds a kernel argument. Only uses inside the launch change.
"""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.traits import is_constant_like
from gpu_lsp.passes.registration import gpu_pass
from gpu_lsp.passes.rewriter import clone_op, post_order, replace_uses_in_region, used_values_defined_above

SINKABLE = frozenset({"memref.dim", "arith.select", "arith.cmpi"})


def is_likely_index_computation(op: Operation) -> bool:
    """Upstream's `isLikelyAnIndexComputation`."""
    return is_constant_like(op) or op.name in SINKABLE


def _extract(
    op: Operation,
    existing: set[int],
    chosen: dict[int, Operation],
    available: set[int],
    beneficial: Callable[[Operation], bool],
) -> bool:
    """`extractBeneficiaryOps`: can `op` be sunk without a new kernel argument?"""
    if id(op) in chosen:
        return True
    if not beneficial(op):
        return False
    for operand in op.operands:
        if id(operand) in available:
            continue
        definer = operand.defining_op
        if (definer is None or not _extract(definer, existing, chosen, available, beneficial)) and id(operand) not in existing:
            return False
    chosen[id(op)] = op
    for result in op.results:
        available.add(id(result))
    return True


def sink_into_launch(launch: Operation, beneficial: Callable[[Operation], bool] = is_likely_index_computation) -> list[Operation]:
    """`sinkOperationsIntoLaunchOp` for one gpu.launch; returns the clones it inserted."""
    body = launch.regions[0]
    candidates: list[Value] = used_values_defined_above(body)
    existing = {id(v) for v in candidates}
    chosen: dict[int, Operation] = {}
    available: set[int] = set()
    for value in candidates:
        definer = value.defining_op
        if definer is not None:
            _extract(definer, existing, chosen, available, beneficial)
    entry = body.blocks[0]
    mapping: dict = {}
    clones = []
    for index, op in enumerate(chosen.values()):
        clone = clone_op(op, mapping)
        entry.insert(index, clone)
        clones.append(clone)
        for old, new in zip(op.results, clone.results):
            replace_uses_in_region(old, new, body)
    return clones


def sink_index_computations(root: Operation) -> list[Operation]:
    """Run the pass on `root` (any op); returns the inserted clones."""
    with paused_gc():
        return _sink_all(root)


@gpu_pass("gpu-launch-sink-index-computations")
def sink_pass(op: Operation, options: dict[str, str]) -> None:
    """Sink index computations (constants, memref.dim, arith.select/cmpi) into gpu.launch bodies."""
    sink_index_computations(op)


def _sink_all(root: Operation) -> list[Operation]:
    inserted: list[Operation] = []
    for op in post_order(root):
        if op.name == "gpu.launch" and op.regions and op.regions[0].blocks:
            inserted.extend(sink_into_launch(op))
    return inserted
