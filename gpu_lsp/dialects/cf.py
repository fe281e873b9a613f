"""The cf dialect: unstructured control flow between blocks (br, cond_br, switch, assert)."""

from __future__ import annotations

from gpu_lsp.dialects.common import successor
from gpu_lsp.ir import types as T
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


def read_weights(c: Cursor, st: OpState) -> None:
    """`weights([90, 10])` branch weights (cf.cond_br, llvm.cond_br)."""
    if c.optional_keyword("weights"):
        sub = c.group("(")
        st.properties["branch_weights"] = sub.attr()
        sub.done()


@reader("cf.br")
def _br(c: Cursor, st: OpState) -> None:
    successor(c, st)
    c.optional_attr_dict(st)


@reader("cf.cond_br")
def _cond_br(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    read_weights(c, st)
    c.punct(",")
    successor(c, st)
    c.punct(",")
    successor(c, st)
    c.optional_attr_dict(st)


@reader("cf.switch")
def _switch(c: Cursor, st: OpState) -> None:
    flag = c.operand()
    flag.type = c.colon_type()
    st.refs.append(flag)
    c.punct(",")
    sub = c.group("[")
    sub.keyword("default")
    sub.punct(":")
    successor(sub, st)
    values = []
    while sub.optional_punct(","):
        values.append(sub.integer())
        sub.punct(":")
        successor(sub, st)
    sub.done()
    st.extra["case_values"] = values
    c.optional_attr_dict(st)
