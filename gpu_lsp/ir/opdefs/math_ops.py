"""The math dialect's op definitions (upstream MathOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.arith_ops import FASTMATH, FASTMATH_FORMAT
from gpu_lsp.ir.opdefs.families import same_type_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_INT_LIKE = "SignlessIntegerOrIndexLike"
_float_unary = same_type_class("math", "FloatLike", "operand", FASTMATH, FASTMATH_FORMAT)  # Math_FloatUnaryOp
_integer_unary = same_type_class("math", _INT_LIKE, "operand")  # Math_IntegerUnaryOp
_float_binary = same_type_class("math", "FloatLike", "lhs rhs", FASTMATH, FASTMATH_FORMAT)  # Math_FloatBinaryOp
_float_ternary = same_type_class("math", "FloatLike", "a b c", FASTMATH, FASTMATH_FORMAT)  # Math_FloatTernaryOp
_integer_binary = same_type_class("math", _INT_LIKE, "lhs rhs")  # Math_IntegerBinaryOp


def _classification(mnemonic: str, summary: str) -> OpDef:
    """Math_FloatClassificationOp."""
    return declare(
        f"math.{mnemonic}",
        summary,
        traits="pure elementwise",
        ins=f"FloatLike:$operand, {FASTMATH}",
        outs="BoolLike:$result",
        types=('TypesMatchWith<"result type has i1 element type and same shape as operands", operand, result, i1_same_shape>',),
        format="$operand attr-dict `:` type($operand)",
    )


_FLOAT_UNARY = (
    ("absf", "Absolute value."), ("acos", "Arc cosine."), ("acosh", "Inverse hyperbolic cosine."),
    ("asin", "Arc sine."), ("asinh", "Inverse hyperbolic sine."), ("atan", "Arc tangent."),
    ("atanh", "Inverse hyperbolic tangent."), ("cbrt", "Cube root."), ("ceil", "Rounds up."),
    ("cos", "Cosine."), ("cosh", "Hyperbolic cosine."), ("erf", "Error function."),
    ("erfc", "Complementary error function."), ("exp", "Base-e exponential."), ("exp2", "Base-2 exponential."),
    ("expm1", "exp(x) - 1."), ("floor", "Rounds down."), ("log", "Natural logarithm."),
    ("log10", "Base-10 logarithm."), ("log1p", "log(1 + x)."), ("log2", "Base-2 logarithm."),
    ("round", "Rounds half away from zero."), ("roundeven", "Rounds half to even."),
    ("rsqrt", "Reciprocal square root."), ("sin", "Sine."), ("sinh", "Hyperbolic sine."),
    ("sqrt", "Square root."), ("tan", "Tangent."), ("tanh", "Hyperbolic tangent."), ("trunc", "Rounds toward zero."),
)

OPS: tuple[OpDef, ...] = (
    *(_float_unary(m, s) for m, s in _FLOAT_UNARY),
    _integer_unary("absi", "Integer absolute value."),
    _integer_unary("ctlz", "Counts leading zero bits."),
    _integer_unary("cttz", "Counts trailing zero bits."),
    _integer_unary("ctpop", "Counts set bits."),
    _float_binary("atan2", "Two-argument arc tangent."),
    _float_binary("copysign", "Magnitude of one value with the sign of another."),
    _float_binary("powf", "Float power."),
    _float_ternary("fma", "Fused multiply-add: a * b + c."),
    _integer_binary("ipowi", "Integer power."),
    _classification("isfinite", "Whether a float is finite."),
    _classification("isinf", "Whether a float is infinite."),
    _classification("isnan", "Whether a float is NaN."),
    _classification("isnormal", "Whether a float is normal."),
    declare(
        "math.fpowi",
        "A float raised to an integer power.",
        traits="pure elementwise",
        ins=f"FloatLike:$lhs, SignlessFixedWidthIntegerLike:$rhs, {FASTMATH}",
        outs="FloatLike:$result",
        types=("SameOperandsAndResultShape", "AllTypesMatch<lhs, result>"),
        format=f"$lhs `,` $rhs {FASTMATH_FORMAT} attr-dict `:` type($lhs) `,` type($rhs)",
    ),
    declare(
        "math.sincos",
        "Sine and cosine of a float.",
        traits="pure same_type elementwise",
        ins=f"FloatLike:$operand, {FASTMATH}",
        outs="FloatLike:$sin, FloatLike:$cos",
        format=f"$operand {FASTMATH_FORMAT} attr-dict `:` type($operand)",
    ),
    declare(
        "math.clampf",
        "Clamps a float between a minimum and a maximum.",
        traits="pure same_type elementwise",
        ins=f"FloatLike:$value, FloatLike:$min, FloatLike:$max, {FASTMATH}",
        outs="FloatLike:$result",
        format=f"$value `to` ` ` `[` $min `,` $max `]` {FASTMATH_FORMAT} attr-dict `:` type($result)",
    ),
)
