"""Custom form of builtin.module (hand-written upstream)."""

from __future__ import annotations

from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, required_attr


@printer("builtin.module")
def _module(p: OpPrinter, op: Operation) -> None:
    name = op.get_attr("sym_name")
    if name is not None:
        p.write(" " + p.symbol(required_attr(op, "sym_name", StringAttr).value))
    p.attr_dict(op, ("sym_name",), keyword=True)
    p.write(" ")
    region = op.regions[0] if op.regions else None
    if region is None:
        p.write("{\n" + " " * p.indent + "}")
    else:
        p.region(region, entry_args=False, terminators=False)
