"""The accesses of a kernel launch, thread by thread and barrier interval by interval, and the pairs that race.

The engine of `gpu-run --racecheck`; `racecheck.py` documents the semantics and the Python API.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpu_lsp.ir.attributes import ArrayAttr, DialectAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.errors import Locator, RunError
from gpu_lsp.runner.lanes import Space, materialize
from gpu_lsp.runner.memory import PRIVATE, WORKGROUP, MemRef

MAX_CONFLICTS = 1000
# Accesses recorded per launch (about 24 bytes each) before racecheck gives up with an error.
MAX_ACCESSES = 10_000_000
GLOBAL_SPACE = "global"
WORKGROUP_SPACE = "workgroup"
READ, WRITE, ATOMIC = "read", "write", "atomic"
_KIND_CODES = {READ: 0, WRITE: 1, ATOMIC: 2}
_KIND_NAMES = (READ, WRITE, ATOMIC)
# Pairs examined in one group of accesses to an element before giving up on it (a guard for huge groups).
_GROUP_WORK = 50_000_000


@dataclass(frozen=True)
class Access:
    """One side of a conflict: the op, where it is, how it touched the element, and who ran it."""

    op_name: str
    location: tuple[int, int]  # 1-based line and column of the op
    kind: str  # "read" | "write" | "atomic"
    block: tuple[int, int, int]
    thread: tuple[int, int, int]


@dataclass(frozen=True)
class Conflict:
    """Two unordered accesses of distinct threads to one element, at least one writing, not both atomic."""

    buffer: str  # the SSA name of the allocation or attribution, e.g. "%buf"
    space: str  # "global" | "workgroup"
    element: tuple[int, ...]  # the indices of the earlier access, in the memref it accessed
    first: Access
    second: Access


@dataclass(frozen=True)
class Focus:
    """One access to look for: the line of its op and the block and thread ids that run it."""

    line: int
    block: tuple[int, int, int]
    thread: tuple[int, int, int]


@dataclass
class _Event:
    """One execution of an access op by the active threads of a chunk."""

    op: Operation
    mem: MemRef
    kind: int
    space: Space
    positions: np.ndarray  # flat (block, thread) positions in the chunk of the active threads
    addresses: np.ndarray  # their element addresses in the buffer
    epochs: np.ndarray  # their barrier interval for the buffer's address space


@dataclass
class Recorder:
    """Collects the accesses of one launch at a time and keeps the conflicts found so far."""

    locator: Locator
    limit: int = MAX_CONFLICTS
    conflicts: list[Conflict] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)  # buffer id -> SSA name of a workgroup/private attribution
    focus: frozenset[Focus] | None = None  # when set, only these accesses are recorded (and so can conflict)
    _events: list[_Event] = field(default_factory=list)
    _recorded: int = 0
    _space: Space | None = None
    _epochs: dict[str, np.ndarray] = field(default_factory=dict)
    _seen: set[tuple[int, int, int, int]] = field(default_factory=set)  # focused accesses recorded in this launch

    def chunk(self, space: Space) -> Recorder:
        """Start a chunk of blocks of the current launch: every thread in its first barrier interval."""
        self._space = space
        self._epochs = {GLOBAL_SPACE: np.zeros(space.shape, np.int64), WORKGROUP_SPACE: np.zeros(space.shape, np.int64)}
        return self

    def record(self, mem: MemRef, addr, mask, op: Operation, kind: str) -> None:
        """The active threads of `mask` access `mem` at element addresses `addr` (scalar, Lin or array)."""
        space = self._space
        if space is None or mem.buf.kind == PRIVATE:
            return
        which = WORKGROUP_SPACE if mem.buf.kind == WORKGROUP else GLOBAL_SPACE
        full = np.broadcast_to(np.asarray(materialize(addr, space), dtype=np.int64), space.shape).reshape(-1)
        active = np.ones(full.shape, bool) if mask is None else np.broadcast_to(mask, space.shape).reshape(-1)
        positions = np.flatnonzero(active)
        epochs_now = self._epochs[which].reshape(-1)
        if self.focus is not None:
            positions = self._first_seen(op, positions, space, full, epochs_now)
        if positions.size == 0:
            return
        self._recorded += positions.size
        if self._recorded > MAX_ACCESSES:
            raise RunError(f"--racecheck records at most {MAX_ACCESSES} accesses per launch, and this launch makes more: launch fewer threads", op)
        epochs = epochs_now[positions]
        self._events.append(_Event(op, mem, _KIND_CODES[kind], space, positions, full[positions], epochs))

    def _first_seen(self, op: Operation, positions: np.ndarray, space: Space, addresses: np.ndarray, epochs: np.ndarray) -> np.ndarray:
        """The focused positions among `positions`, less those that already made this access (a loop repeating it)."""
        keep = []
        for p in np.intersect1d(positions, _focused(self.focus or frozenset(), self.locator.line_col(op)[0], space)):
            key = (id(op), space.b0 * space.N + int(p), int(addresses[p]), int(epochs[p]))
            if key not in self._seen:
                self._seen.add(key)
                keep.append(p)
        return np.array(keep, np.int64)

    def barrier(self, op: Operation, mask) -> None:
        """The active threads pass a barrier: a new interval for each address space it fences."""
        if self._space is None:
            return
        fenced = _fenced_spaces(op)
        if mask is None:
            step = np.ones(self._space.shape, np.int64)
        else:
            active = np.broadcast_to(mask, self._space.shape)
            step = (active & active.all(axis=1, keepdims=True)).astype(np.int64)  # a divergent barrier orders nothing
        for which in fenced:
            self._epochs[which] += step

    def end_launch(self) -> None:
        """Check the launch's accesses and forget them."""
        events, self._events, self._space, self._recorded = self._events, [], None, 0
        self._seen.clear()
        if events and len(self.conflicts) < self.limit:
            self.conflicts.extend(_conflicts(events, self.limit - len(self.conflicts), self.locator, self.names))


def _focused(focus: frozenset[Focus], line: int, space: Space) -> np.ndarray:
    """The flat (block, thread) positions in the chunk of the focused accesses on `line`."""
    (bx, by, _), (gx, gy, _) = space.block, space.grid
    out = []
    for f in focus:
        b = f.block[0] + gx * (f.block[1] + gy * f.block[2]) - space.b0
        if f.line == line and 0 <= b < space.B:
            out.append(b * space.N + f.thread[0] + bx * (f.thread[1] + by * f.thread[2]))
    return np.array(out, np.int64)


def _fenced_spaces(op: Operation) -> tuple[str, ...]:
    attr = op.get_attr("address_spaces")
    if not isinstance(attr, ArrayAttr):
        return (GLOBAL_SPACE, WORKGROUP_SPACE)
    named = {e.body for e in attr.elements if isinstance(e, DialectAttr)}
    return tuple(s for s in (GLOBAL_SPACE, WORKGROUP_SPACE) if s in named)


def _buffer_name(mem: MemRef, names: dict[int, str]) -> str:
    """The SSA name of the attribution or of the allocation's result."""
    if mem.buf.id in names:
        return names[mem.buf.id]
    op = mem.buf.op
    if op is not None and op.results and op.results[0].name:
        return f"%{op.results[0].name}"
    return "a buffer"


def _conflicts(events: list[_Event], limit: int, locator: Locator, names: dict[int, str]) -> list[Conflict]:
    """The conflicting pairs among one launch's accesses, earliest first, at most `limit`."""
    sizes = [e.positions.size for e in events]
    event = np.repeat(np.arange(len(events)), sizes)
    buffers = {id(e.mem.buf): k for k, e in enumerate(events)}
    buf = np.repeat(np.array([buffers[id(e.mem.buf)] for e in events], np.int64), sizes)
    addr = np.concatenate([e.addresses for e in events])
    kind = np.repeat(np.array([e.kind for e in events], np.int64), sizes)
    epoch = np.concatenate([e.epochs for e in events])
    n = events[0].space.N
    thread = np.concatenate([e.space.b0 * n + e.positions for e in events])  # linear thread of the grid
    block = thread // n
    shared = np.repeat(np.array([e.mem.buf.kind == WORKGROUP for e in events]), sizes)
    order = np.lexsort((event, addr, buf))
    buf, addr, event, kind, epoch, thread, block, shared = (a[order] for a in (buf, addr, event, kind, epoch, thread, block, shared))
    new = np.r_[True, (buf[1:] != buf[:-1]) | (addr[1:] != addr[:-1])]
    starts = np.flatnonzero(new)
    ends = np.r_[starts[1:], addr.size]
    spread = np.maximum.reduceat(thread, starts) != np.minimum.reduceat(thread, starts)
    writes = np.add.reduceat((kind == 1).astype(np.int64), starts) > 0
    atomics = np.add.reduceat((kind == 2).astype(np.int64), starts) > 0
    reads = np.add.reduceat((kind == 0).astype(np.int64), starts) > 0
    candidates = np.flatnonzero(spread & (writes | (atomics & reads)))
    pairs: list[tuple[int, int]] = []
    for g in candidates:
        s, e = int(starts[g]), int(ends[g])
        found = _group_pairs(kind[s:e], thread[s:e], block[s:e], epoch[s:e], bool(shared[s]), limit)
        pairs.extend((s + i, s + j) for i, j in found)
        if len(pairs) >= limit:
            break
    pairs.sort(key=lambda p: (max(event[p[0]], event[p[1]]), min(event[p[0]], event[p[1]]), min(thread[p[0]], thread[p[1]])))
    out = []
    for i, j in pairs[:limit]:
        if (event[j], thread[j]) < (event[i], thread[i]):
            i, j = j, i
        first, second = events[event[i]], events[event[j]]
        out.append(
            Conflict(
                _buffer_name(first.mem, names),
                WORKGROUP_SPACE if shared[i] else GLOBAL_SPACE,
                _element(first.mem, first.space, int(thread[i] - first.space.b0 * n), int(addr[i])),
                _access(first, int(thread[i]), int(kind[i]), locator),
                _access(second, int(thread[j]), int(kind[j]), locator),
            )
        )
    return out


def _group_pairs(
    kind: np.ndarray, thread: np.ndarray, block: np.ndarray, epoch: np.ndarray, shared: bool, limit: int
) -> list[tuple[int, int]]:
    """Conflicting (i, j) index pairs among the accesses to one element, each pair once."""
    out: list[tuple[int, int]] = []
    work = 0
    plain = np.flatnonzero(kind == 1)
    others = np.flatnonzero(kind != 1)
    # Plain writes against everything (writes only once per pair), atomics against reads.
    rows = [(int(i), np.r_[plain[plain > i], others]) for i in plain]
    if (kind == 0).any():
        reads = np.flatnonzero(kind == 0)
        rows += [(int(i), reads) for i in np.flatnonzero(kind == 2)]
    for i, cols in rows:
        unordered = epoch[cols] == epoch[i]
        if not shared:
            unordered |= block[cols] != block[i]
        hit = cols[unordered & (thread[cols] != thread[i])]
        out.extend((i, int(j)) for j in hit)
        work += cols.size
        if len(out) >= limit or work > _GROUP_WORK:
            break
    return out


def _element(mem: MemRef, space: Space, position: int, addr: int) -> tuple[int, ...]:
    """The indices into `mem` of element address `addr`, as the thread at `position` of the chunk sees it."""
    offset = np.broadcast_to(np.asarray(materialize(mem.offset, space), dtype=np.int64), space.shape).reshape(-1)[position]
    rest = addr - int(offset)
    out = [0] * mem.rank
    for d in sorted(range(mem.rank), key=lambda k: -int(mem.strides[k])):
        stride = int(mem.strides[d])
        if stride:
            out[d], rest = divmod(rest, stride)
    return tuple(int(v) for v in out)


def _access(event: _Event, thread: int, kind: int, locator: Locator) -> Access:
    block, tid = event.space.thread_coords(*divmod(thread - event.space.b0 * event.space.N, event.space.N))
    return Access(event.op.name, locator.line_col(event.op), _KIND_NAMES[kind], _triple(block), _triple(tid))


def _triple(v: tuple[int, ...]) -> tuple[int, int, int]:
    return (int(v[0]), int(v[1]), int(v[2]))


def describe(conflict: Conflict, filename: str) -> str:
    """compute-sanitizer racecheck's sentence for a conflict, with gpu-run's locations."""

    def side(a: Access) -> str:
        line, col = a.location
        return (
            f"{a.kind.capitalize()} access at {filename}:{line}:{col} ('{a.op_name}') by thread "
            f"({a.thread[0]}, {a.thread[1]}, {a.thread[2]}) of block ({a.block[0]}, {a.block[1]}, {a.block[2]})"
        )

    where = ", ".join(str(i) for i in conflict.element)
    return f"Race reported between {side(conflict.first)} and {side(conflict.second)} on element [{where}] of {conflict.buffer} ({conflict.space} memory)"
