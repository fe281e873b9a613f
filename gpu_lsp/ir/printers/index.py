"""Custom forms of the index dialect (IndexOps.td formats and constant names)."""

from __future__ import annotations

from gpu_lsp.dialects.index import BINARY
from gpu_lsp.ir.attributes import BoolAttr, IntegerAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, result_names
from gpu_lsp.ir.printers.gpu import enum_keyword


@printer(*(f"index.{n}" for n in BINARY))
def _binary(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    p.attr_dict(op)


@result_names("index.constant")
def _constant_names(op: Operation):
    value = op.get_attr("value")
    if isinstance(value, IntegerAttr):
        yield 0, f"idx{value.value}"


@result_names("index.bool.constant")
def _bool_names(op: Operation):
    value = op.get_attr("value")
    if isinstance(value, BoolAttr):
        yield 0, "true" if value.value else "false"


@printer("index.constant", "index.bool.constant")
def _constant(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op, ("value",))
    value = op.get_attr("value")
    p.write(" " + (str(value.value) if isinstance(value, IntegerAttr) else p.attr(value)))


@printer("index.cmp")
def _cmp(p: OpPrinter, op: Operation) -> None:
    p.write(f" {enum_keyword(op.get_attr('pred'))}({p.values(op.operands)})")
    p.attr_dict(op, ("pred",))


@printer("index.casts", "index.castu")
def _cast(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    p.attr_dict(op)
    p.write(f" : {p.type(op.operands[0].type)} to {p.value_types(op.results)}")


@printer("index.sizeof")
def _sizeof(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op)
