"""The cf dialect: unstructured control flow between blocks (br, cond_br, switch, assert)."""

from __future__ import annotations

from gpu_lsp.dialects.common import successor
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.parser.cursor import Cursor, OpState


def read_weights(c: Cursor, st: OpState) -> None:
    """`weights([90, 10])` branch weights (cf.cond_br, llvm.cond_br)."""
    if c.optional_keyword("weights"):
        sub = c.group("(")
        st.properties["branch_weights"] = sub.attr()
        sub.done()


@op("cf.br", "terminator", "Jumps to a block, passing values to its arguments.", "cf.br ^bb1(%a : T)")
def _br(c: Cursor, st: OpState) -> None:
    successor(c, st)
    c.optional_attr_dict(st)


@op(
    "cf.cond_br",
    "terminator",
    "Jumps to one of two blocks depending on an i1 condition.",
    "cf.cond_br %cond, ^bb1(%a : T), ^bb2",
)
def _cond_br(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    read_weights(c, st)
    c.punct(",")
    successor(c, st)
    c.punct(",")
    successor(c, st)
    c.optional_attr_dict(st)


@op(
    "cf.switch",
    "terminator",
    "Jumps to the block whose case value matches an integer flag, else to the default block.",
    "cf.switch %flag : i32, [ default: ^bb1, 42: ^bb2(%a : T) ]",
)
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


@op("cf.assert", "", "Aborts with a message when the i1 condition is false.", 'cf.assert %cond, "message"')
def _assert(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    c.punct(",")
    st.properties["msg"] = StringAttr(c.string())
    c.optional_attr_dict(st)
