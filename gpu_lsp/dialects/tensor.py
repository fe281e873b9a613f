"""The tensor dialect: creating, reading, slicing and reshaping immutable tensor values."""

from __future__ import annotations

from gpu_lsp.dialects.common import mixed_list, reassociation
from gpu_lsp.ir.attributes import UnitAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState


def _reshape_like(name: str) -> None:
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


_reshape_like("tensor.expand_shape")
_reshape_like("tensor.collapse_shape")


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


def _insert_slice(name: str, has_result: bool) -> None:
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


_insert_slice("tensor.insert_slice", True)
_insert_slice("tensor.parallel_insert_slice", False)


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
