"""Custom forms of the amdgpu dialect: the `custom<MNKDimensionList>` hook of its matrix ops."""

from __future__ import annotations

from gpu_lsp.ir.attributes import IntegerAttr
from gpu_lsp.ir.opdefs.format import Directive, Var
from gpu_lsp.ir.opdefs.format_print import FormatContext, custom_printer


@custom_printer("MNKDimensionList")
def _mnk_dimension_list(ctx: FormatContext, args: tuple[Directive, ...]) -> None:
    """`16x16x32` from the m, n and k attributes."""
    sizes = [ctx.op.get_attr(d.name) for d in args if isinstance(d, Var)]
    ctx.space()
    ctx.p.write("x".join(str(a.value) if isinstance(a, IntegerAttr) else "?" for a in sizes))
