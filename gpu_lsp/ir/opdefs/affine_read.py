"""The affine dialect: loops, conditionals and memory accesses with affine maps (read as opaque)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import arg_def, element_type, loop_carried, read_attrs_then_operands, value_defs
from gpu_lsp.syntax.cursor import Cursor, OpState, Ref
from gpu_lsp.syntax.raw import Group
from gpu_lsp.syntax.tokens import Tok


def _index_refs(items: list, out: list[Ref]) -> None:
    """Every `%value` in an affine expression or map operand list, typed index."""
    for item in items:
        if isinstance(item, Tok):
            if item.type == "VALUE":
                out.append(Ref(item.value, item.start_pos, item.end_pos, T.INDEX))
        elif isinstance(item, Group):
            _index_refs(item.items, out)


def map_operands(c: Cursor, st: OpState) -> None:
    """`#map(%d, ...)[%s, ...]` or `affine_map<...>(...)[...]`: the map, then its operands."""
    if not c.is_token("ATTR"):
        c.expected("affine map")
    st.properties["map"] = c.attr()
    _dims_and_symbols(c, st)


def _dims_and_symbols(c: Cursor, st: OpState) -> None:
    """`(%d, ...)[%s, ...]` after an affine map or integer set: its operands, typed index."""
    refs: list[Ref] = []
    for opener in ("(", "["):
        if c.is_group(opener):
            _index_refs([c.next()], refs)
    st.refs.extend(refs)


def _bound(c: Cursor, st: OpState) -> None:
    """A loop bound: an integer, an SSA value, or `[min|max] #map(...)[...]`."""
    if not c.optional_keyword("min"):
        c.optional_keyword("max")
    if c.is_token("INT"):
        c.next()
    elif c.is_operand():
        st.refs.append(c.operand(T.INDEX))
    else:
        map_operands(c, st)


def _mem_access(c: Cursor, st: OpState) -> Ref:
    """`%m[expr, ...]`: the memref operand; index operands are appended after it."""
    mem = c.operand()
    refs: list[Ref] = []
    if not c.is_group("["):
        c.expected_by_parser("'['")
    _index_refs([c.next()], refs)
    st.refs.append(mem)
    st.refs.extend(refs)
    return mem


def _map_op(name: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        map_operands(c, st)
        c.optional_attr_dict(st)
        st.result_types.append(T.INDEX)

    reader(name)(parse)


_map_op("affine.apply")
_map_op("affine.min")
_map_op("affine.max")


@reader("affine.for")
def _for(c: Cursor, st: OpState) -> None:
    iv = c.def_value()
    c.punct("=")
    _bound(c, st)
    c.keyword("to")
    _bound(c, st)
    if c.optional_keyword("step"):
        c.integer()
    args, inits = loop_carried(c, st, "iter_args")
    st.refs.extend(inits)
    st.add_region(c.region(), [arg_def(iv, T.INDEX)] + args)
    c.optional_attr_dict(st)


@reader("affine.parallel")
def _parallel(c: Cursor, st: OpState) -> None:
    ivs = value_defs(c)
    c.punct("=")
    refs: list[Ref] = []
    _index_refs([c.next()], refs)
    c.keyword("to")
    _index_refs([c.next()], refs)
    if c.optional_keyword("step"):
        c.group("(")
    st.refs.extend(refs)
    if c.optional_keyword("reduce"):
        c.group("(")
        c.punct("->")
        st.result_types.extend(c.result_types())
    st.add_region(c.region(), ivs)
    c.optional_attr_dict(st)


@reader("affine.if")
def _if(c: Cursor, st: OpState) -> None:
    if not c.is_token("ATTR"):
        c.expected("integer set")
    st.properties["condition"] = c.attr()
    _dims_and_symbols(c, st)
    if c.optional_punct("->"):
        st.result_types.extend(c.result_types())
    st.add_region(c.region())
    st.add_region(c.region() if c.optional_keyword("else") else None)
    c.optional_attr_dict(st)


@reader("affine.load")
def _load(c: Cursor, st: OpState) -> None:
    mem = _mem_access(c, st)
    c.optional_attr_dict(st)
    mem.type = c.colon_type()
    st.result_types.append(element_type(mem.type))


def _store_operands(c: Cursor, st: OpState) -> tuple[Ref, T.Type]:
    """`%value, %m[expr, ...] attr-dict : memref-type`: the stored value and the memref's type."""
    value = c.operand()
    st.refs.append(value)
    c.punct(",")
    mem = _mem_access(c, st)
    c.optional_attr_dict(st)
    mem.type = ty = c.colon_type()
    return value, ty


@reader("affine.store")
def _store(c: Cursor, st: OpState) -> None:
    value, memref_type = _store_operands(c, st)
    value.type = element_type(memref_type)


@reader("affine.vector_load")
def _vector_load(c: Cursor, st: OpState) -> None:
    mem = _mem_access(c, st)
    c.optional_attr_dict(st)
    mem.type = c.colon_type()
    c.punct(",")
    st.result_types.append(c.type())


@reader("affine.vector_store")
def _vector_store(c: Cursor, st: OpState) -> None:
    value, _ = _store_operands(c, st)
    c.punct(",")
    value.type = c.type()


reader("affine.yield")(read_attrs_then_operands)


@reader("affine.delinearize_index")
def _delinearize(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.INDEX))
    c.keyword("into")
    refs: list[Ref] = []
    _index_refs([c.next()], refs)
    st.refs.extend(refs)
    c.optional_attr_dict(st)
    st.result_types.extend(c.colon_type_list())


@reader("affine.linearize_index")
def _linearize(c: Cursor, st: OpState) -> None:
    c.optional_keyword("disjoint")
    refs: list[Ref] = []
    _index_refs([c.next()], refs)
    c.keyword("by")
    _index_refs([c.next()], refs)
    st.refs.extend(refs)
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())
