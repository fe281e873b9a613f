"""The func dialect: func, return, call, call_indirect, constant."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_function_like
from gpu_lsp.dialects.registry import op
from gpu_lsp.parser.cursor import Cursor, OpState


@op(
    "func.func",
    "isolated symbol function",
    "A function with a body of blocks.",
    "func.func [private] @name(%arg: T, ...) -> (R, ...) [attributes {...}] { ... }",
)
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)


@op("func.return", "terminator return_like pure", "Returns from a func.func.", "return [%v, ... : T, ...]")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    refs = c.operand_list()
    if refs:
        tys = c.colon_type_list()
        if len(tys) != len(refs):
            c.fail(f"expected {len(refs)} types")
        for r, t in zip(refs, tys):
            r.type = t
        st.refs.extend(refs)


@op("func.call", "", "Calls a function by symbol.", "call @f(%a, ...) : (T, ...) -> (R, ...)")
def _call(c: Cursor, st: OpState) -> None:
    st.properties["callee"] = c.symbol()
    sub = c.group("(")
    refs = sub.operand_list()
    sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if len(fn.inputs) != len(refs):
        c.fail(f"expected {len(refs)} operand types")
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


@op("func.call_indirect", "", "Calls a function value.", "call_indirect %f(%a, ...) : (T, ...) -> (R, ...)")
def _call_indirect(c: Cursor, st: OpState) -> None:
    callee = c.operand()
    sub = c.group("(")
    refs = sub.operand_list()
    sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    callee.type = fn
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.append(callee)
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


@op("func.constant", "pure", "A function symbol as a value.", "constant @f : (T) -> R")
def _constant(c: Cursor, st: OpState) -> None:
    st.properties["value"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


