"""Custom forms of the arith dialect (ArithOps.td formats, ConstantOp's result names)."""

from __future__ import annotations

from gpu_lsp.dialects.arith import BINARY, CASTS, CMPF, CMPI
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import BoolAttr, DialectAttr, IntegerAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, int_text, result_names

MODIFIERS = ("overflowFlags", "fastmath", "roundingmode")


def modifiers(p: OpPrinter, op: Operation) -> None:
    """`overflow<nsw>` / `fastmath<fast>`, elided when `none` (the default)."""
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


@printer(*(f"arith.{n}" for n in BINARY))
def _binary(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.value_types(op.results))


@printer("arith.negf")
def _negf(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.value_types(op.results))


@printer(*(f"arith.{n}" for n in CASTS))
def _cast(p: OpPrinter, op: Operation) -> None:
    src = op.operands[0]
    p.write(" " + p.value(src))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(f" : {p.type(src.type)} to {p.value_types(op.results)}")


def _predicate(op: Operation, table: tuple[str, ...]) -> str:
    pred = op.get_attr("predicate")
    if isinstance(pred, IntegerAttr) and 0 <= pred.value < len(table):
        return table[pred.value]
    return str(op.extra.get("predicate", pred))


@printer("arith.cmpi", "arith.cmpf")
def _cmp(p: OpPrinter, op: Operation) -> None:
    table = CMPI if op.name == "arith.cmpi" else CMPF
    p.write(f" {_predicate(op, table)}, {p.values(op.operands)}")
    modifiers(p, op)
    p.attr_dict(op, ("predicate",) + MODIFIERS)
    p.write(" : " + p.type(op.operands[0].type))


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
    p.write(" " + p.attr(op.get_attr("value")))
