"""Hazards of host code found by following each block's GPU ops in program order, like a GPU would run them.

Each block of host code is followed on its own, from its first op to its terminator. A GPU op
is a node; its async dependencies are edges; a node is complete for the host once a blocking
`gpu.wait` (or a synchronous GPU op) waited for it or for a node that depends on it. What the
analysis cannot follow (a call, a region holding GPU work, an op it does not know taking a
token) is taken to wait for everything, and a buffer passed to it escapes: nothing is
reported about it afterwards. So every hazard found is certain whenever the block runs and
the kernels involved take the paths through their bodies that make the accesses (a store
under a condition counts as a write).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.rules._util import buffer_value, is_memref
from gpu_lsp.diagnostics.sanitizer.kernels import cached_summary
from gpu_lsp.ir import effects
from gpu_lsp.ir.core import Block, Operation, Value
from gpu_lsp.ir.symbols import closest_module
from gpu_lsp.ir.views import (
    AllocView,
    LaunchFuncView,
    async_dependencies,
    async_token,
)

# Hazard kinds (one rule reports each group).
RACE = "race"
FREE_IN_USE = "free-in-use"
DOUBLE_FREE = "double-free"
USE_AFTER_FREE = "use-after-free"
LEAK = "leak"
UNINITIALIZED = "uninitialized"
HOST_MEMORY_IN_KERNEL = "host-memory-in-kernel"
DEVICE_MEMORY_ON_HOST = "device-memory-on-host"

GPU_HOST_OPS = frozenset({"gpu.wait", "gpu.alloc", "gpu.dealloc", "gpu.memcpy", "gpu.memset", "gpu.launch_func", "gpu.launch"})
DEVICE_CODE = frozenset({"gpu.module", "gpu.launch", "gpu.func", "gpu.binary"})
FUNCTIONS = frozenset({"func.func", "llvm.func"})

DEVICE, SHARED, HOST = "device", "host-shared", "host"


@dataclass(frozen=True)
class Hazard:
    """One hazard: its kind, the op it is reported at, the buffer and the other op involved."""

    kind: str
    op: Operation
    buffer: Value
    other: Operation | None = None
    write: bool = False  # for races: whether `op` writes
    fixable: bool = False  # for leaks: nothing may still use the buffer at the end of the block


@dataclass(eq=False)
class InFlightOp:
    """One GPU op in flight: the nodes it is ordered after and the buffers it accesses."""

    op: Operation
    ancestors: set[int]
    frees: bool = False  # whether `op` frees the buffers it writes
    allocates: bool = False  # whether `op` allocates memory
    accesses: dict[Value, bool] = field(default_factory=dict)  # buffer -> writes
    done: bool = False


@dataclass(eq=False)
class TrackedBuffer:
    """An allocation made in the block being followed."""

    op: Operation
    kind: str
    freed: Operation | None = None
    written: bool = False
    registered: bool = False
    escaped: bool = False


def host_blocks(root: Operation) -> Iterator[Block]:
    """Every block of host code under `root` (not kernels, launch bodies or gpu.module)."""
    for region in root.regions:
        for block in region.blocks:
            yield block
            for op in block.operations:
                if op.regions and op.name not in DEVICE_CODE:
                    yield from host_blocks(op)


def kernel_of(op: Operation, ctx: RuleContext) -> Operation | None:
    """The `gpu.func` a `gpu.launch_func` launches, when it can be found and has a body."""
    kernel = LaunchFuncView(op).kernel
    module = closest_module(op)
    if kernel is None or module is None:
        return None
    func = ctx.symbols.lookup_in(module, kernel)
    if func is None or func.name != "gpu.func" or not func.regions or not func.regions[0].blocks:
        return None
    return func


def launch_accesses(op: Operation, ctx: RuleContext) -> list[tuple[Value, bool, bool, bool]]:
    """(buffer, reads, writes, may write otherwise) for each host buffer a launch's kernel uses."""
    out: list[tuple[Value, bool, bool, bool]] = []
    if op.name == "gpu.launch_func":
        func = kernel_of(op, ctx)
        if func is None:
            return out
        summary = cached_summary(func, ctx.cache)
        args = func.regions[0].blocks[0].arguments
        for value, arg in zip(LaunchFuncView(op).kernel_operands, args):
            if is_memref(value):
                out.append((buffer_value(value), arg in summary.reads, arg in summary.writes, arg in summary.others))
        return out
    summary = cached_summary(op, ctx.cache)
    for value in {**summary.reads, **summary.writes, **summary.others}:
        if not _inside(value, op):
            out.append((value, value in summary.reads, value in summary.writes, value in summary.others))
    return out


def _inside(value: Value, op: Operation) -> bool:
    owner = value.defining_op
    if owner is None:  # a block argument
        block = value.parent_block
        block_owner = block.parent_op if block is not None else None
        return block_owner is op or (block_owner is not None and op.is_ancestor_of(block_owner))
    return owner is op or op.is_ancestor_of(owner)


class BlockFollower:
    """Follows one block of host code; `hazards` collects what it finds."""

    def __init__(self, block: Block, ctx: RuleContext) -> None:
        self.block = block
        self.ctx = ctx
        self.nodes: list[InFlightOp] = []
        self.by_token: dict[Value, InFlightOp] = {}
        self.buffers: dict[Value, TrackedBuffer] = {}
        self.hazards: list[Hazard] = []
        self._seen: set[tuple] = set()

    def run(self) -> list[Hazard]:
        for op in self.block.operations:
            self.visit(op)
        self.leaks()
        return self.hazards

    # --- ordering ----------------------------------------------------------------------------

    def complete(self, nodes: list[InFlightOp]) -> None:
        for node in nodes:
            node.done = True
            for other in self.nodes:
                if id(other) in node.ancestors:
                    other.done = True

    def complete_all(self) -> None:
        for node in self.nodes:
            node.done = True

    def report(self, hazard: Hazard) -> None:
        key = (hazard.kind, id(hazard.op), id(hazard.buffer))  # one report per op and buffer
        if key not in self._seen:
            self._seen.add(key)
            self.hazards.append(hazard)

    # --- ops ---------------------------------------------------------------------------------

    def visit(self, op: Operation) -> None:
        name = op.name
        if name in GPU_HOST_OPS:
            self.gpu_op(op)
            return
        read, write, free = effects.operand_effects(op)
        if free or op.regions:
            self.unknown(op)
        elif read or write:
            for index in read:
                self.host_access(op, index, False)
            for index in write:
                self.host_access(op, index, True)
        elif effects.allocated(op):
            for memref in effects.allocated(op):
                self.buffers[memref] = TrackedBuffer(op, HOST)
        elif name == "gpu.host_register":
            buf = self.buffers.get(buffer_value(op.operands[0])) if op.operands else None
            if buf is not None:
                buf.registered = True
        elif effects.is_view(op) or name == "memref.dim":
            return
        else:
            self.unknown(op)

    def unknown(self, op: Operation) -> None:
        """An op this analysis does not follow: its buffers escape; it may wait for anything."""
        nested = list(op.nested())
        for inner in [op] + nested:
            for value in inner.operands:
                if is_memref(value):
                    buf = self.buffers.get(buffer_value(value))
                    if buf is not None:
                        buf.escaped = True
        takes_token = any(v.type.is_token for v in op.operands)
        if op.name == "func.call" or takes_token or any(n.name.startswith(("gpu.", "async.")) or n.name == "func.call" for n in nested):
            self.complete_all()

    def host_access(self, op: Operation, index: int, write: bool) -> None:
        root = buffer_value(op.operands[index])
        buf = self.buffers.get(root)
        if buf is None or buf.escaped:
            return
        if buf.freed is not None:
            self.report(Hazard(USE_AFTER_FREE, op, root, buf.freed))
            return
        if buf.kind == DEVICE:
            self.report(Hazard(DEVICE_MEMORY_ON_HOST, op, root, buf.op, write))
            return
        if not write and not buf.written and buf.kind == SHARED:
            self.report(Hazard(UNINITIALIZED, op, root, buf.op))
        if write:
            buf.written = True

    def gpu_op(self, op: Operation) -> None:
        deps = async_dependencies(op)
        token = async_token(op)
        dep_nodes = [self.by_token[d] for d in deps if d in self.by_token]
        if token is None:
            self.complete(dep_nodes)  # a synchronous op waits for its dependencies first
            if op.name == "gpu.wait":
                return
        ancestors: set[int] = set()
        for dep in dep_nodes:
            ancestors.add(id(dep))
            ancestors |= dep.ancestors
        node = InFlightOp(op, ancestors, bool(effects.frees(op)), bool(effects.allocated(op)))
        for root, reads, writes, handed in self.accesses(op):
            self.access(node, root, reads, writes, handed)
        self.nodes.append(node)
        if token is None:
            self.complete([node])
        else:
            self.by_token[token] = node

    def accesses(self, op: Operation) -> list[tuple[Value, bool, bool, bool]]:
        """(buffer, reads, writes, may write otherwise) of a GPU op, with the allocation and freeing it does."""
        if op.name in ("gpu.launch_func", "gpu.launch"):
            return launch_accesses(op, self.ctx)
        out: list[tuple[Value, bool, bool, bool]] = []
        for memref in effects.allocated(op):
            self.buffers[memref] = TrackedBuffer(op, SHARED if AllocView(op).host_shared else DEVICE)
            out.append((memref, False, True, False))
        read, write, free = effects.operand_effects(op)
        out.extend((buffer_value(op.operands[i]), True, False, False) for i in read if is_memref(op.operands[i]))
        out.extend((buffer_value(op.operands[i]), False, True, False) for i in write + free)
        return out

    def access(self, node: InFlightOp, root: Value, reads: bool, writes: bool, handed: bool) -> None:
        """`node` reads and/or writes `root`; `handed`: it also hands it to something that may write it."""
        op = node.op
        freeing = node.frees
        found = self.buffers.get(root)
        buf = found if found is not None and not found.escaped else None  # tracked
        if buf is not None and buf.freed is not None and (reads or writes):
            self.report(Hazard(DOUBLE_FREE if freeing else USE_AFTER_FREE, op, root, buf.freed))
            return
        if buf is not None and (reads or writes) and op.name in ("gpu.launch_func", "gpu.launch") and buf.kind == HOST and not buf.registered:
            self.report(Hazard(HOST_MEMORY_IN_KERNEL, op, root, buf.op, writes))
        if buf is not None and reads and not writes and not handed and not buf.written and buf.kind != HOST:
            self.report(Hazard(UNINITIALIZED, op, root, buf.op))
        if buf is not None and handed:
            buf.written = True
        if not (reads or writes):
            return
        kind = FREE_IN_USE if freeing else RACE
        for other in self.nodes:
            if other.done or id(other) in node.ancestors:
                continue
            seen = other.accesses.get(root)
            if seen is None or not (writes or seen):
                continue
            if kind == FREE_IN_USE and async_token(op) is None:
                continue  # a synchronous free waits for the device (cudaFree synchronizes)
            self.report(Hazard(kind, op, root, other.op, writes))
        node.accesses[root] = node.accesses.get(root, False) or writes
        if buf is not None:
            if writes and not node.allocates:
                buf.written = True
            if freeing:
                buf.freed = op

    # --- end of the block --------------------------------------------------------------------

    def leaks(self) -> None:
        for root, buf in self.buffers.items():
            if buf.op.name != "gpu.alloc" or buf.freed is not None or buf.escaped:
                continue
            if all(user.parent is self.block for user in _users_through_views(root)):
                busy = any(not node.done and root in node.accesses for node in self.nodes)
                self.report(Hazard(LEAK, buf.op, root, fixable=not busy))


def _users_through_views(value: Value) -> list[Operation]:
    out: list[Operation] = []
    stack = [value]
    while stack:
        v = stack.pop()
        for user in v.users:
            out.append(user)
            if effects.is_view(user) and user.results:
                stack.extend(user.results)
    return out


def chunk_hazards(ctx: RuleContext) -> list[Hazard]:
    """Every hazard of the chunk's host code, computed once per chunk."""
    key = ("sanitizer.hazards",)
    found = ctx.cache.get(key)
    if found is None:
        found = []
        for block in host_blocks(ctx.module):
            if any(op.name in GPU_HOST_OPS for op in block.operations):
                found.extend(BlockFollower(block, ctx).run())
        ctx.cache[key] = found
    return found


def in_host_function(op: Operation, ctx: RuleContext) -> Operation | None:
    """The function holding `op` when it is certainly host code: a function outside any
    gpu.module or kernel that itself issues GPU work (allocates, copies, launches, waits)."""
    func = None
    for parent in op.ancestors():
        if parent.name in DEVICE_CODE:
            return None
        if func is None and parent.name in FUNCTIONS:
            func = parent
    if func is None:
        return None
    key = ("sanitizer.host_function", id(func))
    issues = ctx.cache.get(key)
    if issues is None:
        issues = ctx.cache[key] = any(
            n.name in GPU_HOST_OPS and not any(a.name in DEVICE_CODE for a in n.ancestors()) for n in func.nested()
        )
    return func if issues else None
