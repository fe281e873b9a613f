"""The interpreter: runs host functions and, vectorised over the threads of a chunk of blocks, kernels.

One engine serves both: on the host every value is uniform and there is no
mask; in a kernel a value may vary by thread, and regions run under a mask of
active threads (`scf.if` on a varying condition runs both branches masked,
unstructured branches are followed with per-block pending masks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Block, Operation, Region, Value
from gpu_lsp.ir.opdefs.format_customs import case_values
from gpu_lsp.ir.symbols import symbol_name
from gpu_lsp.ir.traits import REGION_RETURNS
from gpu_lsp.runner.access_log import Recorder
from gpu_lsp.runner.dtypes import dtype_of
from gpu_lsp.runner.errors import RunError, RunTimeout, Unsupported
from gpu_lsp.runner.lanes import Lin, Space, is_uniform, materialize, merge, normalize_mask
from gpu_lsp.runner.memory import Access, MemoryPool

HANDLERS: dict[str, Callable] = {}

BRANCHES = frozenset({"cf.br", "cf.cond_br", "cf.switch"})


def handles(*names: str):
    """Register an op handler `fn(interp, op, env, ctx, mask)`."""

    def wrap(fn: Callable) -> Callable:
        for name in names:
            HANDLERS[name] = fn
        return fn

    return wrap


class Env:
    """SSA values of one function activation (a child env sees its parent's values)."""

    __slots__ = ("vals", "parent")

    def __init__(self, parent: Env | None = None) -> None:
        self.vals: dict[Value, Any] = {}  # NumPy scalars and arrays, Lin forms (lanes.py), memrefs, tokens
        self.parent = parent

    def get(self, v: Value):
        env: Env | None = self
        while env is not None:
            out = env.vals.get(v, _MISSING)
            if out is not _MISSING:
                return out
            env = env.parent
        raise RunError(f"value %{v.name or '?'} is used before it is defined")


_MISSING = object()


class Ctx:
    """Where code runs: the host (no thread space) or one chunk of a kernel launch."""

    def __init__(self, space: Space | None, device: bool, access: Access, launch=None) -> None:
        self.space = space
        self.device = device
        self.access = access
        self.launch = launch  # KernelLaunch for kernels
        self.allocas: list = []

    def lanes(self) -> Space:
        """The thread space (a Lin form or per-thread array exists only in a kernel)."""
        if self.space is None:
            raise ValueError("a per-thread value outside a kernel")
        return self.space


class Interpreter:
    """Executes ops; host-side GPU ops go to `self.backend`, runtime calls to `self.runtime`."""

    def __init__(
        self, program, backend, runtime, tracker, locator, deadline: float | None, pool: MemoryPool, output: Callable[[str], None]
    ) -> None:
        self.program = program
        self.backend = backend
        self.runtime = runtime
        self.tracker = tracker
        self.locator = locator
        self.deadline = deadline
        self.pool = pool
        self.output = output  # the program's standard output
        self._ticks = 0
        self._orders: dict[int, dict[Block, int]] = {}  # block order of multi-block regions (the program outlives the run)
        self.host_access = Access(None, False, locator.where)
        self.loop_plans: dict[int, object] = {}  # hostloop.Plan (or None) of each host scf.for run so far
        self.compiled_loops: dict[tuple[int, int], list] = {}  # hostcompile closures of host scf.for bodies
        self.racecheck: Recorder | None = None  # when `gpu-run --racecheck` records kernel accesses

    # --- limits -----------------------------------------------------------------------------

    def tick(self, op: Operation | None = None) -> None:
        self._ticks += 1
        if self.deadline is not None and self._ticks & 255 == 0 and time.monotonic() > self.deadline:
            raise RunTimeout("the program ran past its time limit", op)

    def check_host_readable(self, mem, op: Operation) -> None:
        """The host is about to read `mem` (e.g. in printMemref)."""
        self.host_access.check_live(mem, op, "reads")
        self.tracker.host_access(mem.buf, op, write=False)

    # --- values -----------------------------------------------------------------------------

    def operands(self, op: Operation, env: Env) -> list:
        return [env.get(v) for v in op.operands]

    def set_results(self, op: Operation, values, env: Env, ctx: Ctx, mask) -> None:
        if len(values) != len(op.results):
            raise RunError(f"'{op.name}' op produced {len(values)} values for {len(op.results)} results", op)
        for r, v in zip(op.results, values):
            self.assign(env, r, v, ctx, mask)

    def assign(self, env: Env, v: Value, value, ctx: Ctx, mask) -> None:
        if mask is not None:
            old = env.vals.get(v)
            if old is not None:
                value = self.merge(mask, value, old, ctx)
        env.vals[v] = value

    def merge(self, mask, new, old, ctx: Ctx):
        if mask is None or old is None or new is old:
            return new
        if not _is_numeric(new) or not _is_numeric(old):
            if _same_object(new, old):
                return new
            raise Unsupported("values other than numbers (memrefs, tokens) that differ between threads are not supported by the runner")
        return merge(mask, new, old, ctx.space)

    # --- execution --------------------------------------------------------------------------

    def exec_op(self, op: Operation, env: Env, ctx: Ctx, mask) -> None:
        handler = HANDLERS.get(op.name)
        if handler is None:
            if not op.known:
                raise Unsupported(f"operation '{op.name}' is not known to gpu-lsp, so the runner cannot execute it", op)
            raise Unsupported(f"'{op.name}' is not supported by the runner", op)
        try:
            handler(self, op, env, ctx, mask)
        except RunError as err:
            if err.op is None:
                err.op = op
            raise
        except (ValueError, TypeError, IndexError, OverflowError, ZeroDivisionError, FloatingPointError) as exc:
            raise RunError(f"'{op.name}' op failed: {exc}", op) from exc

    def run_region(self, region: Region, args: list, env: Env, ctx: Ctx, mask) -> list | None:
        """Run a region under `mask`; the values its exiting terminators pass on (merged by thread)."""
        blocks = region.blocks
        if not blocks:
            return []
        if len(blocks) == 1:
            block = blocks[0]
            ops = block.operations
            if not ops or ops[-1].name not in BRANCHES:
                self.tick()
                for a, v in zip(block.arguments, args):
                    self.assign(env, a, v, ctx, mask)
                for op in ops:
                    if op.name in REGION_RETURNS:
                        return self.operands(op, env)
                    self.exec_op(op, env, ctx, mask)
                return None
        return self._run_cfg(region, args, env, ctx, mask)

    def _run_cfg(self, region: Region, args: list, env: Env, ctx: Ctx, mask) -> list | None:
        order = self._orders.get(id(region))
        if order is None:
            order = self._orders[id(region)] = _block_order(region)
        pending: dict[Block, tuple] = {region.blocks[0]: (mask, list(args))}
        result: list | None = None
        result_mask = None
        while pending:
            block = min(pending, key=order.__getitem__)
            bmask, bargs = pending.pop(block)
            self.tick()
            for a, v in zip(block.arguments, bargs):
                self.assign(env, a, v, ctx, bmask)
            ops = block.operations
            term = ops[-1] if ops else None
            for op in ops[:-1] if term is not None and (term.name in BRANCHES or term.name in REGION_RETURNS) else ops:
                self.exec_op(op, env, ctx, bmask)
            if term is None or (term.name not in BRANCHES and term.name not in REGION_RETURNS):
                if term is not None and term.name in ("llvm.unreachable",):
                    raise RunError("reached an unreachable block", term)
                continue
            if term.name in REGION_RETURNS:
                vals = self.operands(term, env)
                if result is None:
                    result, result_mask = vals, bmask
                else:
                    result = [self.merge(bmask, n, o, ctx) for n, o in zip(vals, result)]
                    result_mask = _mask_or(result_mask, bmask)
                continue
            for dest, dmask, dvals in self._branch_targets(term, env, ctx, bmask):
                if dmask is False:
                    continue
                if dest in pending:
                    omask, ovals = pending[dest]
                    merged = [self.merge(dmask, n, o, ctx) for n, o in zip(dvals, ovals)]
                    pending[dest] = (_mask_or(omask, dmask), merged)
                else:
                    pending[dest] = (dmask, dvals)
        return result

    def _branch_targets(self, term: Operation, env: Env, ctx: Ctx, mask):
        vals = self.operands(term, env)
        counts = _successor_counts(term)
        if term.name == "cf.br":
            return [(term.successors[0], mask, vals)]
        if term.name == "cf.cond_br":
            cond = vals[0]
            tvals = vals[1 : 1 + counts[0]]
            fvals = vals[1 + counts[0] : 1 + counts[0] + counts[1]]
            t, f = term.successors[0], term.successors[1]
            if is_uniform(cond):
                return [(t, mask, tvals)] if bool(cond) else [(f, mask, fvals)]
            cond = materialize(cond, ctx.space)
            tm = normalize_mask(cond if mask is None else cond & mask, ctx.space)
            fm = normalize_mask(~cond if mask is None else ~cond & mask, ctx.space)
            return [(t, tm, tvals), (f, fm, fvals)]
        if term.name == "cf.switch":
            flag = vals[0]
            cases = case_values(term)
            groups = []
            pos = 1
            for n in counts:
                groups.append(vals[pos : pos + n])
                pos += n
            if is_uniform(flag):
                chosen = int(flag)
                for k, cv in enumerate(cases):
                    if chosen == cv:
                        return [(term.successors[k + 1], mask, groups[k + 1])]
                return [(term.successors[0], mask, groups[0])]
            flag = materialize(flag, ctx.space)
            out = []
            rest = mask
            for k, cv in enumerate(cases):
                hit = flag == cv
                out.append((term.successors[k + 1], normalize_mask(hit if mask is None else hit & mask, ctx.space), groups[k + 1]))
                rest = ~hit if rest is None else rest & ~hit
            out.append((term.successors[0], normalize_mask(rest, ctx.space), groups[0]))
            return out
        raise Unsupported(f"'{term.name}' is not supported by the runner", term)

    # --- functions --------------------------------------------------------------------------

    def call(self, callee: Operation, args: list, ctx: Ctx, mask, call_op: Operation | None = None) -> list:
        """Call a function op (func.func / gpu.func) with argument values."""
        region = callee.regions[0] if callee.regions else None
        if region is None or not region.blocks:
            raise RunError(f"function @{_sym(callee)} has no body", call_op or callee)
        env = Env()
        saved = ctx.allocas
        ctx.allocas = []
        try:
            out = self.run_region(region, args, env, ctx, mask)
        finally:
            for buf in ctx.allocas:
                buf.freed = True
            ctx.allocas = saved
        return out or []


def _is_numeric(v) -> bool:
    return isinstance(v, (np.ndarray, np.generic, Lin, int, float, bool))


def _same_object(a, b) -> bool:
    return a is b or (hasattr(a, "same_as") and a.same_as(b))


def _mask_or(a, b):
    if a is None or b is None:
        return None
    if a is False:
        return b
    if b is False:
        return a
    return a | b


def _sym(op: Operation) -> str:
    return symbol_name(op) or "?"


def _block_order(region: Region) -> dict[Block, int]:
    """Reverse post-order index of each block (unreachable blocks last)."""
    seen: set[int] = set()
    post: list[Block] = []

    def visit(b: Block) -> None:
        stack = [(b, iter(_succs(b)))]
        seen.add(id(b))
        while stack:
            blk, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                post.append(blk)
            elif id(nxt) not in seen:
                seen.add(id(nxt))
                stack.append((nxt, iter(_succs(nxt))))

    visit(region.blocks[0])
    order = {b: i for i, b in enumerate(reversed(post))}
    for b in region.blocks:
        order.setdefault(b, len(order))
    return order


def _succs(b: Block) -> list[Block]:
    term = b.operations[-1] if b.operations else None
    return list(term.successors) if term is not None else []


def _successor_counts(term: Operation) -> list[int]:
    counts = term.facts.successor_operands
    if counts:
        return list(counts)
    seg = term.get_attr("operandSegmentSizes")
    values = getattr(seg, "values", None)
    if values:
        if term.name == "cf.cond_br" and len(values) == 3:
            return [int(values[1]), int(values[2])]
        if term.name == "cf.switch":
            cases = term.get_attr("case_operand_segments")
            return [int(values[1]), *(getattr(cases, "values", None) or [len(s.arguments) for s in term.successors[1:]])]
    return [len(s.arguments) for s in term.successors]


def _element(ty):
    """A vector's element type (host vectors are ndarrays of it), else the type itself."""
    return ty.element if isinstance(ty, T.VectorType) else ty


def _value_dtype(op: Operation, ty: T.Type) -> np.dtype:
    dt = dtype_of(_element(ty))
    if dt is None:
        raise Unsupported(f"'{op.name}' on values of type {ty} is not supported by the runner", op)
    return dt


def result_dtype(op: Operation, index: int = 0) -> np.dtype:
    return _value_dtype(op, op.results[index].type)


def operand_dtype(op: Operation, index: int = 0) -> np.dtype:
    return _value_dtype(op, op.operands[index].type)
