"""Handlers for arith, math, index, scf, cf, func and memref ops (host and kernel alike)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import StringAttr, SymbolRefAttr
from gpu_lsp.ir.core import Operation, Region
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.operands import split_by_segments
from gpu_lsp.runner.dtypes import constant_value, dense_array_values, dtype_of, unsigned_of
from gpu_lsp.runner.elementwise import (
    FLOAT_BINARY,
    cmpf,
    cmpi,
    convert,
    fix,
    float_binary,
    integer_binary,
    math_op,
    predicate_name,
)
from gpu_lsp.runner.errors import RunError, Unsupported
from gpu_lsp.runner.hostcompile import run_scalar_loop
from gpu_lsp.runner.hostloop import run_vectorised
from gpu_lsp.runner.interp import (
    Ctx,
    Env,
    Interpreter,
    handles,
    operand_dtype,
    result_dtype,
)
from gpu_lsp.runner.lanes import Lin, is_uniform, mask_and, materialize, normalize_mask
from gpu_lsp.runner.memory import HOST, PRIVATE, MemRef, contiguous_strides
from gpu_lsp.runner.ops_vector import vector_constant

# --- arith ------------------------------------------------------------------------------------


@handles("arith.constant", "index.constant", "index.bool.constant")
def _constant(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    ty = op.results[0].type
    attr = op.get_attr("value")
    if isinstance(ty, T.VectorType) and attr is not None:
        env.vals[op.results[0]] = vector_constant(attr, ty, op)
        return
    value = constant_value(attr, ty) if attr is not None else None
    if value is None:
        if isinstance(ty, (T.VectorType, T.TensorType)):
            raise Unsupported(f"'{op.name}' of type {ty} is not supported by the runner (vectors and tensors are not)", op)
        raise Unsupported(f"'{op.name}' with value {attr} : {ty} is not supported by the runner", op)
    env.vals[op.results[0]] = value


def _as_int(v) -> int | None:
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return int(v)
    return None


def lin_or_values(a, b, space, on_lin: Callable[[Any, Any], Any], on_values: Callable[[Any, Any], Any]) -> Any:
    """`on_lin(a, b)` when an operand is an affine Lin and the result is affine too; else `on_values` of the lane values."""
    if isinstance(a, Lin) or isinstance(b, Lin):
        out = on_lin(a, b)
        if out is not None:
            return out
        a, b = materialize(a, space), materialize(b, space)
    return on_values(a, b)


def integer_result(name: str, a, b, dt: np.dtype, op: Operation, ctx: Ctx, mask) -> Any:
    """`name` (addi, muli, ...) of two integers: an affine form while it stays one, else lane values."""
    return lin_or_values(a, b, ctx.space, lambda x, y: lin_binary(name, x, y, dt, ctx.space), lambda x, y: integer_binary(name, x, y, dt, op, mask))


def lin_binary(name: str, a, b, dt: np.dtype, space):
    """addi/subi/muli/shli on affine thread values, or None when the result is not affine."""
    if dt.kind != "i":
        return None
    ai, bi = _as_int(a), _as_int(b)
    la = a if isinstance(a, Lin) else None
    lb = b if isinstance(b, Lin) else None
    if (la is None and ai is None) or (lb is None and bi is None):
        return None
    out: Lin | None = None
    if name == "addi":
        if la is not None:
            other = lb if lb is not None else bi
            out = la.add(other) if other is not None else None
        elif lb is not None and ai is not None:
            out = lb.add(ai)
    elif name == "subi":
        if la is not None:
            if lb is not None:
                out = la.add(lb.neg())
            elif bi is not None:
                out = la.add(-bi)
        elif lb is not None and ai is not None:
            out = lb.neg().add(ai)
    elif name == "muli":
        if la is not None and bi is not None:
            out = la.scale(bi)
        elif lb is not None and ai is not None:
            out = lb.scale(ai)
    elif name == "shli" and la is not None and bi is not None and 0 <= bi < dt.itemsize * 8 - 1:
        out = la.scale(1 << bi)
    if out is None:
        return None
    out = out.with_dtype(dt)
    return out if out.fits(space) else None


INT_BINARY = (
    "addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui",
    "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "maxui", "minsi", "minui",
)


# The index dialect's integer ops, by the arith op with the same semantics.
INDEX_BINARY = {
    "add": "addi", "sub": "subi", "mul": "muli", "divs": "divsi", "divu": "divui", "ceildivs": "ceildivsi",
    "ceildivu": "ceildivui", "floordivs": "floordivsi", "rems": "remsi", "remu": "remui", "maxs": "maxsi",
    "maxu": "maxui", "mins": "minsi", "minu": "minui", "shl": "shli", "shrs": "shrsi", "shru": "shrui",
    "and": "andi", "or": "ori", "xor": "xori",
}


def arith_name(op: Operation) -> str:
    """`addi` for arith.addi and index.add alike."""
    dialect, _, name = op.name.partition(".")
    return INDEX_BINARY[name] if dialect == "index" else name


@handles(*(f"arith.{n}" for n in INT_BINARY), *(f"index.{n}" for n in INDEX_BINARY))
def _int_binary(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = it.operands(op, env)
    it.assign(env, op.results[0], integer_result(arith_name(op), a, b, result_dtype(op), op, ctx, mask), ctx, mask)


@handles(*(f"arith.{n}" for n in FLOAT_BINARY))
def _float_binary(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = it.operands(op, env)
    it.assign(env, op.results[0], float_binary(op.name[6:], a, b, result_dtype(op)), ctx, mask)


@handles("arith.negf")
def _negf(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (a,) = it.operands(op, env)
    it.assign(env, op.results[0], fix(np.negative(a)), ctx, mask)


_SIGNED = {"eq": "eq", "ne": "ne", "slt": "slt", "sle": "sle", "sgt": "sgt", "sge": "sge", "ult": "slt", "ule": "sle", "ugt": "sgt", "uge": "sge"}


def _decide(pred: str, lo: int, hi: int):
    """The comparison `d <pred> 0` for d in [lo, hi], or None when it depends on the thread."""
    table = {
        "eq": (lo == hi == 0, lo > 0 or hi < 0),
        "ne": (lo > 0 or hi < 0, lo == hi == 0),
        "slt": (hi < 0, lo >= 0),
        "sle": (hi <= 0, lo > 0),
        "sgt": (lo > 0, hi <= 0),
        "sge": (lo >= 0, hi < 0),
    }
    true, false = table[pred]
    if true:
        return np.bool_(True)
    if false:
        return np.bool_(False)
    return None


def _lin_cmp(pred: str, a, b, dt: np.dtype, space):
    """Decide a comparison of affine values from their ranges when every thread agrees."""
    parts: list[tuple[Lin | int, int, int]] = []
    for v in (a, b):
        if isinstance(v, Lin):
            if not v.fits(space, dt):
                return None
            parts.append((v, *v.bounds(space)))
        else:
            iv = _as_int(v)
            if iv is None:
                return None
            parts.append((iv, iv, iv))
    (va, alo, _), (vb, blo, _) = parts
    if pred.startswith("u") and (alo < 0 or blo < 0):
        return None
    if isinstance(va, Lin):
        diff = va.add(vb.neg() if isinstance(vb, Lin) else -vb)
    elif isinstance(vb, Lin):
        diff = vb.neg().add(va)
    else:  # two constants: folded by the caller
        return None
    lo, hi = diff.bounds(space)
    return _decide(_SIGNED[pred], lo, hi)


@handles("arith.cmpi", "index.cmp")
def _cmpi(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = it.operands(op, env)
    pred = predicate_name(op, "cmpi")
    dt = operand_dtype(op)
    out = lin_or_values(a, b, ctx.space, lambda x, y: _lin_cmp(pred, x, y, dt, ctx.space), lambda x, y: cmpi(pred, x, y, dt))
    it.assign(env, op.results[0], out, ctx, mask)


@handles("arith.cmpf")
def _cmpf(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = it.operands(op, env)
    pred = predicate_name(op, "cmpf")
    it.assign(env, op.results[0], cmpf(pred, a, b), ctx, mask)


@handles("arith.select")
def _select(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    cond, a, b = it.operands(op, env)
    if is_uniform(cond):
        it.assign(env, op.results[0], a if bool(cond) else b, ctx, mask)
        return
    if not all(isinstance(v, (np.ndarray, np.generic, Lin)) for v in (a, b)):
        raise Unsupported("'arith.select' of memrefs by a condition that differs between threads is not supported by the runner", op)
    dt = result_dtype(op)
    out = np.where(materialize(cond, ctx.space), materialize(a, ctx.space), materialize(b, ctx.space))
    it.assign(env, op.results[0], fix(out.astype(dt, copy=False)), ctx, mask)


CASTS = ("index_cast", "index_castui", "extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast")


@handles(*(f"arith.{n}" for n in CASTS), "index.casts", "index.castu")
def _cast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (x,) = it.operands(op, env)
    src, dst = operand_dtype(op), result_dtype(op)
    name = {"index.casts": "index_cast", "index.castu": "index_castui"}.get(op.name) or op.name[6:]
    if isinstance(x, Lin):
        unsigned_src = name in ("index_castui", "extui")
        exact = name in ("index_cast", "extsi", "trunci", "index_castui", "extui") and dst.kind == "i" and x.fits(ctx.lanes(), dst)
        if exact and (not unsigned_src or x.bounds(ctx.lanes())[0] >= 0):
            it.assign(env, op.results[0], x.with_dtype(dst), ctx, mask)
            return
        x = materialize(x, ctx.space)
    it.assign(env, op.results[0], convert(name, x, src, dst, op), ctx, mask)


@handles("index.sizeof")
def _sizeof(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    env.vals[op.results[0]] = np.int64(64)


@handles("arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended")
def _extended(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    a, b = (materialize(v, ctx.space) for v in it.operands(op, env))
    dt = operand_dtype(op)
    bits = dt.itemsize * 8
    if bits > 32:
        raise Unsupported(f"'{op.name}' on {bits}-bit integers is not supported by the runner", op)
    wide = np.dtype(np.int64) if op.name != "arith.mului_extended" else np.dtype(np.uint64)
    if op.name == "arith.addui_extended":
        ua, ub = np.asarray(a).astype(np.uint64) & ((1 << bits) - 1), np.asarray(b).astype(np.uint64) & ((1 << bits) - 1)
        s = ua + ub
        res = fix((s & np.uint64((1 << bits) - 1)).astype(dt))
        it.set_results(op, [res, fix(s >> np.uint64(bits) != 0)], env, ctx, mask)
        return
    if op.name == "arith.mului_extended":
        wa = np.asarray(a).astype(np.uint64) & np.uint64((1 << bits) - 1)
        wb = np.asarray(b).astype(np.uint64) & np.uint64((1 << bits) - 1)
        p = wa * wb
    else:
        p = np.asarray(a).astype(wide) * np.asarray(b).astype(wide)
    low = fix(p.astype(dt))
    high = fix((p >> (np.uint64(bits) if p.dtype == np.uint64 else bits)).astype(dt))
    it.set_results(op, [low, high], env, ctx, mask)


# --- math --------------------------------------------------------------------------------------

_MATH = (
    "absf", "ceil", "floor", "trunc", "roundeven", "round", "sqrt", "rsqrt", "cbrt", "exp", "exp2", "expm1",
    "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "erf", "erfc", "atan2", "powf", "copysign", "fma", "fpowi", "absi", "ipowi",
    "ctlz", "cttz", "ctpop", "isnan", "isinf", "isfinite", "isnormal",
)


@handles(*(f"math.{n}" for n in _MATH))
def _math(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    args = [materialize(v, ctx.space) for v in it.operands(op, env)]
    dt = result_dtype(op)
    it.assign(env, op.results[0], math_op(op.name[5:], args, dt, op), ctx, mask)


@handles("math.sincos")
def _sincos(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (x,) = it.operands(op, env)
    dt = result_dtype(op)
    it.set_results(op, [math_op("sin", [x], dt, op), math_op("cos", [x], dt, op)], env, ctx, mask)


@handles("math.clampf")
def _clampf(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    x, lo, hi = it.operands(op, env)
    dt = result_dtype(op)
    it.assign(env, op.results[0], fix(np.minimum(np.maximum(x, lo), hi).astype(dt)), ctx, mask)


# --- scf ---------------------------------------------------------------------------------------


@handles("scf.for")
def _for(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    lb, ub, step, *inits = it.operands(op, env)
    body = op.regions[0]
    dt = operand_dtype(op, 0)
    unsigned = op.get_attr("unsignedCmp") is not None
    vals = list(inits)
    if all(is_uniform(v) for v in (lb, ub, step)):
        lo, hi, st = int(lb), int(ub), int(step)
        if unsigned:
            bits = dt.itemsize * 8
            lo, hi, st = lo % (1 << bits), hi % (1 << bits), st % (1 << bits)
        if st <= 0:
            raise RunError(f"'scf.for' op has a non-positive step ({st})", op)
        if not unsigned and lo < hi and mask is None and not ctx.device:
            out = run_vectorised(it, op, env, ctx, lo, hi, st, vals, dt)
            if out is None and ctx.space is None:
                out = run_scalar_loop(it, op, env, ctx, lo, hi, st, vals, dt)
            if out is not None:
                it.set_results(op, out, env, ctx, mask)
                return
        i = lo
        while i < hi:
            it.tick(op)
            out = it.run_region(body, [dt.type(i) if not unsigned else fix(np.asarray(i).astype(np.uint64).astype(dt))] + vals, env, ctx, mask)
            vals = list(out or [])
            i += st
        it.set_results(op, vals, env, ctx, mask)
        return
    if ctx.space is None:
        raise RunError("'scf.for' op has non-uniform bounds on the host", op)
    space = ctx.space
    lb, ub, step = (materialize(v, space) for v in (lb, ub, step))
    if unsigned:
        raise Unsupported("'scf.for unsigned' with bounds that differ between threads is not supported by the runner", op)
    if np.any(np.asarray(step) <= 0 if mask is None else (np.asarray(step) <= 0) & mask):
        raise RunError("'scf.for' op has a non-positive step", op)
    iv = np.broadcast_to(lb, np.broadcast(lb, ub, step).shape).astype(dt)
    active = normalize_mask(mask_and(mask, iv < ub), space)
    while active is not False:
        it.tick(op)
        out = it.run_region(body, [iv] + vals, env, ctx, active)
        vals = [it.merge(active, o, v, ctx) for o, v in zip(out or [], vals)]
        nxt = (iv + step).astype(dt)
        iv = nxt if active is None else np.where(active, nxt, iv)
        active = normalize_mask(mask_and(active if active is not None else mask, iv < ub), space)
    it.set_results(op, vals, env, ctx, mask)


@handles("scf.if")
def _if(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (cond,) = it.operands(op, env)
    then_r, else_r = op.regions[0], op.regions[1] if len(op.regions) > 1 else None
    if is_uniform(cond):
        region = then_r if bool(cond) else else_r
        out = it.run_region(region, [], env, ctx, mask) if region is not None and region.blocks else []
        it.set_results(op, list(out or []), env, ctx, mask)
        return
    cond = materialize(cond, ctx.space)
    tm = normalize_mask(mask_and(mask, cond), ctx.space)
    fm = normalize_mask(mask_and(mask, ~cond), ctx.space)
    tv = it.run_region(then_r, [], env, ctx, tm) if tm is not False else None
    fv = None
    if fm is not False and else_r is not None and else_r.blocks:
        fv = it.run_region(else_r, [], env, ctx, fm)
    if not op.results:
        return
    if tv is None:
        out = fv
    elif fv is None:
        out = tv
    else:
        out = [it.merge(cond, t, f, ctx) for t, f in zip(tv, fv)]
    it.set_results(op, list(out or []), env, ctx, mask)


@handles("scf.while")
def _while(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    vals = it.operands(op, env)
    before, after = op.regions[0], op.regions[1]
    active = mask
    results: list | None = None
    while True:
        it.tick(op)
        out = it.run_region(before, vals, env, ctx, active)
        if not out:
            raise RunError("'scf.while' op's condition region ends without scf.condition", op)
        cond, args = out[0], list(out[1:])
        if is_uniform(cond):
            if not bool(cond):
                results = args if results is None else [it.merge(active, a, r, ctx) for a, r in zip(args, results)]
                break
        else:
            cond = materialize(cond, ctx.space)
            leaving = normalize_mask(mask_and(active, ~cond), ctx.space)
            if leaving is not False:
                results = args if results is None else [it.merge(leaving, a, r, ctx) for a, r in zip(args, results)]
            active = normalize_mask(mask_and(active, cond), ctx.space)
            if active is False:
                break
        vals = list(it.run_region(after, args, env, ctx, active) or [])
    it.set_results(op, results or [], env, ctx, mask)


@handles("scf.parallel")
def _parallel(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    groups = split_by_segments(op, it.operands(op, env))
    if groups is None:
        raise Unsupported("'scf.parallel' without operand segments is not supported by the runner", op)
    lbs, ubs, steps, inits = groups["lowerBound"], groups["upperBound"], groups["step"], groups["initVals"]
    if not all(is_uniform(v) for v in lbs + ubs + steps):
        raise Unsupported("'scf.parallel' with bounds that differ between threads is not supported by the runner", op)
    body = op.regions[0]
    term = body.blocks[-1].operations[-1] if body.blocks and body.blocks[-1].operations else None
    acc = list(inits)
    ranges = [range(int(lo), int(hi), int(st)) for lo, hi, st in zip(lbs, ubs, steps)]
    for st in steps:
        if int(st) <= 0:
            raise RunError("'scf.parallel' op has a non-positive step", op)
    for ivs in itertools.product(*ranges):
        it.tick(op)
        out = it.run_region(body, [np.int64(i) for i in ivs], env, ctx, mask) or []
        if acc and term is not None and term.name == "scf.reduce":
            for k, (region, value) in enumerate(zip(term.regions, out)):
                combined = it.run_region(region, [acc[k], value], env, ctx, mask)
                if not combined:
                    raise RunError("'scf.reduce' op's region ends without scf.reduce.return", op)
                acc[k] = combined[0]
    it.set_results(op, acc, env, ctx, mask)


@handles("scf.execute_region")
def _execute_region(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    out = it.run_region(op.regions[0], [], env, ctx, mask)
    it.set_results(op, list(out or []), env, ctx, mask)


@handles("scf.index_switch")
def _index_switch(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (flag,) = it.operands(op, env)
    cases = [int(v) for v in (dense_array_values(op.get_attr("cases")) or ())]
    default, case_regions = op.regions[0], op.regions[1:]
    if is_uniform(flag):
        region = default
        for value, r in zip(cases, case_regions):
            if int(flag) == value:
                region = r
        it.set_results(op, list(it.run_region(region, [], env, ctx, mask) or []), env, ctx, mask)
        return
    flag = materialize(flag, ctx.space)
    out: list | None = None
    rest = mask
    arms: list[tuple[int | None, Region]] = [*zip(cases, case_regions), (None, default)]
    for case, region in arms:
        hit = (flag == case) if case is not None else None
        m = normalize_mask(mask_and(rest, hit) if hit is not None else rest, ctx.space)
        if hit is not None:
            rest = mask_and(rest, ~hit)
        if m is False:
            continue
        vals = it.run_region(region, [], env, ctx, m) or []
        out = vals if out is None else [it.merge(m, v, o, ctx) for v, o in zip(vals, out)]
    it.set_results(op, list(out or []), env, ctx, mask)


# --- cf ----------------------------------------------------------------------------------------


@handles("cf.assert")
def _assert(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (cond,) = it.operands(op, env)
    msg = op.get_attr("msg")
    text = msg.value if isinstance(msg, StringAttr) else ""
    failed = ~materialize(cond, ctx.space) if not is_uniform(cond) else np.bool_(not bool(cond))
    if mask is not None:
        failed = failed & mask
    if np.any(failed):
        who = ""
        if isinstance(failed, np.ndarray) and ctx.space is not None:
            b, t = np.argwhere(np.broadcast_to(failed, ctx.space.shape))[0]
            who = " in " + ctx.space.describe(int(b), int(t))
        raise RunError(f"assertion failed{who}: {text}", op)


# --- func --------------------------------------------------------------------------------------


class FuncRef:
    """A function symbol used as a value (func.constant)."""

    def __init__(self, op: Operation) -> None:
        self.op = op


@handles("func.call")
def _call(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    callee_attr = op.get_attr("callee")
    if not isinstance(callee_attr, SymbolRefAttr):
        raise RunError("'func.call' op has no callee", op)
    args = it.operands(op, env)
    target = it.program.lookup_function(op, callee_attr)
    if target is not None and target.regions and target.regions[0].blocks:
        it.set_results(op, it.call(target, args, ctx, mask, op), env, ctx, mask)
        return
    name = callee_attr.leaf
    fn = it.runtime.lookup(name)
    if fn is None:
        raise RunError(f"call to the external function @{name}, which gpu-run does not provide", op)
    if ctx.device:
        raise Unsupported(f"calling the runtime function @{name} from a kernel is not supported by the runner", op)
    out = fn(args, op, it) or []
    it.set_results(op, list(out)[: len(op.results)], env, ctx, mask)


@handles("func.constant")
def _func_constant(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    sym = op.get_attr("value")
    target = it.program.lookup_function(op, sym) if isinstance(sym, SymbolRefAttr) else None
    if target is None:
        raise RunError(f"'func.constant' op refers to an unknown function {sym}", op)
    env.vals[op.results[0]] = FuncRef(target)


@handles("func.call_indirect")
def _call_indirect(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    callee, *args = it.operands(op, env)
    if not isinstance(callee, FuncRef):
        raise Unsupported("'func.call_indirect' on a callee that differs between threads is not supported by the runner", op)
    it.set_results(op, it.call(callee.op, args, ctx, mask, op), env, ctx, mask)


# --- memref ------------------------------------------------------------------------------------


def memref_type(op: Operation, ty: T.Type) -> tuple[T.MemRefType, np.dtype]:
    """A ranked memref result type and its element dtype (every caller needs the shape and layout)."""
    if not isinstance(ty, T.MemRefType):
        raise Unsupported(f"'{op.name}' on {ty} is not supported by the runner", op)
    dt = dtype_of(ty.element)
    if dt is None:
        raise Unsupported(f"memrefs of {ty.element} are not supported by the runner", op)
    return ty, dt


def layout_is_identity(ty: T.MemRefType) -> bool:
    layout = ty.layout
    if layout is None:
        return True
    text = str(layout).replace(" ", "")
    if text.startswith("affine_map<"):
        dims = [f"d{i}" for i in range(ty.rank)]
        return text == f"affine_map<({','.join(dims)})->({','.join(dims)})>"
    return False


def shape_from(op: Operation, ty: T.MemRefType, dynamic: list) -> tuple[int, ...]:
    sizes = []
    dyn = iter(dynamic)
    for d in ty.shape:
        if d is None:
            v = next(dyn, None)
            if v is None:
                raise RunError(f"'{op.name}' op is missing a dynamic size", op)
            if not is_uniform(v):
                raise Unsupported(f"'{op.name}' with sizes that differ between threads is not supported by the runner", op)
            v = int(v)
            if v < 0:
                raise RunError(f"'{op.name}' op has a negative size ({v})", op)
            sizes.append(v)
        else:
            sizes.append(int(d))
    return tuple(sizes)


@handles("memref.alloc", "memref.alloca")
def _alloc(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    ty, dt = memref_type(op, op.results[0].type)
    if not layout_is_identity(ty):
        raise Unsupported(f"'{op.name}' with layout {ty.layout} is not supported by the runner", op)
    operands = it.operands(op, env)
    sizes = shape_from(op, ty, operands[: ty.num_dynamic_dims])
    count = int(np.prod(sizes)) if sizes else 1
    strides = contiguous_strides(sizes)
    if ctx.device:
        if op.name == "memref.alloc":
            raise Unsupported("'memref.alloc' inside a kernel (device-side heap allocation) is not supported by the runner", op)
        space = ctx.lanes()
        buf = it.pool.allocate(count * dt.itemsize * space.B * space.N, PRIVATE, op)
        ctx.allocas.append(buf)
        offset = space.linear_thread().scale(count)
        it.assign(env, op.results[0], MemRef(buf, dt, offset, sizes, strides, ty), ctx, mask)
        return
    buf = it.pool.allocate(count * dt.itemsize, HOST, op)
    if op.name == "memref.alloca":
        ctx.allocas.append(buf)
    env.vals[op.results[0]] = MemRef(buf, dt, 0, sizes, strides, ty)


@handles("memref.dealloc")
def _dealloc(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (mem,) = it.operands(op, env)
    if ctx.device:
        raise Unsupported("'memref.dealloc' inside a kernel is not supported by the runner", op)
    if mem.buf.freed:
        raise RunError(f"'memref.dealloc' op frees memory that was already freed (allocated at {it.locator.where(mem.buf.op)})", op)
    if mem.buf.kind != HOST or (mem.buf.op is not None and mem.buf.op.name == "memref.alloca"):
        raise RunError(f"'memref.dealloc' op frees memory allocated by '{mem.buf.op.name}' at {it.locator.where(mem.buf.op)}", op)
    it.pool.free(mem.buf)


def _indices(values: list, space) -> list:
    out: list[Lin | np.ndarray | int] = []
    for v in values:
        if isinstance(v, (Lin, np.ndarray)):
            out.append(v)
        else:
            out.append(int(v))
    return out


@handles("memref.load")
def _load(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    mem, *idx = it.operands(op, env)
    if ctx.device:
        value = ctx.access.load(mem, _indices(idx, ctx.space), op, mask)
        it.assign(env, op.results[0], fix(value) if not isinstance(value, np.ndarray) else value, ctx, mask)
        return
    it.tracker.host_access(mem.buf, op, write=False)
    it.assign(env, op.results[0], ctx.access.load(mem, _indices(idx, ctx.space), op, mask), ctx, mask)


@handles("memref.store")
def _store(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    value, mem, *idx = it.operands(op, env)
    if ctx.device:
        ctx.access.store(mem, _indices(idx, ctx.space), value, op, mask)
        return
    it.tracker.host_access(mem.buf, op, write=True)
    ctx.access.store(mem, _indices(idx, ctx.space), value, op, mask)


@handles("memref.dim")
def _dim(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    mem, index = it.operands(op, env)
    if not is_uniform(index):
        raise Unsupported("'memref.dim' with an index that differs between threads is not supported by the runner", op)
    i = int(index)
    if not 0 <= i < mem.rank:
        raise RunError(f"'memref.dim' op asks for dimension {i} of a rank-{mem.rank} memref", op)
    it.assign(env, op.results[0], np.int64(mem.sizes[i]) if is_uniform(mem.sizes[i]) else mem.sizes[i], ctx, mask)


@handles("memref.rank")
def _rank(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (mem,) = it.operands(op, env)
    env.vals[op.results[0]] = np.int64(mem.rank)


@handles("memref.cast", "memref.memory_space_cast")
def _memref_cast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (mem,) = it.operands(op, env)
    ty = op.results[0].type
    if isinstance(ty, T.MemRefType):
        if ty.rank != mem.rank:
            raise RunError(f"'{op.name}' op casts a rank-{mem.rank} memref to {ty}", op)
        for d, (want, have) in enumerate(zip(ty.shape, mem.sizes)):
            if want is not None and is_uniform(have) and int(have) != want:
                raise RunError(f"'{op.name}' op casts a memref whose dimension {d} has size {int(have)} to {ty}", op)
    it.assign(env, op.results[0], mem.derive(mem.offset, mem.sizes, mem.strides, ty), ctx, mask)


@handles("memref.copy")
def _copy(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, dst = it.operands(op, env)
    if ctx.device:
        raise Unsupported("'memref.copy' inside a kernel is not supported by the runner", op)
    if tuple(int(s) for s in src.sizes) != tuple(int(s) for s in dst.sizes):
        raise RunError(f"'memref.copy' op copies a memref of shape {list(src.sizes)} into one of shape {list(dst.sizes)}", op)
    it.host_access.check_live(src, op, "reads")
    it.host_access.check_live(dst, op, "writes")
    it.tracker.host_access(src.buf, op, write=False)
    it.tracker.host_access(dst.buf, op, write=True)
    dst.host_array()[...] = src.host_array()


@handles("memref.get_global")
def _get_global(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    sym = op.get_attr("name")
    if not isinstance(sym, SymbolRefAttr):
        raise RunError("'memref.get_global' op has no symbol", op)
    env.vals[op.results[0]] = it.program.global_memref(it, op, sym)


@handles("memref.alloca_scope")
def _alloca_scope(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    saved = ctx.allocas
    ctx.allocas = []
    try:
        out = it.run_region(op.regions[0], [], env, ctx, mask)
    finally:
        for buf in ctx.allocas:
            buf.freed = True
        ctx.allocas = saved
    it.set_results(op, list(out or []), env, ctx, mask)


@handles("memref.assume_alignment")
def _assume_alignment(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    if op.results:
        it.assign(env, op.results[0], env.get(op.operands[0]), ctx, mask)


def _mixed(op: Operation, name: str, dynamic: list) -> list:
    static = dense_array_values(op.get_attr(name))
    if static is None:
        raise Unsupported(f"'{op.name}' without its '{name}' property is not supported by the runner", op)
    dyn = iter(dynamic)
    out = []
    for s in static:
        if int(s) == T.STATIC_DYNAMIC:
            v = next(dyn, None)
            if v is None:
                raise RunError(f"'{op.name}' op is missing a dynamic value for '{name}'", op)
            out.append(v)
        else:
            out.append(int(s))
    return out


def _offset_add(a, b, space):
    """a + b for offsets that may be ints, affine forms or arrays."""
    if isinstance(a, Lin) or isinstance(b, Lin):
        if isinstance(a, Lin) and isinstance(b, Lin):
            return a.add(b)
        if isinstance(a, Lin) and _as_int(b) is not None:
            return a.add(int(b))
        if isinstance(b, Lin) and _as_int(a) is not None:
            return b.add(int(a))
        return materialize(a, space) + materialize(b, space)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a + b
    return int(a) + int(b)


def _offset_mul(a, k, space):
    if isinstance(a, Lin) and _as_int(k) is not None:
        return a.scale(int(k))
    if isinstance(k, Lin) and _as_int(a) is not None:
        return k.scale(int(a))
    if isinstance(a, (Lin, np.ndarray)) or isinstance(k, (Lin, np.ndarray)):
        return materialize(a, space) * materialize(k, space)
    return int(a) * int(k)


def precheck(op: Operation) -> None:
    """Raise Unsupported before the run for a form of an op the runner cannot execute."""
    if op.name in ("memref.subview", "memref.reinterpret_cast") or op.name == "scf.parallel":
        _view_operands(op, list(op.operands))


def _view_operands(op: Operation, values: list) -> list[list]:
    """`values` grouped as the operands of a subview, reinterpret_cast or scf.parallel."""
    groups = split_by_segments(op, values)
    if groups is None:
        raise Unsupported(
            f"'{op.name}' is not supported by the runner yet: its syntax reader does not record which "
            "offsets, sizes and strides are static (operandSegmentSizes and static_* properties)",
            op,
        )
    return list(groups.values())


@handles("memref.subview")
def _subview(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    vals = it.operands(op, env)
    (src,), offs, sizes, strides = _view_operands(op, vals)
    offsets = _mixed(op, "static_offsets", offs)
    sizes = _mixed(op, "static_sizes", sizes)
    steps = _mixed(op, "static_strides", strides)
    offset = src.offset
    for o, st in zip(offsets, src.strides):
        offset = _offset_add(offset, _offset_mul(o, st, ctx.space), ctx.space)
    new_strides = [_offset_mul(s, st, ctx.space) for s, st in zip(steps, src.strides)]
    for d, (o, n, s, full) in enumerate(zip(offsets, sizes, steps, src.sizes)):
        if all(is_uniform(x) and not isinstance(x, Lin) for x in (o, n, s, full)) and int(n) > 0:
            last = int(o) + (int(n) - 1) * int(s)
            if int(o) < 0 or last >= int(full):
                raise RunError(f"'memref.subview' op takes elements {int(o)}..{last} of dimension {d}, which has size {int(full)}", op)
    ty = op.results[0].type
    if isinstance(ty, T.MemRefType) and ty.rank < len(sizes):
        keep = _rank_reduction(sizes, ty.rank)
        sizes = [sizes[i] for i in keep]
        new_strides = [new_strides[i] for i in keep]
    sizes = [int(s) if is_uniform(s) and not isinstance(s, Lin) else materialize(s, ctx.space) for s in sizes]
    it.assign(env, op.results[0], src.derive(offset, sizes, new_strides, ty), ctx, mask)


def _rank_reduction(sizes: list, rank: int) -> list[int]:
    keep = list(range(len(sizes)))
    drop = len(sizes) - rank
    for i, s in enumerate(sizes):
        if drop == 0:
            break
        if is_uniform(s) and not isinstance(s, Lin) and int(s) == 1:
            keep.remove(i)
            drop -= 1
    return keep


@handles("memref.reinterpret_cast")
def _reinterpret_cast(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    vals = it.operands(op, env)
    (src,), offs, sizes, strides = _view_operands(op, vals)
    offset = _mixed(op, "static_offsets", offs)[0]
    sizes = _mixed(op, "static_sizes", sizes)
    strides = _mixed(op, "static_strides", strides)
    for v in [offset] + sizes + strides:
        if not is_uniform(v):
            raise Unsupported("'memref.reinterpret_cast' with values that differ between threads is not supported by the runner", op)
    base = src.offset
    # The result is relative to the source's base pointer, not to its offset.
    if isinstance(base, Lin):
        rel = base.add(-base.c0)
        offset = rel.add(int(offset))
    elif isinstance(base, np.ndarray):
        raise Unsupported("'memref.reinterpret_cast' of per-thread memory is not supported by the runner", op)
    start = offset if isinstance(offset, Lin) else int(offset)
    view = src.derive(start, [int(s) for s in sizes], [int(s) for s in strides], op.results[0].type)
    it.assign(env, op.results[0], view, ctx, mask)


@handles("memref.view")
def _view(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, shift, *dyn = it.operands(op, env)
    ty, dt = memref_type(op, op.results[0].type)
    if not is_uniform(shift):
        raise Unsupported("'memref.view' with a byte shift that differs between threads is not supported by the runner", op)
    sizes = shape_from(op, ty, dyn)
    shift = int(shift)
    itemsize = dt.itemsize
    if shift % itemsize:
        raise RunError(f"'memref.view' op byte shift {shift} is not aligned to the {itemsize}-byte element type", op)
    base = src.offset  # in bytes (the source is a memref of i8)
    count = int(np.prod(sizes)) if sizes else 1
    shift += src.byte_shift
    if isinstance(base, Lin):
        total = base.add(shift)
        if total.c0 % itemsize or any(c % itemsize for c in total.coeffs):
            raise RunError(f"'memref.view' op makes a misaligned {ty}", op)
        offset = Lin(total.c0 // itemsize, tuple(c // itemsize for c in total.coeffs), total.dtype)
        mem = MemRef(src.buf, dt, offset, sizes, contiguous_strides(sizes), ty)
        it.assign(env, op.results[0], mem, ctx, mask)
        return
    total = int(base) + shift
    if total % itemsize:
        raise RunError(f"'memref.view' op makes a misaligned {ty}", op)
    if total + count * itemsize > src.buf.nbytes:
        raise RunError(f"'memref.view' op makes a {ty} that does not fit in its {src.buf.nbytes}-byte buffer", op)
    mem = MemRef(src.buf, dt, total // itemsize, sizes, contiguous_strides(sizes), ty)
    it.assign(env, op.results[0], mem, ctx, mask)


def _reassociation(op: Operation) -> list[list[int]]:
    attr = op.get_attr("reassociation")
    return [[int(d.value) for d in group.elements] for group in getattr(attr, "elements", ())]


def _static_layout(op: Operation, mem: MemRef) -> tuple[list[int], list[int]]:
    values = list(mem.sizes) + list(mem.strides)
    if not all(is_uniform(v) and not isinstance(v, Lin) for v in values):
        raise Unsupported(f"'{op.name}' of a memref whose sizes or strides differ between threads is not supported by the runner", op)
    return [int(v) for v in mem.sizes], [int(v) for v in mem.strides]


@handles("memref.collapse_shape")
def _collapse_shape(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    (src,) = it.operands(op, env)
    sizes, strides = _static_layout(op, src)
    new_sizes, new_strides = [], []
    for group in _reassociation(op):
        wide = [d for d in group if sizes[d] != 1]
        for outer, inner in zip(wide, wide[1:]):
            if strides[outer] != strides[inner] * sizes[inner]:
                raise RunError(f"'memref.collapse_shape' op merges dimensions {group} of a memref whose elements are not contiguous there", op)
        new_sizes.append(int(np.prod([sizes[d] for d in group])))
        new_strides.append(strides[wide[-1]] if wide else 1)
    it.assign(env, op.results[0], src.derive(src.offset, new_sizes, new_strides, op.results[0].type), ctx, mask)


@handles("memref.expand_shape")
def _expand_shape(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    src, *dynamic = it.operands(op, env)
    sizes, strides = _static_layout(op, src)
    ty = op.results[0].type
    if not isinstance(ty, T.MemRefType):
        raise Unsupported(f"'memref.expand_shape' to {ty} is not supported by the runner", op)
    if any(not is_uniform(v) or isinstance(v, Lin) for v in dynamic):
        raise Unsupported("'memref.expand_shape' with an output shape that differs between threads is not supported by the runner", op)
    if sum(d is None for d in ty.shape) != len(dynamic):
        raise RunError(f"'memref.expand_shape' op has {len(dynamic)} output sizes for the dynamic dimensions of {ty}", op)
    dims = iter(int(v) for v in dynamic)
    out_sizes = [next(dims) if d is None else int(d) for d in ty.shape]
    out_strides = [0] * len(out_sizes)
    for d, group in enumerate(_reassociation(op)):
        total = int(np.prod([out_sizes[k] for k in group]))
        if total != sizes[d]:
            raise RunError(f"'memref.expand_shape' op splits dimension {d} of size {sizes[d]} into sizes {[out_sizes[k] for k in group]}", op)
        step = strides[d]
        for k in reversed(group):
            out_strides[k] = step
            step *= out_sizes[k]
    it.assign(env, op.results[0], src.derive(src.offset, out_sizes, out_strides, ty), ctx, mask)


@handles("memref.atomic_rmw")
def _atomic_rmw(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    value, mem, *idx = it.operands(op, env)
    name = ENUMS["AtomicRMWKindAttr"].case(op.get_attr("kind"))
    if name is None:
        raise Unsupported("'memref.atomic_rmw' without a readable kind is not supported by the runner", op)
    access = ctx.access if ctx.device else it.host_access
    access.check_live(mem, op, "updates")
    addr = access.address(mem, _indices(idx, ctx.space), op, mask)
    if access.recorder is not None:
        access.recorder.record(mem, addr, mask, op, "atomic")
    old = atomic_update(name, mem, addr, value, ctx.space, mask, op)
    if op.results:
        it.assign(env, op.results[0], old, ctx, mask)


_ATOMIC = {
    "addf": np.add, "addi": np.add, "mulf": np.multiply, "muli": np.multiply,
    "maximumf": np.maximum, "minimumf": np.minimum, "maxnumf": np.fmax, "minnumf": np.fmin,
    "maxs": np.maximum, "mins": np.minimum, "ori": np.bitwise_or, "andi": np.bitwise_and,
}


def atomic_update(kind: str, mem: MemRef, addr, value, space, mask, op: Operation):
    """Apply an atomic read-modify-write in thread order; returns each thread's old value."""
    data = mem.data
    if space is None:
        old = data[int(addr)]
        data[int(addr)] = _atomic_combine(kind, old, value, op)
        return old
    addr = np.broadcast_to(materialize(addr, space), space.shape).reshape(-1)
    vals = np.broadcast_to(materialize(value, space), space.shape).reshape(-1)
    active = np.ones(addr.shape, bool) if mask is None else np.broadcast_to(mask, space.shape).reshape(-1)
    idx = np.flatnonzero(active)
    olds = np.zeros(addr.shape, data.dtype)
    a, v = addr[idx], vals[idx]
    order = np.argsort(a, kind="stable")
    a_sorted, v_sorted = a[order], v[order]
    out_sorted = np.empty_like(v_sorted, dtype=data.dtype)
    starts = np.flatnonzero(np.r_[True, a_sorted[1:] != a_sorted[:-1]]) if a_sorted.size else np.zeros(0, int)
    ends = np.r_[starts[1:], a_sorted.size]
    for s, e in zip(starts, ends):
        cur = data[a_sorted[s]]
        for k in range(s, e):
            out_sorted[k] = cur
            cur = _atomic_combine(kind, cur, v_sorted[k], op)
        data[a_sorted[s]] = cur
    res = np.empty_like(out_sorted)
    res[order] = out_sorted
    olds[idx] = res
    return olds.reshape(space.shape)


def _atomic_combine(kind: str, old, value, op: Operation):
    with np.errstate(all="ignore"):
        if kind == "assign":
            return value
        if kind in ("maxu", "minu"):
            dt = np.asarray(old).dtype
            udt = unsigned_of(dt)
            o = np.asarray(old).view(udt)
            v = np.asarray(value).astype(dt).view(udt)
            keep = o >= v if kind == "maxu" else o <= v
            return old if keep else np.asarray(value).astype(dt)[()]
        fn = _ATOMIC.get(kind)
        if fn is None:
            raise Unsupported(f"'memref.atomic_rmw' kind '{kind}' is not supported by the runner", op)
        return np.asarray(fn(old, value)).astype(np.asarray(old).dtype)[()]


# --- misc --------------------------------------------------------------------------------------


@handles("builtin.unrealized_conversion_cast")
def _unrealized(it: Interpreter, op: Operation, env: Env, ctx: Ctx, mask) -> None:
    raise Unsupported("'builtin.unrealized_conversion_cast' (left by a partial conversion) cannot be executed", op)

