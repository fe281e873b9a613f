"""The cf dialect's hand-written reader (cf.switch's case list) and the branch weights llvm.cond_br shares."""

from __future__ import annotations

from gpu_lsp.dialects.common import successor
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


def read_weights(c: Cursor, st: OpState) -> None:
    """`weights([90, 10])` branch weights (cf.cond_br, llvm.cond_br)."""
    if c.optional_keyword("weights"):
        sub = c.group("(")
        st.properties["branch_weights"] = sub.attr()
        sub.done()


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
    writable_facts(st).case_values = tuple(values)
    c.optional_attr_dict(st)
