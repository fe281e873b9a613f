"""Custom forms of the transform dialect: named_sequence and yield (the other ops keep their source text)."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter
from gpu_lsp.ir.printers.func import function_op


@printer("transform.named_sequence")
def _named_sequence(p: OpPrinter, op: Operation) -> None:
    function_op(p, op)


@printer("transform.yield")
def _yield(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.values(op.operands))
    p.attr_dict(op)
    if op.operands:
        p.write(" : " + p.value_types(op.operands))

