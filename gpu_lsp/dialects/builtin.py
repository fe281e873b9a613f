"""The builtin dialect: module and unrealized_conversion_cast."""

from __future__ import annotations

from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import SYMBOL_NAME, Cursor, OpState


@reader("builtin.module")
def _module(c: Cursor, st: OpState) -> None:
    if c.is_symbol():
        st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    c.attr_dict_with_keyword(st)
    st.add_region(c.region())


@reader("builtin.unrealized_conversion_cast")
def _cast(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    if refs:
        tys = c.colon_type_list()
        for r, t in zip(refs, tys):
            r.type = t
        st.refs.extend(refs)
    c.keyword("to")
    st.result_types.extend(c.type_list())
    c.optional_attr_dict(st)
