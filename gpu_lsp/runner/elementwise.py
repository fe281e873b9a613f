"""Semantics of arith and math ops on NumPy scalars and thread arrays (two's-complement, IEEE).

Overflow and invalid operations are silent: the run sets NumPy to ignore them (`np.seterr`).
"""

from __future__ import annotations

import math

import numpy as np

from gpu_lsp.ir.attributes import DialectAttr, IntegerAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.runner.dtypes import signed_of, unsigned_of
from gpu_lsp.runner.errors import RunError, Unsupported


def fix(x):
    """0-d arrays become NumPy scalars."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return x[()]
    return x


def cast(x, dt: np.dtype):
    """`x` converted to dtype `dt` (wrapping), scalar or array."""
    if isinstance(x, np.ndarray):
        return x if x.dtype == dt else x.astype(dt)
    return np.asarray(x).astype(dt)[()]


def view(x, dt: np.dtype):
    """Reinterpret the bits of `x` (same width) as dtype `dt`."""
    if isinstance(x, np.ndarray):
        return x.view(dt)
    return np.asarray(x).view(dt)[()]


def _active(mask, cond):
    if mask is None:
        return cond
    return cond & mask


def _any(x) -> bool:
    return bool(np.any(x))


def _int_work(a, dt: np.dtype):
    """Integers of an i1 type are computed as uint8 and masked back to one bit."""
    if dt == np.bool_:
        return cast(a, np.dtype(np.uint8))
    return a


def _int_back(r, dt: np.dtype):
    if dt == np.bool_:
        return fix(cast(r, np.dtype(np.uint8)) & np.uint8(1)).astype(np.bool_) if isinstance(r, np.ndarray) else np.bool_(int(r) & 1)
    return fix(cast(r, dt))


def _safe_divisor(b, mask, op: Operation):
    zero = b == 0
    if _any(_active(mask, zero)):
        raise RunError(f"'{op.name}' op divides by zero", op)
    if isinstance(b, np.ndarray) and zero.any():
        b = np.where(zero, np.ones((), b.dtype), b)
    return b


def integer_binary(name: str, a, b, dt: np.dtype, op: Operation, mask):
    """arith integer binary ops; operands and result are signed views of width `dt`."""
    bits = 1 if dt == np.bool_ else dt.itemsize * 8
    if name in ("addi", "subi", "muli", "andi", "ori", "xori"):
        x, y = _int_work(a, dt), _int_work(b, dt)
        r = {"addi": np.add, "subi": np.subtract, "muli": np.multiply, "andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor}[name](x, y)
        return _int_back(r, dt)
    if name in ("maxsi", "minsi"):
        x, y = a, b
        if dt == np.bool_:  # i1 as signed: true is -1
            x, y = -cast(a, np.dtype(np.int8)), -cast(b, np.dtype(np.int8))
            r = np.maximum(x, y) if name == "maxsi" else np.minimum(x, y)
            return _int_back(r, dt)
        return fix(np.maximum(x, y) if name == "maxsi" else np.minimum(x, y))
    if name in ("maxui", "minui"):
        udt = unsigned_of(dt)
        x, y = cast(a, udt), cast(b, udt)
        r = np.maximum(x, y) if name == "maxui" else np.minimum(x, y)
        return fix(cast(r, dt)) if dt != np.bool_ else fix(r)
    if name in ("shli", "shrsi", "shrui"):
        x = _int_work(a, dt)
        udt = unsigned_of(np.dtype(np.uint8) if dt == np.bool_ else dt)
        sh = cast(_int_work(b, dt), udt)
        over = sh >= bits
        shc = np.where(over, 0, sh).astype(np.uint64) if isinstance(sh, np.ndarray) else (np.uint64(0) if over else np.uint64(sh))
        if name == "shli":
            r = cast(np.left_shift(cast(x, udt), cast(shc, udt)), udt)
        elif name == "shrui":
            r = np.right_shift(cast(x, udt), cast(shc, udt))
        else:
            sdt = signed_of(np.dtype(np.uint8) if dt == np.bool_ else dt)
            r = np.right_shift(cast(x, sdt), cast(shc, sdt))
        # Shifting by the width or more is poison; give what shifting by "infinity" gives.
        fill: int | np.ndarray = 0
        if name == "shrsi":
            fill = np.where(cast(x, signed_of(np.dtype(np.uint8) if dt == np.bool_ else dt)) < 0, -1, 0)
        r = np.where(over, fill, r) if isinstance(over, np.ndarray) or isinstance(fill, np.ndarray) else (fill if over else r)
        return _int_back(fix(r), dt)
    if name in ("divsi", "remsi", "ceildivsi", "floordivsi"):
        if dt == np.bool_:
            x, y = -cast(a, np.dtype(np.int8)), -cast(b, np.dtype(np.int8))
            y = _safe_divisor(y, mask, op)
            r = np.fmod(x, y) if name == "remsi" else x // y
            return _int_back(r, dt)
        b = _safe_divisor(b, mask, op)
        if name != "remsi":
            info = np.iinfo(dt)
            overflow = (a == info.min) & (b == -1)
            if _any(_active(mask, overflow)):
                raise RunError(f"'{op.name}' op overflows: {info.min} / -1", op)
        if name == "remsi":
            return fix(np.fmod(a, b))
        q = np.floor_divide(a, b)
        if name == "floordivsi":
            return fix(q)
        r = a - q * b
        if name == "divsi":
            adjust = (r != 0) & ((a < 0) != (b < 0))
        else:  # ceildivsi: the floor plus one unless exact
            adjust = r != 0
        return fix(cast(q + adjust.astype(dt) if isinstance(adjust, np.ndarray) else q + dt.type(bool(adjust)), dt))
    if name in ("divui", "remui", "ceildivui"):
        udt = unsigned_of(np.dtype(np.uint8) if dt == np.bool_ else dt)
        x, y = cast(_int_work(a, dt), udt), cast(_int_work(b, dt), udt)
        y = _safe_divisor(y, mask, op)
        if name == "divui":
            r = x // y
        elif name == "remui":
            r = x % y
        else:
            r = x // y + (x % y != 0).astype(udt) if isinstance(x, np.ndarray) or isinstance(y, np.ndarray) else x // y + udt.type(x % y != 0)
        return _int_back(cast(fix(r), signed_of(udt)) if dt != np.bool_ else fix(r), dt)
    raise Unsupported(f"'{op.name}' is not supported by the runner", op)


FLOAT_BINARY = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "remf": np.fmod,
    "maximumf": np.maximum,
    "minimumf": np.minimum,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
}


def float_binary(name: str, a, b, dt: np.dtype):
    return fix(cast(FLOAT_BINARY[name](a, b), dt))


def cmpi(pred: str, a, b, dt: np.dtype):
    if pred in ("ult", "ule", "ugt", "uge"):
        udt = unsigned_of(dt)
        a, b = cast(a, udt), cast(b, udt)
    elif dt == np.bool_ and pred in ("slt", "sle", "sgt", "sge"):
        a, b = -cast(a, np.dtype(np.int8)), -cast(b, np.dtype(np.int8))
    fn = {
        "eq": np.equal, "ne": np.not_equal,
        "slt": np.less, "sle": np.less_equal, "sgt": np.greater, "sge": np.greater_equal,
        "ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal,
    }[pred]
    return fix(fn(a, b))


def cmpf(pred: str, a, b):
    if pred == "false":
        return fix(np.zeros(np.broadcast(a, b).shape, np.bool_))
    if pred == "true":
        return fix(np.ones(np.broadcast(a, b).shape, np.bool_))
    uno = np.isnan(a) | np.isnan(b)
    table = {
        "oeq": lambda: np.equal(a, b),
        "ogt": lambda: np.greater(a, b),
        "oge": lambda: np.greater_equal(a, b),
        "olt": lambda: np.less(a, b),
        "ole": lambda: np.less_equal(a, b),
        "one": lambda: np.not_equal(a, b) & ~uno,
        "ord": lambda: ~uno,
        "ueq": lambda: np.equal(a, b) | uno,
        "ugt": lambda: np.greater(a, b) | uno,
        "uge": lambda: np.greater_equal(a, b) | uno,
        "ult": lambda: np.less(a, b) | uno,
        "ule": lambda: np.less_equal(a, b) | uno,
        "une": lambda: np.not_equal(a, b),
        "uno": lambda: uno,
    }
    return fix(table[pred]())


def convert(name: str, x, src: np.dtype, dst: np.dtype, op: Operation):
    """arith casts between integer, index and float dtypes."""
    if name in ("index_cast", "extsi", "trunci", "index_castui", "extui"):
        if dst == np.bool_:
            return fix(cast(cast(x, np.dtype(np.uint8) if src == np.bool_ else src) & 1, np.dtype(np.bool_)))
        if src == np.bool_:
            v = cast(x, dst)
            return fix(-v) if name in ("index_cast", "extsi") else v
        if name in ("index_castui", "extui"):
            return fix(cast(cast(x, unsigned_of(src)), dst))
        return fix(cast(x, dst))
    if name == "sitofp":
        if src == np.bool_:
            return fix(-cast(x, dst))
        return fix(cast(x, dst))
    if name == "uitofp":
        return fix(cast(cast(x, unsigned_of(src)), dst))
    if name in ("fptosi", "fptoui"):
        if dst == np.bool_:
            return fix(cast(x, np.dtype(np.int64)) != 0)
        if name == "fptoui":
            return fix(cast(cast(x, unsigned_of(dst)), dst))
        return fix(cast(x, dst))
    if name in ("extf", "truncf"):
        return fix(cast(x, dst))
    if name == "bitcast":
        if src.itemsize != dst.itemsize:
            raise Unsupported(f"'{op.name}' between types of different widths is not supported", op)
        return fix(view(x, dst))
    raise Unsupported(f"'{op.name}' is not supported by the runner", op)


def _vectorized(fn):
    return np.vectorize(fn, otypes=[np.float64])


_erf = _vectorized(math.erf)
_erfc = _vectorized(math.erfc)


def _count_leading_zeros(x, bits: int):
    x = np.asarray(x).astype(np.uint64)
    n = np.full(np.shape(x), bits, np.int64)
    for i in range(bits):
        bit = (x >> np.uint64(i)) & np.uint64(1)
        n = np.where(bit == 1, bits - 1 - i, n)
    return n


def _count_trailing_zeros(x, bits: int):
    x = np.asarray(x).astype(np.uint64)
    n = np.full(np.shape(x), bits, np.int64)
    for i in reversed(range(bits)):
        bit = (x >> np.uint64(i)) & np.uint64(1)
        n = np.where(bit == 1, i, n)
    return n


def _popcount(x, bits: int):
    x = np.asarray(x).astype(np.uint64)
    n = np.zeros(np.shape(x), np.int64)
    for i in range(bits):
        n = n + ((x >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
    return n


MATH_UNARY_FLOAT = {
    "absf": np.abs, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc, "roundeven": np.rint,
    "sqrt": np.sqrt, "cbrt": np.cbrt, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
}


def math_op(name: str, args: list, dt: np.dtype, op: Operation):
    """The math dialect on scalars/arrays of dtype `dt` (the result dtype)."""
    if name in MATH_UNARY_FLOAT:
        return fix(cast(MATH_UNARY_FLOAT[name](args[0]), dt))
    if name == "rsqrt":
        return fix(cast(1.0 / np.sqrt(args[0]), dt))
    if name == "round":  # half away from zero
        x = args[0]
        return fix(cast(np.sign(x) * np.floor(np.abs(x) + 0.5), dt))
    if name in ("erf", "erfc"):
        fn = _erf if name == "erf" else _erfc
        return fix(cast(fn(args[0]), dt))
    if name == "atan2":
        return fix(cast(np.arctan2(args[0], args[1]), dt))
    if name == "powf":
        return fix(cast(np.power(args[0], args[1]), dt))
    if name == "copysign":
        return fix(cast(np.copysign(args[0], args[1]), dt))
    if name == "fma":
        wide = np.dtype(np.float64) if dt.itemsize < 8 else dt
        return fix(cast(cast(args[0], wide) * cast(args[1], wide) + cast(args[2], wide), dt))
    if name == "fpowi":
        return fix(cast(np.power(args[0], cast(args[1], np.dtype(np.float64))), dt))
    if name == "absi":
        return fix(cast(np.abs(args[0]), dt))
    if name == "ipowi":
        # Exponentiation by squaring wraps like the generated code; a negative exponent
        # gives 1 for base 1, +-1 for base -1 and 0 otherwise (as 1 / base^-e truncates).
        base, exp = (np.asarray(cast(v, np.dtype(np.int64))) for v in args)
        base, exp = np.broadcast_arrays(base, exp)
        result = np.ones(base.shape, np.uint64)
        b = base.astype(np.uint64)
        e = np.where(exp > 0, exp, 0).astype(np.uint64)
        while np.any(e):
            odd = (e & np.uint64(1)) == 1
            result = np.where(odd, result * b, result)
            b = b * b
            e = e >> np.uint64(1)
        result = result.astype(np.int64)
        negative = exp < 0
        if negative.any():
            odd_exp = (-exp) % 2 == 1
            special = np.where(base == 1, 1, np.where(base == -1, np.where(odd_exp, -1, 1), 0))
            result = np.where(negative, special, result)
        return fix(cast(result, dt))
    bits = 1 if dt == np.bool_ else dt.itemsize * 8
    if name == "ctlz":
        return fix(cast(_count_leading_zeros(cast(args[0], unsigned_of(dt)), bits), dt))
    if name == "cttz":
        return fix(cast(_count_trailing_zeros(cast(args[0], unsigned_of(dt)), bits), dt))
    if name == "ctpop":
        return fix(cast(_popcount(cast(args[0], unsigned_of(dt)), bits), dt))
    if name in ("isnan", "isinf", "isfinite"):
        return fix(getattr(np, name)(args[0]))
    if name == "isnormal":
        x = args[0]
        info = np.finfo(np.asarray(x).dtype)
        return fix(np.isfinite(x) & (np.abs(x) >= info.tiny))
    raise Unsupported(f"'{op.name}' is not supported by the runner", op)


_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")


def predicate_name(op: Operation, kind: str) -> str:
    """The predicate of a cmpi/cmpf/index.cmp op by name (`slt`, `oeq`, ...)."""
    if op.name == "index.cmp" and (pred := enum_name(op.get_attr("pred"))) is not None:
        return pred
    attr = op.get_attr("predicate")
    names = _CMPI if kind == "cmpi" else _CMPF
    if isinstance(attr, IntegerAttr) and 0 <= attr.value < len(names):
        return names[attr.value]
    raise Unsupported(f"'{op.name}' without a readable predicate is not supported by the runner", op)


def enum_name(attr) -> str | None:
    """The keyword an enum attribute spells (`#gpu<shuffle xor>` -> `xor`, `"add"` -> `add`)."""
    if attr is None:
        return None
    if isinstance(attr, StringAttr):
        return attr.value
    if isinstance(attr, DialectAttr):
        return (attr.body or attr.name).split()[-1]
    text = str(attr)
    return text.strip('"').split()[-1] if text else None
