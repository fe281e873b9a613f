"""Custom forms of the cf dialect (ControlFlowOps.td formats and SwitchOp's case list)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import GENERIC_EXTRA, GENERIC_FROM_SOURCE, OpPrinter


def successor_operands(op: Operation, first: int) -> list[list]:
    """The operands of each successor, after `first` non-successor operands."""
    counts = op.extra.get("successor_operands")
    rest = op.operands[first:]
    if not counts or len(counts) != len(op.successors):
        return [rest] + [[] for _ in op.successors[1:]]
    out, pos = [], 0
    for n in counts:
        out.append(rest[pos : pos + n])
        pos += n
    return out


@printer("cf.br")
def _br(p: OpPrinter, op: Operation) -> None:
    (operands,) = successor_operands(op, 0)[:1] or [[]]
    p.write(" " + p.successor(op.successors[0], operands))
    p.attr_dict(op)


@printer("cf.cond_br")
def _cond_br(p: OpPrinter, op: Operation) -> None:
    groups = successor_operands(op, 1)
    p.write(" " + p.value(op.operands[0]))
    weights = op.get_attr("branch_weights")
    if weights is not None:
        p.write(" weights(" + p.attr(weights) + ")")
    p.write(", " + p.successor(op.successors[0], groups[0]) + ", " + p.successor(op.successors[1], groups[1]))
    p.attr_dict(op, ("branch_weights",))


@printer("cf.switch")
def _switch(p: OpPrinter, op: Operation) -> None:
    flag = op.operands[0]
    groups = successor_operands(op, 1)
    pad = "\n" + " " * p.indent
    p.write(f" {p.value(flag)} : {p.type(flag.type)}, [{pad}  default: {p.successor(op.successors[0], groups[0])}")
    for value, block, operands in zip(op.extra.get("case_values", ()), op.successors[1:], groups[1:]):
        p.write(f",{pad}  {value}: {p.successor(block, operands)}")
    p.write(pad + "]")
    p.attr_dict(op, ("case_values", "case_operand_segments"))


def _cond_br_segments(op: Operation, props: dict, attrs: dict) -> None:
    groups = successor_operands(op, 1)
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (1, len(groups[0]), len(groups[1]))))


GENERIC_EXTRA["cf.cond_br"] = _cond_br_segments
GENERIC_FROM_SOURCE.add("cf.switch")
