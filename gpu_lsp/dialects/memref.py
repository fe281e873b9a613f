"""The memref dialect: allocation, load/store, dim, cast, copy, globals."""

from __future__ import annotations

from gpu_lsp.dialects.common import element_type
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import StringAttr
from gpu_lsp.parser.cursor import Cursor, OpState


def _indices(c: Cursor) -> list:
    sub = c.group("[")
    refs = sub.operand_list(T.INDEX)
    sub.done()
    return refs


@op("memref.load", "", "Loads an element from a memref.", "%v = memref.load %m[%i, ...] : memref<...>")
def _load(c: Cursor, st: OpState) -> None:
    m = c.operand()
    idx = _indices(c)
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.extend([m] + idx)
    st.result_types.append(element_type(m.type))


@op("memref.store", "", "Stores an element into a memref.", "memref.store %v, %m[%i, ...] : memref<...>")
def _store(c: Cursor, st: OpState) -> None:
    v = c.operand()
    c.punct(",")
    m = c.operand()
    idx = _indices(c)
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    v.type = element_type(m.type)
    st.refs.extend([v, m] + idx)


def _alloc_like(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        sub = c.group("(")
        dyn = sub.operand_list(T.INDEX)
        sub.done()
        syms = []
        if c.is_group("["):
            ssub = c.group("[")
            syms = ssub.operand_list(T.INDEX)
            ssub.done()
        c.optional_attr_dict(st)
        st.refs.extend(dyn + syms)
        st.result_types.append(c.colon_type())

    op(name, "", summary, f"%m = {name}(%dyn, ...) : memref<...>")(parse)


_alloc_like("memref.alloc", "Allocates a buffer on the heap.")
_alloc_like("memref.alloca", "Allocates a buffer on the stack.")


@op("memref.dealloc", "", "Frees a buffer.", "memref.dealloc %m : memref<...>")
def _dealloc(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.append(m)


@op("memref.dim", "pure", "The size of one dimension of a memref.", "%d = memref.dim %m, %i : memref<...>")
def _dim(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.punct(",")
    i = c.operand(T.INDEX)
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.extend([m, i])
    st.result_types.append(T.INDEX)


def _cast_like(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        m = c.operand()
        c.optional_attr_dict(st)
        m.type = c.colon_type()
        c.keyword("to")
        st.refs.append(m)
        st.result_types.append(c.type())

    op(name, "pure", summary, f"%r = {name} %m : memref<...> to memref<...>")(parse)


_cast_like("memref.cast", "Casts between compatible memref types.")
_cast_like("memref.memory_space_cast", "Changes the memory space of a memref.")


@op("memref.copy", "", "Copies one memref into another.", "memref.copy %src, %dst : memref<...> to memref<...>")
def _copy(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    dst = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("to")
    dst.type = c.type()
    st.refs.extend([src, dst])


@op("memref.get_global", "pure", "The address of a memref.global.", "%m = memref.get_global @name : memref<...>")
def _get_global(c: Cursor, st: OpState) -> None:
    st.properties["name"] = c.symbol()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op("memref.global", "symbol", "A global memref variable.", 'memref.global ["private"] [constant] @name : memref<...> [= dense<...>]')
def _global(c: Cursor, st: OpState) -> None:
    if c.is_token("STRING"):
        st.properties["sym_visibility"] = StringAttr(c.string())
    c.optional_keyword("constant")
    st.properties["sym_name"] = StringAttr(c.symbol().root)
    c.punct(":")
    st.properties["type"] = c.attr()
    if c.optional_punct("="):
        if c.is_keyword("uninitialized"):
            c.next()
        else:
            st.properties["initial_value"] = c.attr()
    c.optional_attr_dict(st)
