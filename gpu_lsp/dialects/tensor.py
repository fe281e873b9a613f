"""The tensor dialect: creating, reading, slicing and reshaping immutable tensor values."""

from __future__ import annotations

from gpu_lsp.dialects.common import mixed_list
from gpu_lsp.ir.attributes import UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


@reader("tensor.pad")
def _pad(c: Cursor, st: OpState) -> None:
    t = c.operand()
    if c.optional_keyword("nofold"):
        st.properties["nofold"] = UnitAttr()
    c.keyword("low")
    low = mixed_list(c)
    c.keyword("high")
    high = mixed_list(c)
    st.add_region(c.region())
    c.optional_attr_dict(st)
    t.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([t] + low + high)
    st.result_types.append(c.type())


@reader("tensor.parallel_insert_slice")
def _parallel_insert_slice(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.keyword("into")
    dst = c.operand()
    refs = mixed_list(c) + mixed_list(c) + mixed_list(c)
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("into")
    dst.type = c.type()
    st.refs.extend([src, dst] + refs)


