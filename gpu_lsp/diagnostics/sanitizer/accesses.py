"""The access model of a kernel body: each memory access with its buffer, space, indices, barrier interval and path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from gpu_lsp.ir.effects import allocated, frees, operand_effects, view_source
from gpu_lsp.ir.opdefs import has_trait
from gpu_lsp.ir.traits import constant_int

GLOBAL, WORKGROUP, PRIVATE = "global", "workgroup", "private"
SPACES = (GLOBAL, WORKGROUP)
READ, WRITE, ATOMIC = "read", "write", "atomic"
# Ops the model reads the indices of: one per dimension right after the memref they read or write
# (as their declaration states), to the end of the operands; a transfer has operands after them.
ACCESS_OPS = frozenset({"memref.load", "memref.store", "vector.load", "vector.store", "memref.atomic_rmw", "memref.generic_atomic_rmw"})
_TRANSFERS = frozenset({"vector.transfer_read", "vector.transfer_write"})
# Numeric memory spaces as NVVM numbers them.
_NUMERIC_SPACES = {3: WORKGROUP, 5: PRIVATE, 1: GLOBAL, 0: GLOBAL}
MAX_CALL_DEPTH = 4
AXES = ("x", "y", "z")
DIM_OPS = {"gpu.thread_id": "tid", "gpu.block_id": "bid", "gpu.block_dim": "bdim", "gpu.grid_dim": "gdim"}


class Launch:
    """What the launch sites fix about a kernel: block and grid sizes, scalar parameters (None:
    symbolic). A plain class, as `Access`: one per kernel checked."""

    __slots__ = ("block", "grid", "params", "launch_args", "size_bounds")

    def __init__(
        self,
        block: tuple[int | None, int | None, int | None] = (None, None, None),
        grid: tuple[int | None, int | None, int | None] = (None, None, None),
    ) -> None:
        self.block = block
        self.grid = grid
        self.params: dict[Value, int] = {}
        self.launch_args: dict[Value, tuple[str, int]] = {}  # gpu.launch's block arguments
        # ("bdim" | "gdim", axis) -> the least `upper_bound` the body's id ops put on that size
        self.size_bounds: dict[tuple[str, int], int] = {}

    def __repr__(self) -> str:
        return f"Launch(block={self.block}, grid={self.grid}, params={len(self.params)})"


def axis_of(op: Operation) -> int | None:
    dim = op.properties.get("dimension") or op.attributes.get("dimension")
    if isinstance(dim, DialectAttr) and dim.body is not None:  # `#gpu<dim x>`: its text ends with `x>`
        return next((i for i, axis in enumerate(AXES) if dim.body.endswith(axis)), None)
    text = str(dim) if dim is not None else ""
    for i, axis in enumerate(AXES):
        if text.endswith(axis) or text.endswith(f"{axis}>"):
            return i
    return None


@dataclass(frozen=True)
class Guard:
    """One step of a path condition: an `scf.if` branch (its i1 and which branch), a loop
    (`scf.for`: its induction variable ranges over the loop's bounds; `scf.while`: the body's
    arguments take the values of `iterations`, one tuple per trip, computed from constants;
    `lockstep` when its body holds a barrier, so both threads of a pair are in the same
    iteration), or control flow the model does not follow (`unknown`)."""

    op: Operation
    kind: str  # "if" | "for" | "while" | "unknown"
    taken: bool = True
    lockstep: bool = False
    iterations: tuple[tuple[int, ...], ...] = ()


class Access:
    """A load, store, atomic or vector transfer of a kernel body (a plain class: one per access of
    every kernel, which the compiled build constructs natively; a dataclass's `__init__` is
    generated at import and interpreted)."""

    __slots__ = ("op", "root", "space", "kind", "indices", "width", "shape", "epochs", "guards", "bindings", "direct", "offsets")

    def __init__(
        self,
        op: Operation,
        root: Value,
        space: str,
        kind: str,
        indices: tuple[Value, ...],
        width: int,
        shape: tuple[int | None, ...],
        epochs: tuple[tuple, tuple],
        guards: tuple[Guard, ...],
        bindings: dict[Value, Value],
        direct: bool = True,
        offsets: tuple[tuple[Value | int, ...], ...] = (),
    ) -> None:
        self.op = op
        self.root = root  # the buffer, through views and through the arguments of called functions
        self.space = space
        self.kind = kind
        self.indices = indices
        self.width = width  # elements touched along the last dimension (a vector access touches several)
        self.shape = shape
        self.epochs = epochs  # the barrier interval, per address space of SPACES
        self.guards = guards
        self.bindings = bindings  # callee argument -> caller value
        self.direct = direct  # indexes the root (or a unit-stride subview) with a footprint the model knows
        self.offsets = offsets  # per dimension, added to the index by subviews

    def __repr__(self) -> str:
        return f"Access({self.op.name}, {self.kind}, {self.space}, width={self.width}, shape={self.shape})"


def address_space(ty: T.Type) -> str:
    """The address space of a memref type: global unless it names workgroup or private memory."""
    space = getattr(ty, "memory_space", None)
    if isinstance(space, DialectAttr) and space.name == "address_space":
        body = (space.body or "").strip()
        return body if body in (WORKGROUP, PRIVATE) else GLOBAL
    value = getattr(space, "value", None)
    if isinstance(value, int):
        return _NUMERIC_SPACES.get(value, GLOBAL)
    return GLOBAL


def fenced_spaces(barrier: Operation) -> tuple[str, ...]:
    """The address spaces a `gpu.barrier` orders: those its `memfence` names, all when it names none."""
    attr = barrier.properties.get("address_spaces") or barrier.attributes.get("address_spaces")
    if attr is None:
        return SPACES
    named = str(attr)
    return tuple(s for s in SPACES if s in named)


def resolve(value: Value, bindings: dict[Value, Value]) -> Value:
    """A value seen from the kernel: through the arguments of the device functions it was passed to."""
    for _ in range(MAX_CALL_DEPTH + 1):
        bound = bindings.get(value)
        if bound is None:
            return value
        value = bound
    return value


_DYNAMIC = -(2**63)  # how MLIR marks a dynamic entry of a static offset, size or stride list


def _unit_subview_offsets(op: Operation) -> list[Value | int] | None:
    """Per dimension, where a rank-preserving `memref.subview` with unit strides starts in its source."""
    offsets, strides = op.properties.get("static_offsets"), op.properties.get("static_strides")
    values = getattr(offsets, "values", None)
    if values is None or tuple(getattr(strides, "values", ())) != (1,) * len(values):
        return None
    source, result = op.operands[0].type, op.results[0].type if op.results else None
    if not isinstance(source, T.MemRefType) or not isinstance(result, T.MemRefType) or source.rank != result.rank:
        return None
    dynamic = iter(op.operands[1:])
    out: list[Value | int] = []
    for v in values:
        if v == _DYNAMIC:
            operand = next(dynamic, None)
            if operand is None:
                return None
            out.append(operand)
        else:
            out.append(v)
    return out


def _root(value: Value, bindings: dict[Value, Value]) -> tuple[Value, bool, tuple[tuple[Value | int, ...], ...]]:
    """The buffer a memref value views, whether the model knows the view's indexing, and the offsets
    (per dimension) that unit-stride subviews add to an index."""
    direct = True
    offsets: list[tuple[Value | int, ...]] = []
    for _ in range(2 * MAX_CALL_DEPTH + 2):
        value = resolve(value, bindings)
        if not isinstance(value, OpResult):
            break
        owner = value.owner
        source = view_source(owner)
        if source is None:
            break
        starts = _unit_subview_offsets(owner) if owner.name == "memref.subview" else None
        if starts is not None:
            offsets = [tuple(o) + (s,) for o, s in zip(offsets or [()] * len(starts), starts)]
        else:
            direct = direct and owner.name == "memref.cast"
        value = source
    return value, direct, tuple(offsets)


@dataclass
class KernelModel:
    """The accesses of one kernel body, and whether the model followed all of it."""

    kernel: Operation
    accesses: list[Access] = field(default_factory=list)
    complete: bool = True  # no call or unstructured control flow it could not follow


class _Walker:
    def __init__(self, kernel: Operation, callee: Callable[[Operation], Operation | None]) -> None:
        self.model = KernelModel(kernel)
        self.callee = callee
        self.barrier_cache: dict[int, tuple[str, ...]] = {}
        self._varying: dict | None = None

    def varying(self) -> dict:
        """The kernel's values that may differ between threads, computed when first asked."""
        if self._varying is None:
            from gpu_lsp.diagnostics.sanitizer.kernels import taints  # through the rule package, loaded by then

            self._varying = taints(self.model.kernel)
        return self._varying

    def barriers_in(self, op: Operation, depth: int = 0) -> tuple[str, ...]:
        """The address spaces that barriers nested in `op` (through calls) order."""
        found = self.barrier_cache.get(id(op))
        if found is not None:
            return found
        spaces: set[str] = set()
        for inner in op.nested():
            if inner.name == "gpu.barrier":
                spaces.update(fenced_spaces(inner))
            elif inner.name == "func.call" and depth < MAX_CALL_DEPTH:
                target = self.callee(inner)
                if target is not None:
                    spaces.update(self.barriers_in(target, depth + 1))
        result = tuple(s for s in SPACES if s in spaces)
        self.barrier_cache[id(op)] = result
        return result

    def block(self, block: Block, epochs: list[tuple], guards: tuple[Guard, ...], bindings: dict[Value, Value], depth: int) -> None:
        for op in block.operations:
            self.op(op, epochs, guards, bindings, depth)

    def op(self, op: Operation, epochs: list[tuple], guards: tuple[Guard, ...], bindings: dict[Value, Value], depth: int) -> None:
        name = op.name
        if name == "gpu.barrier":
            for i, space in enumerate(SPACES):
                if space in fenced_spaces(op):
                    epochs[i] = epochs[i][:-1] + (epochs[i][-1] + 1,)
            return
        if name in ACCESS_OPS or name in _TRANSFERS:
            self.access(op, epochs, guards, bindings)
            if name != "memref.generic_atomic_rmw":
                return
        if name == "func.call":
            self.call(op, epochs, guards, bindings, depth)
            return
        if name not in ACCESS_OPS and (any(operand_effects(op)[:2]) or _takes_memref(op)):
            self.model.complete = False  # it may read or write a buffer the model does not see
        if not op.regions:
            return
        if len(op.regions) and any(len(r.blocks) > 1 for r in op.regions):
            self.model.complete = False
        fenced = self.barriers_in(op)
        if name == "scf.if":
            for taken, region in zip((True, False), op.regions):
                inner = [e + (id(op), taken, 0) if s in fenced else e for e, s in zip(epochs, SPACES)]
                for b in region.blocks:
                    self.block(b, inner, guards + (Guard(op, "if", taken),), bindings, depth)
        elif name == "scf.for":
            inner = [e + (id(op), 0) if s in fenced else e for e, s in zip(epochs, SPACES)]
            guard = Guard(op, "for", lockstep=bool(fenced))
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, inner, guards + (guard,), bindings, depth)
        elif name != "memref.generic_atomic_rmw":
            inner = [e + (id(op), 0) if s in fenced else e for e, s in zip(epochs, SPACES)]
            trips = while_iterations(op, bindings) if name == "scf.while" else None
            for i, region in enumerate(op.regions):
                guard = Guard(op, "while", lockstep=bool(fenced), iterations=trips) if trips and i == 1 else Guard(op, "unknown")
                for b in region.blocks:
                    self.block(b, inner, guards + (guard,), bindings, depth)
        for i, space in enumerate(SPACES):
            if space in fenced:
                epochs[i] = epochs[i] + (id(op), "after", 0)

    def call(self, op: Operation, epochs: list[tuple], guards: tuple[Guard, ...], bindings: dict[Value, Value], depth: int) -> None:
        target = self.callee(op)
        if target is None or depth >= MAX_CALL_DEPTH or not target.regions or not target.regions[0].blocks:
            self.model.complete = False
            return
        entry = target.regions[0].blocks[0]
        inner = dict(bindings)
        inner.update(zip(entry.arguments, op.operands))
        for b in target.regions[0].blocks:
            self.block(b, epochs, guards, inner, depth + 1)

    def access(self, op: Operation, epochs: list[tuple], guards: tuple[Guard, ...], bindings: dict[Value, Value]) -> None:
        layout = access_layout(op)
        if layout is None:
            return
        memref_at, first, kind = layout
        buffer = op.operands[memref_at]
        ty = buffer.type
        if not isinstance(ty, T.MemRefType):
            return
        indices = tuple(op.operands[first : first + ty.rank if op.name in _TRANSFERS else len(op.operands)])
        if len(indices) != ty.rank:
            self.model.complete = False
            return
        root, direct, offsets = _root(buffer, bindings)
        if offsets and isinstance(root.type, T.MemRefType):
            ty = root.type  # the indices are checked against the buffer the view is part of
        space = address_space(root.type)
        if space == PRIVATE or _private_alloc(root, self.model.kernel):
            return
        direct = direct and _same_for_every_thread(root, self.model.kernel, self.varying)
        width = _width(op)
        if width < 0:  # a vector of several dimensions: its footprint is not modelled
            width, direct = 1, False
        self.model.accesses.append(
            Access(op, root, space, kind, indices, width, ty.shape, (epochs[0], epochs[1]), guards, bindings, direct, offsets)
        )


def access_layout(op: Operation) -> tuple[int, int, str] | None:
    """(memref operand, first index operand, kind) of an access op: the operand its declaration
    reads or writes, the indices after it, atomic when it does both (None: it accesses none)."""
    read, write, _ = operand_effects(op)
    touched = read or write
    if not touched:
        return None
    kind = ATOMIC if read and write else READ if read else WRITE
    return touched[0], touched[0] + 1, kind


def _takes_memref(op: Operation) -> bool:
    """Whether `op` takes a memref whose elements it may touch: its declaration is not pure (a view,
    a size, a terminator handing it on are) and it does not merely free it."""
    return any(isinstance(v.type, T.MemRefType) for v in op.operands) and not has_trait(op.name, "pure") and not frees(op)


def _private_alloc(root: Value, kernel: Operation) -> bool:
    """A buffer allocated inside the kernel (`memref.alloca`, `memref.alloc`: each thread has its own)."""
    return isinstance(root, OpResult) and kernel.is_ancestor_of(root.owner) and root in allocated(root.owner)


# Ops inside a kernel whose result is the same buffer for every thread.
_SHARED_BUFFERS = frozenset({"memref.get_global", "gpu.dynamic_shared_memory"})


def _same_for_every_thread(root: Value, kernel: Operation, varying: Callable[[], dict]) -> bool:
    """Whether every thread of the launch sees `root` as one buffer: a kernel argument or
    attribution, a value captured from the host, a global, the dynamic shared memory, or an
    `arith.select` of the kernel body on a condition the same for every thread (`varying`
    gives the kernel's thread-dependent values)."""
    if isinstance(root, BlockArgument):
        entry = kernel.regions[0].blocks[0] if kernel.regions and kernel.regions[0].blocks else None
        owner = root.owner.parent_op
        return root.owner is entry or owner is None or (owner is not kernel and not kernel.is_ancestor_of(owner))
    if isinstance(root, OpResult):
        owner = root.owner
        if owner.name == "arith.select" and owner.operands and kernel.is_ancestor_of(owner):
            return owner.operands[0] not in varying()
        return owner.name in _SHARED_BUFFERS or not kernel.is_ancestor_of(owner)
    return False


def _width(op: Operation) -> int:
    """Elements an access touches along the last dimension: a vector's size, 1 for scalars, -1 for a
    vector of several dimensions."""
    vector = None
    if op.name in ("vector.load", "vector.transfer_read"):
        vector = op.results[0].type if op.results else None
    elif op.name in ("vector.store", "vector.transfer_write"):
        vector = op.operands[0].type if op.operands else None
    if isinstance(vector, T.VectorType) and vector.shape:
        return vector.shape[-1] if len(vector.shape) == 1 else -1
    return 1


def kernel_model(kernel: Operation, callee: Callable[[Operation], Operation | None]) -> KernelModel:
    """The accesses of a `gpu.func` kernel or a `gpu.launch` body; `callee` finds a `func.call`'s target."""
    walker = _Walker(kernel, callee)
    start = [(0,), (0,)]
    for region in kernel.regions[:1]:
        if len(region.blocks) > 1:
            walker.model.complete = False
        for b in region.blocks:
            walker.block(b, start, (), {}, 0)
    return walker.model


MAX_TRIPS = 64
# Integer semantics of the arith ops a uniform `scf.while` may count with (None: not computable).
_INT_OPS: dict[str, Callable[[int, int], int | None]] = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b if b > 0 and a >= 0 else None,
    "arith.divsi": lambda a, b: a // b if b > 0 and a >= 0 else None,
    "arith.shrui": lambda a, b: a >> b if 0 <= b < 64 and a >= 0 else None,
    "arith.shli": lambda a, b: a << b if 0 <= b < 64 else None,
}
# Comparisons by predicate keyword (on ints, and on z3 terms alike).
COMPARE: dict[str, Callable] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b, "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
    "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b,
}
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def predicate_name(op: Operation) -> str | None:
    """The predicate of an `arith.cmpi`, as its keyword."""
    attr = op.properties.get("predicate") or op.attributes.get("predicate")
    value = getattr(attr, "value", attr)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(PREDICATES):
        return PREDICATES[value]
    text = str(value)
    return text if text in COMPARE else None


def _evaluate(value: Value, env: dict[Value, int], bindings: dict[Value, Value], depth: int = 0) -> int | None:
    value = resolve(value, bindings)
    if value in env:
        return env[value]
    known = constant_int(value)
    if known is not None or depth > 16 or not isinstance(value, OpResult):
        return known
    op = value.owner
    if len(op.operands) != 2:
        return _evaluate(op.operands[0], env, bindings, depth + 1) if op.name in ("arith.index_cast", "arith.index_castui") and op.operands else None
    a = _evaluate(op.operands[0], env, bindings, depth + 1)
    b = _evaluate(op.operands[1], env, bindings, depth + 1) if a is not None else None
    if a is None or b is None:
        return None
    if op.name == "arith.cmpi":
        name = predicate_name(op)
        return int(COMPARE[name](a, b)) if name is not None else None
    fn = _INT_OPS.get(op.name)
    return fn(a, b) if fn is not None else None


def while_iterations(op: Operation, bindings: dict[Value, Value]) -> tuple[tuple[int, ...], ...] | None:
    """The values of an `scf.while` body's arguments on each trip, when constants decide them all."""
    if len(op.regions) != 2 or any(len(r.blocks) != 1 for r in op.regions):
        return None
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    condition, yielded = before.terminator, after.terminator
    if condition is None or condition.name != "scf.condition" or yielded is None or not condition.operands:
        return None
    current = [_evaluate(v, {}, bindings) for v in op.operands]
    trips: list[tuple[int, ...]] = []
    for _ in range(MAX_TRIPS + 1):
        if None in current or len(current) != len(before.arguments):
            return None
        env: dict[Value, int] = {arg: v for arg, v in zip(before.arguments, current) if v is not None}
        go = _evaluate(condition.operands[0], env, bindings)
        passed = [_evaluate(v, env, bindings) for v in condition.operands[1:]]
        if go is None or None in passed or len(passed) != len(after.arguments):
            return None
        if not go:
            return tuple(trips)
        trip = tuple(v for v in passed if v is not None)
        trips.append(trip)
        env = {arg: v for arg, v in zip(after.arguments, trip)}
        current = [_evaluate(v, env, bindings) for v in yielded.operands]
    return None
