"""vector dialect handlers for host code: a vector value is an ndarray of the vector's shape.

`arith` and `math` ops on vectors use the scalar handlers (NumPy is elementwise);
this module adds the vector ops and `vector.print` with the output of upstream's
lowering (`printOpen`/`printComma`/`printClose` around `printF32`, `printI64`, ...).
Vector values in kernels are rejected up front (see `api.check_supported`).
"""

from __future__ import annotations

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.dtypes import dtype_of
from gpu_lsp.runner.elementwise import float_binary, integer_binary
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.interp import Ctx, Env, Interpreter, handles
from gpu_lsp.runner.program import dense_values
from gpu_lsp.runner.runtime import format_g


def _vector_dtype(op: Operation, ty: T.Type) -> np.dtype:
    dt = dtype_of(ty.element if isinstance(ty, T.VectorType) else ty)
    if dt is None or (isinstance(ty, T.VectorType) and any(ty.scalable)):
        raise Unsupported(f"'{op.name}' on values of type {ty} is not supported by the runner", op)
    return dt


def _shape(ty: T.Type) -> tuple[int, ...]:
    return tuple(int(d) for d in ty.shape) if isinstance(ty, T.VectorType) else ()


def vector_constant(attr, ty: T.VectorType, op: Operation) -> np.ndarray:
    """The value of `arith.constant dense<...> : vector<...>`."""
    dt = _vector_dtype(op, ty)
    shape = _shape(ty)
    return dense_values(attr, int(np.prod(shape)), dt, op).reshape(shape)


# --- building and taking apart --------------------------------------------------------------


@handles("vector.broadcast", "vector.splat")
def _broadcast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    ty = op.results[0].type
    env.vals[op.results[0]] = np.broadcast_to(np.asarray(src), _shape(ty)).astype(_vector_dtype(op, ty))


@handles("vector.shape_cast")
def _shape_cast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    env.vals[op.results[0]] = np.asarray(src).reshape(_shape(op.results[0].type))


@handles("vector.from_elements")
def _from_elements(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    ty = op.results[0].type
    values = it.operands(op, env)
    env.vals[op.results[0]] = np.array(values, dtype=_vector_dtype(op, ty)).reshape(_shape(ty))


@handles("vector.step")
def _step(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    ty = op.results[0].type
    env.vals[op.results[0]] = np.arange(_shape(ty)[0]).astype(_vector_dtype(op, ty))


def _position(op: Operation, dynamic: list, shape: tuple[int, ...]) -> tuple[int, ...]:
    static = op.get_attr("static_position")
    values = list(getattr(static, "values", ()))
    dyn = iter(dynamic)
    pos = tuple(int(next(dyn)) if v == T.STATIC_DYNAMIC else int(v) for v in values)
    for d, (p, n) in enumerate(zip(pos, shape)):
        if not 0 <= p < n:
            raise RunError(f"'{op.name}' op position {p} is out of bounds for dimension {d} of size {n}", op)
    return pos


@handles("vector.extract")
def _extract(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, *dynamic = it.operands(op, env)
    src = np.asarray(src)
    part = src[_position(op, dynamic, src.shape)]
    env.vals[op.results[0]] = part.copy() if isinstance(part, np.ndarray) and part.ndim else part[()]


@handles("vector.insert")
def _insert(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    value, dest, *dynamic = it.operands(op, env)
    out = np.array(dest, copy=True)
    out[_position(op, dynamic, out.shape)] = value
    env.vals[op.results[0]] = out


@handles("vector.extractelement")
def _extractelement(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, *pos = it.operands(op, env)
    src = np.asarray(src)
    k = int(pos[0]) if pos else 0
    if not 0 <= k < src.size:
        raise RunError(f"'{op.name}' op position {k} is out of bounds for a vector of {src.size} elements", op)
    env.vals[op.results[0]] = src.reshape(-1)[k]


@handles("vector.insertelement")
def _insertelement(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    value, dest, *pos = it.operands(op, env)
    out = np.array(dest, copy=True)
    k = int(pos[0]) if pos else 0
    if not 0 <= k < out.size:
        raise RunError(f"'{op.name}' op position {k} is out of bounds for a vector of {out.size} elements", op)
    out.reshape(-1)[k] = value
    env.vals[op.results[0]] = out


@handles("vector.fma")
def _fma(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b, c = (np.asarray(v) for v in it.operands(op, env))
    dt = a.dtype
    wide = np.float64 if dt.itemsize < 8 else np.longdouble
    env.vals[op.results[0]] = (a.astype(wide) * b.astype(wide) + c.astype(wide)).astype(dt)


def _ints(attr) -> list[int]:
    """The integers of `[1, 0]` or `array<i64: 1, 0>`."""
    if hasattr(attr, "values"):
        return [int(v) for v in attr.values]
    return [int(e.value) for e in getattr(attr, "elements", ())]


@handles("vector.transpose")
def _transpose(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    env.vals[op.results[0]] = np.transpose(np.asarray(src), _ints(op.get_attr("permutation"))).copy()


@handles("vector.to_elements")
def _to_elements(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    for result, value in zip(op.results, np.asarray(src).reshape(-1)):
        env.vals[result] = value


@handles("vector.interleave")
def _interleave(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = (np.asarray(v) for v in it.operands(op, env))
    env.vals[op.results[0]] = np.stack([a, b], axis=-1).reshape(a.shape[:-1] + (2 * a.shape[-1],))


@handles("vector.deinterleave")
def _deinterleave(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    src = np.asarray(src)
    env.vals[op.results[0]] = src[..., 0::2].copy()
    env.vals[op.results[1]] = src[..., 1::2].copy()


@handles("vector.bitcast")
def _bitcast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    ty = op.results[0].type
    dt = _vector_dtype(op, ty)
    if dt == np.bool_ or np.asarray(src).dtype == np.bool_:
        raise Unsupported(f"'{op.name}' of i1 vectors is not supported by the runner", op)
    env.vals[op.results[0]] = np.ascontiguousarray(src).view(dt).reshape(_shape(ty))


def _leading_mask(shape: tuple[int, ...], sizes: list[int]) -> np.ndarray:
    """True in the leading `sizes[d]` positions of every dimension d."""
    out = np.ones(shape, dtype=bool)
    for d, n in enumerate(sizes):
        keep = np.arange(shape[d]) < n
        out &= keep.reshape((-1,) + (1,) * (len(shape) - d - 1))
    return out


@handles("vector.constant_mask")
def _constant_mask(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    env.vals[op.results[0]] = _leading_mask(_shape(op.results[0].type), _ints(op.get_attr("mask_dim_sizes")))


@handles("vector.create_mask")
def _create_mask(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    sizes = [int(v) for v in it.operands(op, env)]
    env.vals[op.results[0]] = _leading_mask(_shape(op.results[0].type), sizes)


# --- reductions -------------------------------------------------------------------------------

# vector.reduction kinds by the arith op with the same semantics.
_KINDS = {
    "add": "add", "mul": "mul", "minui": "minui", "minsi": "minsi", "maxui": "maxui", "maxsi": "maxsi",
    "and": "andi", "or": "ori", "xor": "xori", "minnumf": "minnumf", "maxnumf": "maxnumf",
    "minimumf": "minimumf", "maximumf": "maximumf", "minf": "minnumf", "maxf": "maxnumf",
}


def combine(kind: str, acc, values: np.ndarray, op: Operation):
    """`acc` combined with `values` in order, as the sequential lowering of vector.reduction does."""
    name = _KINDS.get(kind)
    if name is None:
        raise Unsupported(f"'{op.name}' with kind <{kind}> is not supported by the runner", op)
    dt = values.dtype
    floating = dt.kind == "f"
    if name in ("add", "mul"):
        name = name + ("f" if floating else "i")
    for v in values.reshape(-1):
        acc = v if acc is None else (float_binary(name, acc, v, dt) if floating else integer_binary(name, acc, v, dt, op, None))
    return acc


@handles("vector.reduction")
def _reduction(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, *acc = it.operands(op, env)
    kind = op.get_attr("kind")
    if not isinstance(kind, DialectAttr) or kind.body is None:
        raise Unsupported("'vector.reduction' without a combining kind is not supported by the runner", op)
    env.vals[op.results[0]] = combine(kind.body, acc[0] if acc else None, np.asarray(src), op)


# --- memory -----------------------------------------------------------------------------------


def _element_offsets(it: Interpreter, op: Operation, mem, indices: list, shape: tuple[int, ...]):
    """Per element of a vector read at `indices` (minor identity map): each dimension's index and whether it is in bounds."""
    rank = mem.rank
    vrank = len(shape)
    if vrank > rank:
        raise Unsupported(f"'{op.name}' of a vector of higher rank than its memref is not supported by the runner", op)
    grids = np.indices(shape) if shape else np.zeros((0,), dtype=np.int64)
    per_dim = []
    inside = np.ones(shape, dtype=bool)
    for d in range(rank):
        base = int(indices[d])
        k = d - (rank - vrank)
        idx = base + grids[k] if k >= 0 else np.full(shape, base)
        inside &= (idx >= 0) & (idx < int(mem.sizes[d]))
        per_dim.append(idx)
    return per_dim, inside


def _linear(mem, per_dim, where) -> np.ndarray:
    addr = np.full(where.shape, int(mem.offset), dtype=np.int64)
    for idx, stride in zip(per_dim, mem.strides):
        addr = addr + np.where(where, idx, 0) * int(stride)
    return addr


def _check_permutation(op: Operation) -> None:
    perm = op.get_attr("permutation_map")
    if perm is not None:
        text = str(perm)
        head, _, tail = text.partition("->")
        dims = head[head.find("(") + 1 : head.find(")")].split(",")
        results = tail[tail.find("(") + 1 : tail.rfind(")")].split(",")
        wanted = [d.strip() for d in dims[len(dims) - len(results) :]]
        if [r.strip() for r in results] != wanted:
            raise Unsupported(f"'{op.name}' with permutation map {text} is not supported by the runner", op)


def _host_memref(it: Interpreter, op: Operation, mem, ctx: Ctx, write: bool):
    it.tracker.host_access(mem.buf, op, write=write)
    ctx.access.check_live(mem, op, "writes" if write else "reads")


@handles("vector.load", "vector.transfer_read", "vector.maskedload")
def _read(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    vals = it.operands(op, env)
    mem = vals[0]
    rank = mem.rank
    indices, rest = vals[1 : 1 + rank], vals[1 + rank :]
    ty = op.results[0].type
    shape = _shape(ty)
    pad = np.zeros((), mem.dtype)
    enabled = np.ones(shape, dtype=bool)
    if op.name == "vector.transfer_read":
        _check_permutation(op)
        pad = rest[0] if rest else pad
        enabled = np.asarray(rest[1]) if len(rest) > 1 else enabled
    elif op.name == "vector.maskedload":
        enabled, pad = np.asarray(rest[0]), np.asarray(rest[1])
    _host_memref(it, op, mem, ctx, write=False)
    per_dim, inside = _element_offsets(it, op, mem, indices, shape)
    if op.name != "vector.transfer_read" and not (inside | ~enabled).all():
        bad = tuple(int(i) for i in np.argwhere(enabled & ~inside)[0])
        raise RunError(f"'{op.name}' op reads element {bad} of the vector outside the memref (of sizes {list(mem.sizes)})", op)
    take = inside & enabled
    data = mem.data[_linear(mem, per_dim, take)]
    if not take.all():
        data = np.where(take, data, pad)
    env.vals[op.results[0]] = data.astype(_vector_dtype(op, ty))


@handles("vector.store", "vector.transfer_write", "vector.maskedstore")
def _write(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    vals = it.operands(op, env)
    if op.name == "vector.maskedstore":
        mem, *rest = vals
        indices, (enabled, value) = rest[: mem.rank], rest[mem.rank :]
    else:
        value, mem, *rest = vals
        indices, extra = rest[: mem.rank], rest[mem.rank :]
        enabled = extra[0] if extra else True
    if op.name == "vector.transfer_write":
        _check_permutation(op)
    value = np.asarray(value)
    enabled = np.broadcast_to(np.asarray(enabled, dtype=bool), value.shape)
    _host_memref(it, op, mem, ctx, write=True)
    per_dim, inside = _element_offsets(it, op, mem, indices, value.shape)
    if op.name != "vector.transfer_write" and not (inside | ~enabled).all():
        bad = tuple(int(i) for i in np.argwhere(enabled & ~inside)[0])
        raise RunError(f"'{op.name}' op writes element {bad} of the vector outside the memref (of sizes {list(mem.sizes)})", op)
    take = inside & enabled
    mem.data[_linear(mem, per_dim, take)[take]] = value[take]


# --- printing ---------------------------------------------------------------------------------

_PUNCTUATION = {"newline": "\n", "comma": ", ", "open": "( ", "close": " )", "no_punctuation": ""}


def _format(value, ty: T.Type) -> str:
    """One element as upstream's lowering prints it: printF32/F64 (`%g`), printU64 for index and
    unsigned integers (zero-extended), printI64 for the others (i1 zero-extended)."""
    if isinstance(ty, T.FloatType):
        return format_g(value)
    if isinstance(ty, T.IndexType):
        return str(int(np.asarray(value).astype(np.uint64)))
    if isinstance(ty, T.IntegerType) and (ty.width == 1 or ty.signedness == "u"):
        return str(int(value) & ((1 << ty.width) - 1))
    return str(int(value))


def format_vector(value, ty: T.Type) -> str:
    """`( 1, 2 )` nesting per dimension (a 0-d vector too); a scalar alone."""
    if not isinstance(ty, T.VectorType):
        return _format(value, ty)
    array = np.asarray(value)
    if array.ndim == 0:
        return "( " + _format(array[()], ty.element) + " )"

    def rec(a) -> str:
        if a.ndim == 0:
            return _format(a[()], ty.element)
        return "( " + ", ".join(rec(x) for x in a) + " )"

    return rec(array)


@handles("vector.print")
def _print(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    text = ""
    if op.operands:
        (value,) = it.operands(op, env)
        text = format_vector(value, op.operands[0].type)
    literal = op.get_attr("stringLiteral")
    if isinstance(literal, StringAttr):
        text += literal.value
    punct = op.get_attr("punctuation")
    if punct is not None:
        body = punct.body if isinstance(punct, DialectAttr) else None
        mark = _PUNCTUATION.get(body) if body is not None else None
        if mark is None:
            raise Unsupported(f"'vector.print' with punctuation <{body}> is not supported by the runner", op)
        text += mark
    elif literal is None:
        text += "\n"
    it.output(text)
