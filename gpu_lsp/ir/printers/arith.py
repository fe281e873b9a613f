"""Custom forms of arith.select and arith.constant (hand-written upstream), ConstantOp's result names, and the flag suffixes other dialects' printers share."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, BoolAttr, DialectAttr, IntegerAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, int_text, required_attr, result_names

MODIFIERS = ("overflowFlags", "fastmath", "roundingmode")


def modifiers(p: OpPrinter, op: Operation) -> None:
    """`overflow<nsw>` / `fastmath<fast>`, elided when `none` (the default), for ops printed by hand."""
    for key in ("overflowFlags", "fastmath"):
        attr = op.get_attr(key)
        if attr is None:
            continue
        if isinstance(attr, DialectAttr):
            body = (attr.body or "").strip()
            if body in ("", "none"):
                continue
            p.write(f" {'overflow' if key == 'overflowFlags' else 'fastmath'}<{body}>")
        else:
            p.write(" " + p.attr(attr))


@printer("arith.select")
def _select(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    p.attr_dict(op)
    p.write(" : ")
    cond = op.operands[0].type
    if isinstance(cond, (T.VectorType, T.TensorType, T.UnrankedTensorType)):
        p.write(p.type(cond) + ", ")
    p.write(p.value_types(op.results))


@result_names("arith.constant")
def _constant_names(op: Operation):
    value = op.get_attr("value")
    ty = op.results[0].type if op.results else None
    if isinstance(value, BoolAttr):
        yield 0, "true" if value.value else "false"
    elif isinstance(value, IntegerAttr):
        if isinstance(ty, T.IntegerType) and ty.width == 1:
            yield 0, "true" if value.value & 1 else "false"
        elif isinstance(ty, T.IntegerType):
            yield 0, f"c{int_text(value.value, ty)}_{ty}"
        else:
            yield 0, f"c{int_text(value.value, ty)}"
    else:
        yield 0, "cst"


@printer("arith.constant")
def _constant(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op, ("value",))
    p.write(" " + p.attr(required_attr(op, "value", Attribute)))
