"""Custom form of bufferization.alloc_tensor (upstream AllocTensorOp::print)."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import OPS, printer
from gpu_lsp.ir.opdefs.segments import operand_groups
from gpu_lsp.ir.printer import OpPrinter


@printer("bufferization.alloc_tensor")
def _alloc_tensor(p: OpPrinter, op: Operation) -> None:
    groups = operand_groups(OPS[op.name], op) or {}
    p.write("(" + p.values(groups.get("dynamic_sizes", [])) + ")")
    if groups.get("copy"):
        p.write(" copy(" + p.values(groups["copy"]) + ")")
    if groups.get("size_hint"):
        p.write(" size_hint=" + p.values(groups["size_hint"]))
    p.attr_dict(op)
    p.write(" : " + p.value_types(op.results))
