"""The memref dialect: allocation, load/store, dim, cast, copy, globals."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import element_type
from gpu_lsp.ir.opdefs.format_read import FormatState, infers_types
from gpu_lsp.syntax.cursor import Cursor, OpState


@reader("memref.alloca_scope")
def _alloca_scope(c: Cursor, st: OpState) -> None:
    if c.optional_punct("->"):
        st.result_types.extend(c.result_types())
    st.add_region(c.region())
    c.optional_attr_dict(st)


@reader("memref.generic_atomic_rmw")
def _generic_atomic_rmw(c: Cursor, st: OpState) -> None:
    m = c.operand()
    idx = c.index_list()
    m.type = c.colon_type()
    st.refs.extend([m] + idx)
    st.add_region(c.region())
    c.optional_attr_dict(st)
    st.result_types.append(element_type(m.type))


@reader("memref.prefetch")
def _prefetch(c: Cursor, st: OpState) -> None:
    m = c.operand()
    idx = c.index_list()
    c.punct(",")
    c.any_keyword()
    c.punct(",")
    c.keyword("locality")
    c.punct("<")
    c.integer()
    c.punct(">")
    c.punct(",")
    c.any_keyword()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.extend([m] + idx)


@infers_types("memref.distinct_objects")
def _distinct_objects_results(st: OpState, fs: FormatState) -> None:
    """Each result has the type of its operand."""
    fs.types["results"] = list(fs.types.get("operands", []))
