"""Custom forms of the async dialect (Async.cpp's printers and AsyncOps.td formats)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import GENERIC_EXTRA, OpPrinter, result_names
from gpu_lsp.ir.printers.func import function_op
from gpu_lsp.ir.printers.scf import arrow_types, entry_args


@result_names("async.execute")
def _execute_names(op: Operation):
    names = [(0, "token")]
    if len(op.results) > 1:
        names.append((1, "bodyResults"))
    return names


@printer("async.execute")
def _execute(p: OpPrinter, op: Operation) -> None:
    ndeps, nargs = op.facts.segments or (0, len(op.operands))
    deps, operands = op.operands[:ndeps], op.operands[ndeps : ndeps + nargs]
    if deps:
        p.write(" [" + p.values(deps) + "]")
    if operands:
        args = entry_args(op)
        p.write(
            " ("
            + ", ".join(f"{p.value(v)} as {p.value(a)}: {p.type(v.type)}" for v, a in zip(operands, args))
            + ")"
        )
    p.write(arrow_types(p, [r.type for r in op.results[1:]]))
    p.attr_dict(op, keyword=True)
    p.write(" ")
    p.region(op.regions[0], entry_args=False)


@printer("async.func")
def _func(p: OpPrinter, op: Operation) -> None:
    function_op(p, op)


def _execute_segments(op: Operation, props: dict, attrs: dict) -> None:
    ndeps, nargs = op.facts.segments or (0, len(op.operands))
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (ndeps, nargs)))


GENERIC_EXTRA["async.execute"] = _execute_segments
