"""Custom forms of the func dialect, and the function signature printer FunctionOpInterface ops share."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, DictAttr, StringAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.printer import OpPrinter, result_names

FUNCTION_ELIDED = ("sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs")


def _dict_at(attrs, index: int) -> DictAttr | None:
    if isinstance(attrs, ArrayAttr) and index < len(attrs.elements):
        entry = attrs.elements[index]
        return entry if isinstance(entry, DictAttr) else None
    return None


def function_signature(p: OpPrinter, op: Operation, inputs: list[T.Type], results: list[T.Type], variadic: bool = False) -> None:
    """function_interface_impl::printFunctionSignature: `(%arg0: T {attrs}, ...) -> (R {attrs})`."""
    body = op.regions[0] if op.regions else None
    external = body is None or not body.blocks
    arg_attrs = op.get_attr("arg_attrs")
    parts = []
    for i, ty in enumerate(inputs):
        attrs = _dict_at(arg_attrs, i)
        if not external and i < len(body.blocks[0].arguments):
            arg = body.blocks[0].arguments[i]
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
    p.write(p.symbol(op.get_attr("sym_name").value))
    fn_type = op.get_attr("function_type")
    ty = fn_type.type if fn_type is not None else T.FunctionType((), ())
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
