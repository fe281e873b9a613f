"""The arith dialect's op definitions (upstream ArithOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import same_type_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

FASTMATH = 'DefaultValuedAttr<Arith_FastMathAttr, "::mlir::arith::FastMathFlags::none">:$fastmath'
FASTMATH_FORMAT = "(`fastmath` `` $fastmath^)?"
_OVERFLOW = 'DefaultValuedAttr<Arith_IntegerOverflowAttr, "::mlir::arith::IntegerOverflowFlags::none">:$overflowFlags'
_OVERFLOW_FORMAT = "(`overflow` `` $overflowFlags^)?"
_INT_LIKE = "SignlessIntegerOrIndexLike"
_int_binary = same_type_class("arith", _INT_LIKE, "lhs rhs")  # Arith_TotalIntBinaryOp
_overflow_binary = same_type_class("arith", _INT_LIKE, "lhs rhs", _OVERFLOW, _OVERFLOW_FORMAT)  # Arith_IntBinaryOpWithOverflowFlags
_exact_binary = same_type_class("arith", _INT_LIKE, "lhs rhs", "UnitAttr:$isExact", "(`exact` $isExact^)?")  # Arith_IntBinaryOpWithExactFlag
_float_binary = same_type_class("arith", "FloatLike", "lhs rhs", FASTMATH, FASTMATH_FORMAT)  # Arith_FloatBinaryOp
_float_unary = same_type_class("arith", "FloatLike", "operand", FASTMATH, FASTMATH_FORMAT)  # Arith_FloatUnaryOp


def _cast(mnemonic: str, summary: str, source: str, target: str, flags: str = "", flag_format: str = "") -> OpDef:
    """Arith_CastOp and the casts that add flags between the operand and the attr-dict."""
    return declare(
        f"arith.{mnemonic}",
        summary,
        traits="pure elementwise",
        ins=f"{source}:$in" + (f", {flags}" if flags else ""),
        outs=f"{target}:$out",
        types=("SameOperandsAndResultShape", "SameInputOutputTensorDims"),
        format=" ".join(p for p in ("$in", flag_format, "attr-dict `:` type($in) `to` type($out)") if p),
    )


def _compare(mnemonic: str, summary: str, predicate: str, operand: str, fastmath: bool) -> OpDef:
    """Arith_CompareOp."""
    return declare(
        f"arith.{mnemonic}",
        summary,
        traits="pure elementwise",
        ins=f"{predicate}:$predicate, {operand}:$lhs, {operand}:$rhs" + (f", {FASTMATH}" if fastmath else ""),
        outs="BoolLike:$result",
        types=("SameTypeOperands", 'TypesMatchWith<"result type has i1 element type and same shape as operands", lhs, result, i1_same_shape>'),
        format="$predicate `,` $lhs `,` $rhs " + (f"{FASTMATH_FORMAT} " if fastmath else "") + "attr-dict `:` type($lhs)",
    )


_INT = "SignlessFixedWidthIntegerLike"
_NNEG = "UnitAttr:$nonNeg"
_NNEG_FORMAT = "(`nneg` $nonNeg^)?"
_ROUNDING = "OptionalAttr<Arith_RoundingModeAttr>:$roundingmode, OptionalAttr<Arith_FastMathAttr>:$fastmath"
_ROUNDING_FORMAT = f"($roundingmode^)? {FASTMATH_FORMAT}"
_INDEX_CAST = "IndexCastTypeConstraint"

OPS: tuple[OpDef, ...] = (
    _overflow_binary("addi", "Integer addition."),
    _overflow_binary("subi", "Integer subtraction."),
    _overflow_binary("muli", "Integer multiplication."),
    _exact_binary("divsi", "Signed integer division."),
    _exact_binary("divui", "Unsigned integer division."),
    _int_binary("ceildivsi", "Signed division rounding up."),
    _int_binary("ceildivui", "Unsigned division rounding up."),
    _int_binary("floordivsi", "Signed division rounding down."),
    _int_binary("remsi", "Signed remainder."),
    _int_binary("remui", "Unsigned remainder."),
    _int_binary("andi", "Bitwise and."),
    _int_binary("ori", "Bitwise or."),
    _int_binary("xori", "Bitwise xor."),
    _overflow_binary("shli", "Shift left."),
    _exact_binary("shrsi", "Arithmetic shift right."),
    _exact_binary("shrui", "Logical shift right."),
    _int_binary("maxsi", "Signed maximum."),
    _int_binary("maxui", "Unsigned maximum."),
    _int_binary("minsi", "Signed minimum."),
    _int_binary("minui", "Unsigned minimum."),
    _float_binary("addf", "Float addition."),
    _float_binary("subf", "Float subtraction."),
    _float_binary("mulf", "Float multiplication."),
    _float_binary("divf", "Float division."),
    _float_binary("remf", "Float remainder."),
    _float_binary("maximumf", "Float maximum (NaN-propagating)."),
    _float_binary("minimumf", "Float minimum (NaN-propagating)."),
    _float_binary("maxnumf", "Float maximum (NaN-ignoring)."),
    _float_binary("minnumf", "Float minimum (NaN-ignoring)."),
    _float_unary("negf", "Float negation."),
    _cast("index_cast", "Casts between index and integer types.", _INDEX_CAST, _INDEX_CAST),
    _cast("index_castui", "Unsigned cast between index and integer types.", _INDEX_CAST, _INDEX_CAST, _NNEG, _NNEG_FORMAT),
    _cast("extsi", "Sign extension.", _INT, _INT),
    _cast("extui", "Zero extension.", _INT, _INT, _NNEG, _NNEG_FORMAT),
    _cast("trunci", "Integer truncation.", _INT, _INT, _OVERFLOW, _OVERFLOW_FORMAT),
    _cast("extf", "Float extension.", "FloatLike", "FloatLike", "OptionalAttr<Arith_FastMathAttr>:$fastmath", FASTMATH_FORMAT),
    _cast("truncf", "Float truncation.", "FloatLike", "FloatLike", _ROUNDING, _ROUNDING_FORMAT),
    _cast("sitofp", "Signed integer to float.", _INT, "FloatLike"),
    _cast("uitofp", "Unsigned integer to float.", _INT, "FloatLike", _NNEG, _NNEG_FORMAT),
    _cast("fptosi", "Float to signed integer.", "FloatLike", _INT),
    _cast("fptoui", "Float to unsigned integer.", "FloatLike", _INT),
    _cast("bitcast", "Reinterprets the bits of a value.", "BitcastTypeConstraint", "BitcastTypeConstraint"),
    _cast("convertf", "Converts between float types of the same width (f16 and bf16).", "FloatLike", "FloatLike", _ROUNDING, _ROUNDING_FORMAT),
    _compare("cmpi", "Integer comparison.", "Arith_CmpIPredicateAttr", "SignlessIntegerOrIndexLike", fastmath=False),
    _compare("cmpf", "Float comparison.", "Arith_CmpFPredicateAttr", "FloatLike", fastmath=True),
    declare(
        "arith.select",
        "Chooses between two values by a condition.",
        ins="BoolLike:$condition, AnyType:$true_value, AnyType:$false_value",
        outs="AnyType:$result",
        traits="pure elementwise",
        types=("AllTypesMatch<true_value, false_value, result>", "BooleanConditionOrMatchingShape<condition, result>"),
        syntax="%r = arith.select %cond, %a, %b : T",
    ),
    declare("arith.constant", "A constant value.", traits="constant_like pure", syntax="%c = arith.constant 42 : i32"),
    _float_unary("flush_denormals", "Replaces denormal floats by zero."),
    declare(
        "arith.addui_extended",
        "Unsigned addition with an overflow flag.",
        traits="pure elementwise",
        ins="SignlessIntegerOrIndexLike:$lhs, SignlessIntegerOrIndexLike:$rhs",
        outs="SignlessIntegerOrIndexLike:$sum, BoolLike:$overflow",
        types=("AllTypesMatch<lhs, rhs, sum>",),
        format="$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)",
    ),
    *(
        declare(
            f"arith.{mnemonic}",
            summary,
            traits="pure elementwise",
            ins="SignlessIntegerOrIndexLike:$lhs, SignlessIntegerOrIndexLike:$rhs",
            outs="SignlessIntegerOrIndexLike:$low, SignlessIntegerOrIndexLike:$high",
            types=("AllTypesMatch<lhs, rhs, low, high>",),
            format="$lhs `,` $rhs attr-dict `:` type($lhs)",
        )
        for mnemonic, summary in (
            ("mulsi_extended", "Signed multiplication giving the low and high halves."),
            ("mului_extended", "Unsigned multiplication giving the low and high halves."),
        )
    ),
    declare(
        "arith.scaling_extf",
        "Extends a float and multiplies it by a scale.",
        traits="pure elementwise",
        ins="FloatLike:$in, FloatLike:$scale, OptionalAttr<Arith_FastMathAttr>:$fastmath",
        outs="FloatLike:$out",
        format=f"$in `,` $scale {FASTMATH_FORMAT} attr-dict `:` type($in) `,` type($scale) `to` type($out)",
    ),
    declare(
        "arith.scaling_truncf",
        "Divides a float by a scale and truncates it.",
        traits="pure elementwise",
        ins="FloatLike:$in, FloatLike:$scale, " + _ROUNDING,
        outs="FloatLike:$out",
        format=f"$in `,` $scale {_ROUNDING_FORMAT} attr-dict `:` type($in) `,` type($scale) `to` type($out)",
    ),
)
