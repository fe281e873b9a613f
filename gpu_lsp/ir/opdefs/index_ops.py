"""The index dialect's op definitions (upstream IndexOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare

_binary = op_class("index", traits="pure", ins="Index:$lhs, Index:$rhs", outs="Index:$result", format="$lhs `,` $rhs attr-dict")  # IndexBinaryOp
_INT_OR_INDEX = "AnyTypeOf<[AnyInteger, Index]>"
_cast = op_class(  # IndexCastOp (casts, castu)
    "index", traits="pure", ins=f"{_INT_OR_INDEX}:$input", outs=f"{_INT_OR_INDEX}:$output", format="$input attr-dict `:` type($input) `to` type($output)"
)

OPS: tuple[OpDef, ...] = (
    _binary("add", "Addition."),
    _binary("sub", "Subtraction."),
    _binary("mul", "Multiplication."),
    _binary("divs", "Signed division."),
    _binary("divu", "Unsigned division."),
    _binary("ceildivs", "Signed division rounding up."),
    _binary("ceildivu", "Unsigned division rounding up."),
    _binary("floordivs", "Signed division rounding down."),
    _binary("rems", "Signed remainder."),
    _binary("remu", "Unsigned remainder."),
    _binary("maxs", "Signed maximum."),
    _binary("maxu", "Unsigned maximum."),
    _binary("mins", "Signed minimum."),
    _binary("minu", "Unsigned minimum."),
    _binary("shl", "Shift left."),
    _binary("shrs", "Arithmetic shift right."),
    _binary("shru", "Logical shift right."),
    _binary("and", "Bitwise and."),
    _binary("or", "Bitwise or."),
    _binary("xor", "Bitwise xor."),
    declare("index.constant", "An index constant.", traits="constant_like pure", ins="IndexAttr:$value", outs="Index:$result", format="attr-dict $value"),
    declare("index.bool.constant", "An i1 constant.", traits="constant_like pure", ins="BoolAttr:$value", outs="I1:$result", format="attr-dict $value"),
    declare(
        "index.cmp",
        "Compares two index values.",
        traits="pure",
        ins="IndexCmpPredicateAttr:$pred, Index:$lhs, Index:$rhs",
        outs="I1:$result",
        format="`` $pred `(` $lhs `,` $rhs `)` attr-dict",
    ),
    _cast("casts", "Signed cast between index and an integer type."),
    _cast("castu", "Unsigned cast between index and an integer type."),
    declare("index.sizeof", "The width of `index` in bits on the target.", traits="pure", outs="Index:$result", format="attr-dict", ins=""),
)
