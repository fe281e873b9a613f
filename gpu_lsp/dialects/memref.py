"""The memref dialect: allocation, load/store, dim, cast, copy, globals."""

from __future__ import annotations

from gpu_lsp.dialects.common import element_type
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import OpaqueAttr, StringAttr, UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import SYMBOL_NAME, Cursor, OpState


@reader("memref.global")
def _global(c: Cursor, st: OpState) -> None:
    if c.is_token("STRING"):
        st.properties["sym_visibility"] = StringAttr(c.string())
    if c.optional_keyword("constant"):
        st.properties["constant"] = UnitAttr()
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    c.punct(":")
    st.properties["type"] = c.attr()
    if c.optional_punct("="):
        if c.is_keyword("uninitialized"):
            c.next()
        else:
            init = c.attr()
            ty = st.properties["type"]
            if isinstance(init, OpaqueAttr) and init.type is None and isinstance(getattr(ty, "type", None), T.MemRefType):
                # upstream types the literal with the memref's tensor type
                init = OpaqueAttr(init.text, init.kind, T.TensorType(ty.type.shape, ty.type.element))
            st.properties["initial_value"] = init
    c.optional_attr_dict(st)


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
