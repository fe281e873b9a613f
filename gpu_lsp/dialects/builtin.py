"""The builtin dialect: module and unrealized_conversion_cast."""

from __future__ import annotations

from gpu_lsp.dialects.registry import op
from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.parser.cursor import SYMBOL_NAME, Cursor, OpState


@op("builtin.module", "isolated symbol_table no_terminator graph", "A top-level container of operations.", "module [@name] [attributes {...}] { ... }")
def _module(c: Cursor, st: OpState) -> None:
    if c.is_symbol():
        st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    c.attr_dict_with_keyword(st)
    st.add_region(c.region())


@op("builtin.unrealized_conversion_cast", "pure", "A cast between types of two dialects, left by partial conversion.")
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
