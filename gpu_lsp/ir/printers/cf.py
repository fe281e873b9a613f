"""Custom form of cf.switch (its case list); cf.br and cf.cond_br print by their formats."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import GENERIC_FROM_SOURCE, OpPrinter


def successor_operands(op: Operation, first: int) -> list[list]:
    """The operands of each successor, after `first` non-successor operands."""
    counts = op.facts.successor_operands
    rest = op.operands[first:]
    if not counts or len(counts) != len(op.successors):
        return [rest] + [[] for _ in op.successors[1:]]
    out, pos = [], 0
    for n in counts:
        out.append(rest[pos : pos + n])
        pos += n
    return out


@printer("cf.switch")
def _switch(p: OpPrinter, op: Operation) -> None:
    flag = op.operands[0]
    groups = successor_operands(op, 1)
    pad = "\n" + " " * p.indent
    p.write(f" {p.value(flag)} : {p.type(flag.type)}, [{pad}  default: {p.successor(op.successors[0], groups[0])}")
    for value, block, operands in zip(op.facts.case_values, op.successors[1:], groups[1:]):
        p.write(f",{pad}  {value}: {p.successor(block, operands)}")
    p.write(pad + "]")
    p.attr_dict(op, ("case_values", "case_operand_segments"))


GENERIC_FROM_SOURCE.add("cf.switch")
