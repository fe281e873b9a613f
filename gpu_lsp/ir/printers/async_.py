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
    ndeps, nargs = op.extra.get("segments", (0, len(op.operands)))
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


@printer("async.yield", "async.return")
def _yield(p: OpPrinter, op: Operation) -> None:
    if op.operands:
        p.write(" " + p.values(op.operands) + " : " + p.value_types(op.operands))
    p.attr_dict(op)


@printer("async.await")
def _await(p: OpPrinter, op: Operation) -> None:
    p.write(f" {p.value(op.operands[0])} : {p.type(op.operands[0].type)}")
    p.attr_dict(op)


@printer("async.create_group")
def _create_group(p: OpPrinter, op: Operation) -> None:
    p.write(f" {p.value(op.operands[0])} : {p.value_types(op.results)}")
    p.attr_dict(op)


@printer("async.add_to_group")
def _add_to_group(p: OpPrinter, op: Operation) -> None:
    p.write(f" {p.values(op.operands)} : {p.type(op.operands[0].type)}")
    p.attr_dict(op)


@printer("async.await_all")
def _await_all(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    p.attr_dict(op)


@printer("async.func")
def _func(p: OpPrinter, op: Operation) -> None:
    function_op(p, op)


@printer("async.call")
def _call(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.attr(op.get_attr("callee")) + "(" + p.values(op.operands) + ")")
    p.attr_dict(op, ("callee",))
    p.write(" : " + p.functional_type(op))


def _execute_segments(op: Operation, props: dict, attrs: dict) -> None:
    ndeps, nargs = op.extra.get("segments", (0, len(op.operands)))
    props.setdefault("operandSegmentSizes", DenseArrayAttr(T.I32, (ndeps, nargs)))


GENERIC_EXTRA["async.execute"] = _execute_segments
