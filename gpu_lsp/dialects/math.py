"""The math dialect: elementary functions on integers and floats (scalars, vectors, tensors)."""

from __future__ import annotations

from gpu_lsp.dialects.arith import read_modifiers
from gpu_lsp.dialects.common import shape_of, unary_same_type
from gpu_lsp.ir import types as T
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState

UNARY_FLOAT = {
    "absf": "Absolute value.", "acos": "Arc cosine.", "acosh": "Inverse hyperbolic cosine.",
    "asin": "Arc sine.", "asinh": "Inverse hyperbolic sine.", "atan": "Arc tangent.",
    "atanh": "Inverse hyperbolic tangent.", "cbrt": "Cube root.", "ceil": "Rounds up.",
    "cos": "Cosine.", "cosh": "Hyperbolic cosine.", "erf": "Error function.", "erfc": "Complementary error function.",
    "exp": "Base-e exponential.", "exp2": "Base-2 exponential.", "expm1": "exp(x) - 1.",
    "floor": "Rounds down.", "log": "Natural logarithm.", "log10": "Base-10 logarithm.",
    "log1p": "log(1 + x).", "log2": "Base-2 logarithm.", "round": "Rounds half away from zero.",
    "roundeven": "Rounds half to even.", "rsqrt": "Reciprocal square root.", "sin": "Sine.",
    "sinh": "Hyperbolic sine.", "sqrt": "Square root.", "tan": "Tangent.", "tanh": "Hyperbolic tangent.",
    "trunc": "Rounds toward zero.",
}
UNARY_INT = {
    "absi": "Integer absolute value.", "ctlz": "Counts leading zero bits.",
    "cttz": "Counts trailing zero bits.", "ctpop": "Counts set bits.",
}
BINARY_FLOAT = {"atan2": "Two-argument arc tangent.", "copysign": "Magnitude of one value with the sign of another.", "powf": "Float power."}
CLASSIFY = {
    "isfinite": "Whether a float is finite.", "isinf": "Whether a float is infinite.",
    "isnan": "Whether a float is NaN.", "isnormal": "Whether a float is normal.",
}


def _unary(name: str, summary: str, fastmath: bool) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        unary_same_type(c, st, read_modifiers if fastmath else None)

    reader(f"math.{name}")(parse)


def _same_type_nary(name: str, summary: str, count: int, fastmath: bool) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        refs = [c.operand()]
        for _ in range(count - 1):
            c.punct(",")
            refs.append(c.operand())
        if fastmath:
            read_modifiers(c, st)
        c.optional_attr_dict(st)
        ty = c.colon_type()
        for r in refs:
            r.type = ty
        st.refs.extend(refs)
        st.result_types.append(ty)

    reader(f"math.{name}")(parse)


for _n, _s in UNARY_FLOAT.items():
    _unary(_n, _s, True)
for _n, _s in UNARY_INT.items():
    _unary(_n, _s, False)
for _n, _s in BINARY_FLOAT.items():
    _same_type_nary(_n, _s, 2, True)
_same_type_nary("fma", "Fused multiply-add: a * b + c.", 3, True)
_same_type_nary("ipowi", "Integer power.", 2, False)


def _classify(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        ref = c.operand()
        read_modifiers(c, st)
        c.optional_attr_dict(st)
        ref.type = c.colon_type()
        st.refs.append(ref)
        st.result_types.append(shape_of(ref.type, T.I1))

    reader(f"math.{name}")(parse)


for _n, _s in CLASSIFY.items():
    _classify(_n, _s)


@reader("math.fpowi")
def _fpowi(c: Cursor, st: OpState) -> None:
    base = c.operand()
    c.punct(",")
    power = c.operand()
    read_modifiers(c, st)
    c.optional_attr_dict(st)
    base.type = c.colon_type()
    c.punct(",")
    power.type = c.type()
    st.refs.extend([base, power])
    st.result_types.append(base.type)


@reader("math.sincos")
def _sincos(c: Cursor, st: OpState) -> None:
    ty = unary_same_type(c, st, read_modifiers)
    st.result_types.append(ty)


@reader("math.clampf")
def _clampf(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.keyword("to")
    sub = c.group("[")
    lo = sub.operand()
    sub.punct(",")
    hi = sub.operand()
    sub.done()
    read_modifiers(c, st)
    c.optional_attr_dict(st)
    ty = c.colon_type()
    value.type = lo.type = hi.type = ty
    st.refs.extend([value, lo, hi])
    st.result_types.append(ty)
