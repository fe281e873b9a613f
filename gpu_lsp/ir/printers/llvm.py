"""Custom forms of the llvm dialect: llvm.func (LLVMFuncOp::print); other llvm ops keep their source text."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, IntegerAttr, StringAttr, UnitAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import OPS, printer
from gpu_lsp.ir.printer import (
    GENERIC_EXTRA,
    GENERIC_FROM_SOURCE,
    GENERIC_PROPERTIES,
    CannotPrint,
    OpPrinter,
    required_attr,
    required_function_type,
)
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
    fn_type = required_function_type(op)
    p.write(" ")
    for word in op.facts.keywords:
        if word not in ("external", "default", "ccc"):
            p.write(word + " ")
    p.write(p.symbol(required_attr(op, "sym_name", StringAttr).value))
    results = [t for t in fn_type.results if not _is_void(t)]
    function_signature(p, op, list(fn_type.inputs), results)
    p.attr_dict(op, _ELIDED, keyword=True)
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], entry_args=False)


LINKAGES = frozenset(
    (
        "private", "internal", "available_externally", "linkonce", "weak", "common", "appending",
        "extern_weak", "linkonce_odr", "weak_odr", "external",
    )
)
_GLOBAL_ELIDED = (
    "sym_name", "global_type", "constant", "value", "linkage", "unnamed_addr", "thread_local_",
    "visibility_", "comdat",
)


@printer("llvm.mlir.global")
def _global(p: OpPrinter, op: Operation) -> None:
    header = _header(p, op)
    if "comdat" in header or "section" in header.split("{")[0]:
        raise CannotPrint
    words = list(op.facts.keywords)
    linkage = next((w for w in words if w in LINKAGES), "external")
    p.write(" " + linkage + " ")
    for word in words:
        if word not in LINKAGES and word != "constant":
            p.write(word + " ")
    if "constant" in words:
        p.write("constant ")
    value = op.get_attr("value")
    p.write(p.symbol(required_attr(op, "sym_name", StringAttr).value) + "(" + (p.attr(value) if value is not None else "") + ")")
    attrs = {k: v for k, v in p.all_attrs(op).items() if k not in _GLOBAL_ELIDED}
    attrs.setdefault("addr_space", _NO_ADDR_SPACE)
    p.write(" " + p.fmt.dict(attrs.items()))
    if isinstance(value, StringAttr):
        return
    global_type = op.get_attr("global_type")
    if global_type is not None:
        p.write(" : " + p.attr(global_type))
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], entry_args=False)


# GlobalOp's properties that its default values fill in (populateDefaultProperties), and
# the enum properties its keywords stand for (`unnamed_addr`, visibility) as integers.
_NO_ADDR_SPACE = IntegerAttr(0, T.I32)
_UNNAMED_ADDR = {"local_unnamed_addr": 1, "unnamed_addr": 2}
_VISIBILITY = {"hidden": 1, "protected": 2}
GENERIC_PROPERTIES["llvm.mlir.global"] = frozenset(
    (
        "addr_space", "alignment", "comdat", "constant", "dbg_exprs", "dso_local", "externally_initialized",
        "global_type", "linkage", "section", "sym_name", "target_specific_attrs", "thread_local_",
        "unnamed_addr", "value", "visibility_",
    )
)


def _global_generic(op: Operation, props: dict, attrs: dict) -> None:
    """GlobalOp's keywords as the properties upstream's generic form shows, defaults included."""
    words = op.facts.keywords
    props.setdefault("addr_space", _NO_ADDR_SPACE)
    linkage = next((w for w in words if w in LINKAGES), "external")
    props["linkage"] = DialectAttr("llvm", "linkage", linkage)
    props["unnamed_addr"] = IntegerAttr(next((_UNNAMED_ADDR[w] for w in words if w in _UNNAMED_ADDR), 0), T.I64)
    props["visibility_"] = IntegerAttr(next((_VISIBILITY[w] for w in words if w in _VISIBILITY), 0), T.I64)
    if "constant" in words:
        props["constant"] = UnitAttr()
    if "thread_local" in words:
        props["thread_local_"] = UnitAttr()


GENERIC_EXTRA["llvm.mlir.global"] = _global_generic

# The llvm readers keep linkage, calling convention and the `!llvm.func` type loosely; what a
# declared format reads is complete, so those ops print generically.
# llvm.mlir.global's keywords (linkage, visibility, thread_local, unnamed_addr, constant) are all kept.
GENERIC_FROM_SOURCE.update(
    name for name, op in OPS.items() if name.startswith(("llvm.", "nvvm.", "rocdl.")) and op.format is None and name != "llvm.mlir.global"
)
