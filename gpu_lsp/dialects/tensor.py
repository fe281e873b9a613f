"""The tensor dialect: creating, reading, slicing and reshaping immutable tensor values."""

from __future__ import annotations

from gpu_lsp.dialects.common import cast_op, element_type, mixed_list, read_element_access, reassociation, typed_operand_list
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


@reader("tensor.empty")
def _empty(c: Cursor, st: OpState) -> None:
    sub = c.group("(")
    st.refs.extend(sub.operand_list(T.INDEX))
    sub.done()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("tensor.extract")
def _extract(c: Cursor, st: OpState) -> None:
    read_element_access(c, st)


@reader("tensor.insert")
def _insert(c: Cursor, st: OpState) -> None:
    v = c.operand()
    c.keyword("into")
    t = c.operand()
    idx = c.index_list()
    c.optional_attr_dict(st)
    t.type = c.colon_type()
    v.type = element_type(t.type)
    st.refs.extend([v, t] + idx)
    st.result_types.append(t.type)


@reader("tensor.dim")
def _dim(c: Cursor, st: OpState) -> None:
    t = c.operand()
    c.punct(",")
    i = c.operand(T.INDEX)
    c.optional_attr_dict(st)
    t.type = c.colon_type()
    st.refs.extend([t, i])
    st.result_types.append(T.INDEX)


@reader("tensor.rank")
def _rank(c: Cursor, st: OpState) -> None:
    t = c.operand()
    c.optional_attr_dict(st)
    t.type = c.colon_type()
    st.refs.append(t)
    st.result_types.append(T.INDEX)


cast_op("tensor.cast", "Casts between compatible tensor types.")
cast_op("tensor.bitcast", "Reinterprets the element type of a tensor.")


def _reshape_like(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        t = c.operand()
        reassociation(c, st)
        refs = mixed_list(c) if c.optional_keyword("output_shape") else []
        c.optional_attr_dict(st)
        t.type = c.colon_type()
        c.keyword("into")
        st.refs.extend([t] + refs)
        st.result_types.append(c.type())

    reader(name)(parse)


_reshape_like("tensor.expand_shape", "Splits dimensions of a tensor.")
_reshape_like("tensor.collapse_shape", "Merges dimensions of a tensor.")


@reader("tensor.from_elements")
def _from_elements(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    c.optional_attr_dict(st)
    ty = c.colon_type()
    for r in refs:
        r.type = element_type(ty)
    st.refs.extend(refs)
    st.result_types.append(ty)


@reader("tensor.splat")
def _splat(c: Cursor, st: OpState) -> None:
    v = c.operand()
    dyn = c.index_list() if c.is_group("[") else []
    c.optional_attr_dict(st)
    ty = c.colon_type()
    v.type = element_type(ty)
    st.refs.extend([v] + dyn)
    st.result_types.append(ty)


@reader("tensor.generate")
def _generate(c: Cursor, st: OpState) -> None:
    st.refs.extend(c.operand_list(T.INDEX))
    st.add_region(c.region())
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@reader("tensor.yield")
def _yield(c: Cursor, st: OpState) -> None:
    typed_operand_list(c, st)
    c.optional_attr_dict(st)


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


def _slice_lists(c: Cursor) -> list:
    return mixed_list(c) + mixed_list(c) + mixed_list(c)


@reader("tensor.extract_slice")
def _extract_slice(c: Cursor, st: OpState) -> None:
    t = c.operand()
    refs = _slice_lists(c)
    c.optional_attr_dict(st)
    t.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([t] + refs)
    st.result_types.append(c.type())


def _insert_slice(name: str, summary: str, has_result: bool) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        src = c.operand()
        c.keyword("into")
        dst = c.operand()
        refs = _slice_lists(c)
        c.optional_attr_dict(st)
        src.type = c.colon_type()
        c.keyword("into")
        dst.type = c.type()
        st.refs.extend([src, dst] + refs)
        if has_result:
            st.result_types.append(dst.type)

    reader(name)(parse)


_insert_slice("tensor.insert_slice", "A tensor with a slice replaced.", True)
_insert_slice("tensor.parallel_insert_slice", "Inserts a slice into a shared output of scf.forall.", False)


@reader("tensor.reshape")
def _reshape(c: Cursor, st: OpState) -> None:
    t = c.operand()
    sub = c.group("(")
    shape = sub.operand()
    sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if len(fn.inputs) == 2:
        t.type, shape.type = fn.inputs
    st.refs.extend([t, shape])
    st.result_types.extend(fn.results)


@reader("tensor.concat")
def _concat(c: Cursor, st: OpState) -> None:
    c.keyword("dim")
    sub = c.group("(")
    sub.integer()
    sub.done()
    refs = c.operand_list()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)
