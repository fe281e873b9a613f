"""Custom forms of the scf dialect (SCF.cpp's printers and SCFOps.td formats)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.operands import segments
from gpu_lsp.ir.printer import OpPrinter


def arrow_types(p: OpPrinter, types: list[T.Type]) -> str:
    """printOptionalArrowTypeList: ` -> T` or ` -> (T, U)`, nothing when empty."""
    if not types:
        return ""
    if len(types) == 1 and not isinstance(types[0], T.FunctionType):
        return " -> " + p.type(types[0])
    return " -> (" + p.types(types) + ")"


def init_list(p: OpPrinter, args, inits, prefix: str) -> str:
    """printInitializationList: `prefix(%arg = %init, ...)`."""
    if not inits:
        return ""
    return prefix + "(" + ", ".join(f"{p.value(a)} = {p.value(v)}" for a, v in zip(args, inits)) + ")"


def entry_args(op: Operation, region: int = 0) -> list:
    regions = op.regions
    if len(regions) > region and regions[region].blocks:
        return regions[region].blocks[0].arguments
    return []


@printer("scf.for")
def _for(p: OpPrinter, op: Operation) -> None:
    args = entry_args(op)
    lb, ub, step = op.operands[:3]
    inits = op.operands[3:]
    if op.get_attr("unsignedCmp") is not None:
        p.write(" unsigned")
    iv = args[0] if args else None
    p.write(f" {p.value(iv) if iv is not None else '%<<iv>>'} = {p.value(lb)} to {p.value(ub)} step {p.value(step)}")
    p.write(init_list(p, args[1:], inits, " iter_args"))
    if inits:
        p.write(" -> (" + p.value_types(inits) + ")")
    p.write(" ")
    if iv is not None and not iv.type.is_index:
        p.write(f" : {p.type(iv.type)} ")
    p.region(op.regions[0], entry_args=False, terminators=bool(inits))
    p.attr_dict(op, ("unsignedCmp",))


@printer("scf.if")
def _if(p: OpPrinter, op: Operation) -> None:
    terminators = bool(op.results)
    p.write(" " + p.value(op.operands[0]))
    if op.results:
        p.write(" -> (" + p.value_types(op.results) + ")")
    p.write(" ")
    p.region(op.regions[0], entry_args=False, terminators=terminators)
    if len(op.regions) > 1 and op.regions[1].blocks:
        p.write(" else ")
        p.region(op.regions[1], entry_args=False, terminators=terminators)
    p.attr_dict(op)


@printer("scf.while")
def _while(p: OpPrinter, op: Operation) -> None:
    p.write(init_list(p, entry_args(op), op.operands, " "))
    p.write(" : " + p.fmt.function_type((v.type for v in op.operands), [r.type for r in op.results]) + " ")
    p.region(op.regions[0], entry_args=False)
    p.write(" do ")
    p.region(op.regions[1])
    p.attr_dict(op, keyword=True)


def _groups(op: Operation, *names: str) -> list[list]:
    """The named operand groups of `op`; all operands in the first when they do not fit its declaration."""
    groups = segments(op)
    if groups is None:
        return [list(op.operands)] + [[] for _ in names[1:]]
    return [groups[name] for name in names]


@printer("scf.parallel")
def _parallel(p: OpPrinter, op: Operation) -> None:
    lb, ub, step, inits = _groups(op, "lowerBound", "upperBound", "step", "initVals")
    p.write(
        f" ({p.values(entry_args(op))}) = ({p.values(lb)}) to ({p.values(ub)}) step ({p.values(step)})"
    )
    if inits:
        p.write(" init (" + p.values(inits) + ")")
    p.write(arrow_types(p, [r.type for r in op.results]) + " ")
    p.region(op.regions[0], entry_args=False, implicit="scf.reduce ")
    p.attr_dict(op)


def _dynamic_list(p: OpPrinter, static: Attribute | None, dynamic: list[Value]) -> str:
    if not isinstance(static, DenseArrayAttr):
        return "(" + p.values(dynamic) + ")"
    it = iter(dynamic)
    parts = []
    for v in static.values:
        parts.append(p.value(next(it)) if v == T.STATIC_DYNAMIC else str(v))
    return "(" + ", ".join(parts) + ")"


@printer("scf.forall")
def _forall(p: OpPrinter, op: Operation) -> None:
    lb, ub, step, outs = _groups(op, "dynamicLowerBound", "dynamicUpperBound", "dynamicStep", "outputs")
    slb = op.get_attr("staticLowerBound")
    sub = op.get_attr("staticUpperBound")
    sstep = op.get_attr("staticStep")
    args = entry_args(op)
    n = len(sub.values) if isinstance(sub, DenseArrayAttr) else len(ub)
    ivs, out_args = args[:n], args[n:]
    normalized = (
        isinstance(slb, DenseArrayAttr)
        and isinstance(sstep, DenseArrayAttr)
        and all(v == 0 for v in slb.values)
        and all(v == 1 for v in sstep.values)
    )
    p.write(" (" + p.values(ivs))
    if normalized:
        p.write(") in " + _dynamic_list(p, sub, ub))
    else:
        p.write(
            ") = " + _dynamic_list(p, slb, lb) + " to " + _dynamic_list(p, sub, ub) + " step " + _dynamic_list(p, sstep, step)
        )
    p.write(init_list(p, out_args, outs, " shared_outs"))
    p.write(" ")
    if outs:
        p.write("-> (" + p.value_types(op.results) + ") ")
    p.region(op.regions[0], entry_args=False, terminators=bool(op.results))
    p.attr_dict(op, ("staticLowerBound", "staticUpperBound", "staticStep"))


@printer("scf.forall.in_parallel")
def _in_parallel(p: OpPrinter, op: Operation) -> None:
    p.write(" ")
    p.region(op.regions[0], entry_args=False, terminators=False)
    p.attr_dict(op)


@printer("scf.execute_region")
def _execute_region(p: OpPrinter, op: Operation) -> None:
    p.write(arrow_types(p, [r.type for r in op.results]) + " ")
    if op.get_attr("no_inline") is not None:
        p.write("no_inline ")
    p.region(op.regions[0], entry_args=False)
    p.attr_dict(op, ("no_inline",))


