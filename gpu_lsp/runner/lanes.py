"""The thread space of a kernel chunk, affine thread-id values, and masked merges.

In a kernel, an SSA value is either uniform (a NumPy scalar), an array that
broadcasts to `(B, N)` (B blocks of the chunk, N threads per block), or a
`Lin`: an affine form over the six thread/block ids, kept symbolic so that
address computations such as `block_id * block_dim + thread_id` stay exact
and cheap (a contiguous access becomes a slice, a guard `gid < n` a range test).
"""

from __future__ import annotations

import numpy as np

# Base variables of an affine form, in this order.
TX, TY, TZ, BX, BY, BZ = range(6)
# The dtype of `index` values and thread ids.
INDEX = np.dtype(np.int64)


class Space:
    """B consecutive blocks (linear block index b0 ... b0+B-1) of a grid, N threads each."""

    def __init__(self, grid: tuple[int, int, int], block: tuple[int, int, int], b0: int, b1: int) -> None:
        self.grid = grid
        self.block = block
        self.b0 = b0
        self.B = b1 - b0
        self.N = block[0] * block[1] * block[2]
        self.shape = (self.B, self.N)
        bx, by, bz = block
        gx, gy, gz = grid
        self.extents = (bx, by, bz, gx, gy, gz)
        n = self.N
        self.enum_strides = (1, bx, bx * by, n, n * gx, n * gx * gy)
        tl = np.arange(n, dtype=np.int64)
        lb = np.arange(b0, b1, dtype=np.int64)
        self.base = (
            _digit(tl, 1, bx).reshape(1, n),
            _digit(tl, bx, by).reshape(1, n),
            _digit(tl, bx * by, bz).reshape(1, n),
            _digit(lb, 1, gx).reshape(-1, 1),
            _digit(lb, gx, gy).reshape(-1, 1),
            _digit(lb, gx * gy, gz).reshape(-1, 1),
        )
        self.tl = tl.reshape(1, n)
        # Every thread of a block is present: thread ids span their whole extent.
        self.ranges = tuple((0, e - 1) for e in block) + tuple((int(a.min()), int(a.max())) for a in self.base[BX:])

    def thread_coords(self, b: int, t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(block id, thread id) of element [b, t] of a (B, N) array."""
        bid = tuple(int(self.base[BX + i][b % self.base[BX + i].shape[0], 0]) for i in range(3))
        tid = tuple(int(self.base[TX + i][0, t]) for i in range(3))
        return bid, tid

    def describe(self, b: int, t: int) -> str:
        bid, tid = self.thread_coords(b, t)
        return f"thread ({tid[0]}, {tid[1]}, {tid[2]}) of block ({bid[0]}, {bid[1]}, {bid[2]})"

    def linear_block(self) -> Lin:
        """The chunk-local linear block index as an affine form."""
        gx, gy, _ = self.grid
        return Lin(-self.b0, (0, 0, 0, 1, gx, gx * gy), INDEX)

    def linear_thread(self) -> Lin:
        """The chunk-local linear thread position `lb * N + tl` as an affine form."""
        return Lin(-self.b0 * self.N, self.enum_strides, INDEX)


def _digit(linear: np.ndarray, below: int, extent: int) -> np.ndarray:
    """`(linear // below) % extent` for linear indices below `below * extent * ...`, without work where it is trivial."""
    if extent == 1:
        return np.zeros(linear.shape, dtype=np.int64)
    digits = linear if below == 1 else linear // below
    top = int(linear.max()) if linear.size else 0
    return digits if top < below * extent else digits % extent


class Lin:
    """`c0 + sum(coeffs[i] * id_i)` for the six ids; `dtype` is the integer type it stands for."""

    __slots__ = ("c0", "coeffs", "dtype")

    def __init__(self, c0: int, coeffs: tuple[int, ...], dtype: np.dtype) -> None:
        self.c0 = int(c0)
        self.coeffs = tuple(int(c) for c in coeffs)
        self.dtype = dtype

    @staticmethod
    def var(index: int, dtype: np.dtype = INDEX) -> Lin:
        coeffs = [0] * 6
        coeffs[index] = 1
        return Lin(0, tuple(coeffs), dtype)

    def bounds(self, space: Space) -> tuple[int, int]:
        lo = hi = self.c0
        for c, (vlo, vhi) in zip(self.coeffs, space.ranges):
            if c >= 0:
                lo += c * vlo
                hi += c * vhi
            else:
                lo += c * vhi
                hi += c * vlo
        return lo, hi

    def fits(self, space: Space, dtype: np.dtype | None = None) -> bool:
        dt = dtype or self.dtype
        if dt.kind not in "iu" or dt == np.bool_:
            return False
        info = np.iinfo(dt)
        lo, hi = self.bounds(space)
        return info.min <= lo and hi <= info.max

    def stride(self, space: Space) -> int | None:
        """s when the value is `c + s * position` over the chunk (position = lb * N + tl), else None."""
        s = None
        for c, st, ext in zip(self.coeffs, space.enum_strides, space.extents):
            if ext == 1:
                continue
            if c % st:
                return None
            k = c // st
            if s is None:
                s = k
            elif s != k:
                return None
        return 0 if s is None else s

    def start(self, space: Space) -> int:
        """The value at position 0 of the chunk, for a value with a stride."""
        value = self.c0
        for i in range(3):
            value += self.coeffs[BX + i] * int(space.base[BX + i][0, 0])
        return value

    def materialize(self, space: Space) -> np.ndarray:
        out = None
        for c, base in zip(self.coeffs, space.base):
            if c == 0:
                continue
            term = base * c if c != 1 else base
            out = term if out is None else out + term
        if out is None:
            out = np.full((1, 1), self.c0, dtype=np.int64)
        elif self.c0:
            out = out + self.c0
        if out.dtype != self.dtype:
            out = out.astype(self.dtype)
        return out

    def add(self, other: Lin | int) -> Lin:
        if isinstance(other, Lin):
            return Lin(self.c0 + other.c0, tuple(a + b for a, b in zip(self.coeffs, other.coeffs)), self.dtype)
        return Lin(self.c0 + int(other), self.coeffs, self.dtype)

    def scale(self, k: int) -> Lin:
        return Lin(self.c0 * k, tuple(c * k for c in self.coeffs), self.dtype)

    def neg(self) -> Lin:
        return self.scale(-1)

    def with_dtype(self, dtype: np.dtype) -> Lin:
        return Lin(self.c0, self.coeffs, dtype)

    def __repr__(self) -> str:
        return f"Lin({self.c0}, {self.coeffs}, {self.dtype})"


KernelValue = Lin | np.generic | np.ndarray
"""A value in a kernel: uniform (a NumPy scalar), per thread (an array broadcasting to (B, N)), or a Lin form."""


def is_uniform(value) -> bool:
    """True for a value that is the same in every thread (a NumPy scalar or any non-array object)."""
    return not isinstance(value, (np.ndarray, Lin))


def materialize(value, space: Space | None):
    """An ndarray (or scalar) for a value; Lin forms are expanded over the space."""
    if isinstance(value, Lin):
        if space is None:
            raise ValueError("a per-thread value has no thread space outside a kernel")
        return value.materialize(space)
    return value


def mask_and(a, b):
    """Conjunction of two masks (None = every thread)."""
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def normalize_mask(mask, space: Space | None):
    """None when every thread is on, False when none is, else a bool array."""
    if mask is None:
        return None
    if isinstance(mask, (bool, np.bool_)):
        return None if mask else False
    if mask.all():
        return None
    if not mask.any():
        return False
    return mask


def merge(mask, new, old, space: Space | None):
    """`new` in the threads of `mask`, `old` elsewhere."""
    if mask is None or old is None:
        return new
    if new is old:
        return new
    new_m = materialize(new, space)
    old_m = materialize(old, space)
    if isinstance(new_m, np.ndarray) or isinstance(old_m, np.ndarray) or isinstance(mask, np.ndarray):
        return np.where(mask, new_m, old_m)
    return new_m if mask else old_m
