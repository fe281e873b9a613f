"""The builtin dialect's hand-written reader: builtin.module."""

from __future__ import annotations

from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.syntax.cursor import SYMBOL_NAME, Cursor, OpState


@reader("builtin.module")
def _module(c: Cursor, st: OpState) -> None:
    if c.is_symbol():
        st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    c.attr_dict_with_keyword(st)
    st.add_region(c.region())
