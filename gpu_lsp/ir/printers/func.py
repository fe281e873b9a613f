"""Custom forms of the func dialect, and the function signature printer FunctionOpInterface ops share."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, DictAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, required_attr, required_function_type, result_names

FUNCTION_ELIDED = ("sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs")


def _dict_at(attrs, index: int) -> DictAttr | None:
    if isinstance(attrs, ArrayAttr) and index < len(attrs.elements):
        entry = attrs.elements[index]
        return entry if isinstance(entry, DictAttr) else None
    return None


def function_signature(p: OpPrinter, op: Operation, inputs: list[T.Type], results: list[T.Type], variadic: bool = False) -> None:
    """function_interface_impl::printFunctionSignature: `(%arg0: T {attrs}, ...) -> (R {attrs})`."""
    entry = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    arg_attrs = op.get_attr("arg_attrs")
    parts = []
    for i, ty in enumerate(inputs):
        attrs = _dict_at(arg_attrs, i)
        if entry is not None and i < len(entry.arguments):
            arg = entry.arguments[i]
            text = f"{p.value(arg)}: {p.type(arg.type)}"
        else:
            text = p.type(ty)
        parts.append(text + p.optional_dict(attrs))
    if variadic:
        parts.append("...")
    p.write("(" + ", ".join(parts) + ")")
    if results:
        res_attrs = op.get_attr("res_attrs")
        dicts = [_dict_at(res_attrs, i) for i in range(len(results))]
        parens = len(results) > 1 or isinstance(results[0], T.FunctionType) or bool(dicts[0] and dicts[0].entries)
        text = ", ".join(p.type(t) + p.optional_dict(d) for t, d in zip(results, dicts))
        p.write(" -> " + (f"({text})" if parens else text))


def function_op(p: OpPrinter, op: Operation, variadic: bool = False, elided: tuple[str, ...] = FUNCTION_ELIDED) -> None:
    """function_interface_impl::printFunctionOp: `[visibility] @name(args) -> results attributes {...} {body}`."""
    p.write(" ")
    visibility = op.get_attr("sym_visibility")
    if isinstance(visibility, StringAttr):
        p.write(visibility.value + " ")
    p.write(p.symbol(required_attr(op, "sym_name", StringAttr).value))
    ty = required_function_type(op) if op.get_attr("function_type") is not None else T.FunctionType((), ())
    function_signature(p, op, list(ty.inputs), list(ty.results), variadic)
    p.attr_dict(op, elided, keyword=True)
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], entry_args=False)


@printer("func.func")
def _func(p: OpPrinter, op: Operation) -> None:
    function_op(p, op)


@result_names("func.constant")
def _constant_names(op: Operation):
    return [(0, "f")]
