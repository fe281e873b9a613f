"""The func dialect: func, return, call, call_indirect, constant."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_function_like
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


@reader("func.func")
def _func(c: Cursor, st: OpState) -> None:
    read_function_like(c, st)


@reader("func.return")
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


@reader("func.call")
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


@reader("func.call_indirect")
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


@reader("func.constant")
def _constant(c: Cursor, st: OpState) -> None:
    st.properties["value"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


