"""Custom forms of the llvm dialect: llvm.func (LLVMFuncOp::print); other llvm ops keep their source text."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import CannotPrint, OpPrinter
from gpu_lsp.ir.printers import printer
from gpu_lsp.ir.printers.func import function_signature

_ELIDED = (
    "sym_name", "function_type", "arg_attrs", "res_attrs", "linkage", "CConv", "visibility_",
    "comdat", "unnamed_addr", "vscale_range",
)


def _header(p: OpPrinter, op: Operation) -> str:
    """The source text of the op before its body (empty without source)."""
    if p.source is None or op.span is None:
        return ""
    start = op.span.range.start
    end = op.span.range.end
    if op.regions and op.regions[0].span is not None:
        end = op.regions[0].span.range.start
    return p.source[start:end]


def _is_void(ty: T.Type) -> bool:
    return isinstance(ty, T.DialectType) and ty.dialect == "llvm" and ty.name == "void"


@printer("llvm.func")
def _func(p: OpPrinter, op: Operation) -> None:
    header = _header(p, op)
    if "..." in header or "vscale_range" in header or "comdat" in header:
        raise CannotPrint
    fn_type = op.get_attr("function_type")
    if fn_type is None or not isinstance(fn_type.type, T.FunctionType):
        raise CannotPrint
    p.write(" ")
    for word in op.extra.get("keywords", ()):
        if word not in ("external", "default", "ccc"):
            p.write(word + " ")
    p.write(p.symbol(op.get_attr("sym_name").value))
    results = [t for t in fn_type.type.results if not _is_void(t)]
    function_signature(p, op, list(fn_type.type.inputs), results)
    p.attr_dict(op, _ELIDED, keyword=True)
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], entry_args=False)
