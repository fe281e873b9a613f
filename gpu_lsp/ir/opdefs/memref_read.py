"""The memref dialect: allocation, load/store, dim, cast, copy, globals."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import OpaqueAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import element_type
from gpu_lsp.ir.opdefs.format import Directive, Var
from gpu_lsp.ir.opdefs.format_read import FormatState, custom_reader, infers_types
from gpu_lsp.syntax.cursor import Cursor, OpState


@custom_reader("GlobalMemrefOpTypeAndInitialValue")
def _global_type_and_initial_value(c: Cursor, st: OpState, fs: FormatState, args: tuple[Directive, ...]) -> None:
    """`memref<4xf32>`, then nothing (external), `= uninitialized` or `= dense<...>` typed as the tensor of the memref."""
    type_name, init_name = (d.name for d in args if isinstance(d, Var))
    ty = c.type()
    st.properties[type_name] = TypeAttr(ty)
    if not c.optional_punct("="):
        return
    if c.optional_keyword("uninitialized"):
        st.properties[init_name] = UnitAttr()
        return
    init = c.attr()
    if isinstance(init, OpaqueAttr) and init.type is None and isinstance(ty, T.MemRefType):
        init = OpaqueAttr(init.text, init.kind, T.TensorType(ty.shape, ty.element))
    st.properties[init_name] = init


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
