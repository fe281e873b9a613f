"""The cf dialect's custom directive printer (cf.switch's case list); its ops print by their formats."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.opdefs.cf_ops import case_values
from gpu_lsp.ir.opdefs.format import Directive
from gpu_lsp.ir.opdefs.format_print import FormatContext, custom_printer


@custom_printer("SwitchOpCases")
def _switch_op_cases(ctx: FormatContext, args: tuple[Directive, ...]) -> None:
    """printSwitchOpCases: `  default: ^bb1(...)`, then `,` and `  42: ^bb2(...)` per case, each on its own line."""
    p, op = ctx.p, ctx.op
    ctx.space()
    p.write("  default: " + p.successor(op.successors[0], ctx.values("defaultOperands")))
    segments = op.get_attr("case_operand_segments")
    sizes = segments.values if isinstance(segments, DenseArrayAttr) else ()
    operands = ctx.values("caseOperands")
    values = case_values(op)
    if not values:
        return
    # Upstream writes each value as APInt::getLimitedValue(): unsigned at the flag's width.
    flag = op.operands[0].type if op.operands else None
    mask = (1 << flag.width) - 1 if isinstance(flag, T.IntegerType) else -1
    pos = 0
    for value, block, size in zip(values, op.successors[1:], sizes):
        p.write(f",\n{' ' * p.indent}  {value & mask}: {p.successor(block, operands[pos : pos + size])}")
        pos += size
    p.write("\n" + " " * p.indent)
