"""Custom forms of the math dialect (MathOps.td formats)."""

from __future__ import annotations

from gpu_lsp.dialects.math import BINARY_FLOAT, CLASSIFY, UNARY_FLOAT, UNARY_INT
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, result_names
from gpu_lsp.ir.printers.arith import MODIFIERS, modifiers

_SAME_TYPE = [*UNARY_FLOAT, *UNARY_INT, *BINARY_FLOAT, "fma", "ipowi"]


@printer(*(f"math.{n}" for n in _SAME_TYPE))
def _same_type(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.value_types(op.results))


@printer(*(f"math.{n}" for n in CLASSIFY), "math.sincos")
def _operand_typed(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.type(op.operands[0].type))


@result_names("math.sincos")
def _sincos_names(op: Operation):
    return [(0, "sin"), (1, "cos")]


@printer("math.fpowi")
def _fpowi(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.value_types(op.operands))


@printer("math.clampf")
def _clampf(p: OpPrinter, op: Operation) -> None:
    value, lo, hi = op.operands
    p.write(f" {p.value(value)} to [{p.value(lo)}, {p.value(hi)}]")
    modifiers(p, op)
    p.attr_dict(op, MODIFIERS)
    p.write(" : " + p.type(value.type))
