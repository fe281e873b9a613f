"""What a kernel does to its buffers (reads, writes per argument) and which of its values vary per thread."""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_lsp.diagnostics.rules._util import buffer_value, is_memref
from gpu_lsp.ir.core import Block, Operation, Value
from gpu_lsp.ir.effects import is_view, operand_effects

# Taint levels: how far a value may differ between the threads of a block.
UNIFORM, PER_SUBGROUP, PER_THREAD = 0, 1, 2
SOURCES = {
    "gpu.thread_id": PER_THREAD, "gpu.lane_id": PER_THREAD, "gpu.global_id": PER_THREAD,
    "gpu.subgroup_id": PER_SUBGROUP, "nvvm.read.ptx.sreg.tid.x": PER_THREAD, "nvvm.read.ptx.sreg.tid.y": PER_THREAD,
    "nvvm.read.ptx.sreg.tid.z": PER_THREAD, "nvvm.read.ptx.sreg.laneid": PER_THREAD,
}
# Results that differ per thread whatever the operands (each thread gets its own old value or lane).
PER_THREAD_RESULTS = frozenset({"memref.atomic_rmw", "memref.generic_atomic_rmw", "gpu.shuffle", "gpu.rotate"})
# Results the same for every thread of a block (collectives over the block).
BLOCK_UNIFORM_RESULTS = frozenset({"gpu.all_reduce"})
# Collectives over a subgroup: their result only varies between subgroups.
SUBGROUP_RESULTS = frozenset({"gpu.subgroup_reduce", "gpu.subgroup_broadcast"})


# Ops that use a memref without accessing its elements through it (views are followed).
NO_ACCESS = frozenset({"memref.dim", "memref.rank", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index"})


@dataclass
class Summary:
    """The buffers a kernel body accesses: root value -> first op reading / writing through it, and
    buffers handed to ops this summary does not know (a call, an unknown op: they may write)."""

    reads: dict[Value, Operation] = field(default_factory=dict)
    writes: dict[Value, Operation] = field(default_factory=dict)
    others: dict[Value, Operation] = field(default_factory=dict)


def _record(table: dict[Value, Operation], value: Value, op: Operation) -> None:
    if is_memref(value):
        table.setdefault(buffer_value(value), op)


def summarize(kernel: Operation) -> Summary:
    """Reads and writes of a `gpu.func` (keyed by its entry arguments) or a `gpu.launch` body
    (keyed by the captured values and its own arguments), through views and casts."""
    out = Summary()
    for op in kernel.nested():
        if not op.operands:
            continue
        read, write, _ = operand_effects(op)
        for i in read:
            _record(out.reads, op.operands[i], op)
        for i in write:
            _record(out.writes, op.operands[i], op)
        if op.name in NO_ACCESS or is_view(op):
            continue
        for i, value in enumerate(op.operands):
            if i not in read and i not in write:
                _record(out.others, value, op)
    return out


def cached_summary(kernel: Operation, cache: dict) -> Summary:
    """`summarize`, computed once per kernel in `cache` (a per-chunk memo)."""
    key = ("sanitizer.summary", id(kernel))
    found = cache.get(key)
    if found is None:
        found = cache[key] = summarize(kernel)
    return found


@dataclass(frozen=True)
class Taint:
    """Why a value varies between threads: its level and the op it comes from."""

    level: int
    source: Operation


def _entry(kernel: Operation) -> Block | None:
    if not kernel.regions or not kernel.regions[0].blocks:
        return None
    return kernel.regions[0].blocks[0]


def taints(kernel: Operation) -> dict[Value, Taint]:
    """Every value of a kernel body that may differ between the threads of a block."""
    out: dict[Value, Taint] = {}
    entry = _entry(kernel)
    if entry is not None and kernel.name == "gpu.launch":
        for arg in entry.arguments[3:6]:  # the thread ids (tx, ty, tz)
            out[arg] = Taint(PER_THREAD, kernel)
    for region in kernel.regions:
        for block in region.blocks:
            _taint_block(block, out)
    return out


def _worst(values, out: dict[Value, Taint]) -> Taint | None:
    best: Taint | None = None
    for v in values:
        t = out.get(v)
        if t is not None and (best is None or t.level > best.level):
            best = t
    return best


def _taint_block(block: Block, out: dict[Value, Taint]) -> None:
    for op in block.operations:
        name = op.name
        level = SOURCES.get(name)
        found: Taint | None
        if level is not None:
            found = Taint(level, op)
        elif name in PER_THREAD_RESULTS:
            found = Taint(PER_THREAD, op)
        elif name in BLOCK_UNIFORM_RESULTS:
            found = None
        else:
            found = _worst(op.operands, out)
            if found is not None and name in SUBGROUP_RESULTS:
                found = Taint(min(found.level, PER_SUBGROUP), found.source)
        if op.regions:
            if name == "scf.for" and len(op.operands) >= 3:
                bounds = _worst(op.operands[:3], out)
                body = _entry(op)
                if body is not None and body.arguments:
                    if bounds is not None:
                        out[body.arguments[0]] = bounds
                    for arg, init in zip(body.arguments[1:], op.operands[3:]):
                        if init in out:
                            out[arg] = out[init]
            elif name == "scf.while":
                before = _entry(op)
                if before is not None:  # the loop-carried values start from the operands
                    for arg, init in zip(before.arguments, op.operands):
                        if init in out:
                            out[arg] = out[init]
            for region in op.regions:
                for inner in region.blocks:
                    _taint_block(inner, out)
            if name != "gpu.launch":
                yielded = [v for region in op.regions for b in region.blocks if b.terminator is not None for v in b.terminator.operands]
                inner_taint = _worst(yielded, out)
                if inner_taint is not None and (found is None or inner_taint.level > found.level):
                    found = inner_taint
        if found is not None and found.level > UNIFORM:
            for result in op.results:
                out[result] = found


def cached_taints(kernel: Operation, cache: dict) -> dict[Value, Taint]:
    """`taints`, computed once per kernel in `cache` (a per-chunk memo)."""
    key = ("sanitizer.taints", id(kernel))
    found = cache.get(key)
    if found is None:
        found = cache[key] = taints(kernel)
    return found
