"""The vector dialect: n-D vector values, their memory transfers, reductions and masks."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, DialectAttr, StringAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.ir.opdefs.common_read import element_type
from gpu_lsp.ir.opdefs.format_read import FormatState, infers_types
from gpu_lsp.syntax.cursor import Cursor, OpState, Ref


def _base_indices(c: Cursor) -> tuple[Ref, list[Ref]]:
    base = c.operand()
    return base, c.index_list()


@reader("vector.transfer_read")
def _transfer_read(c: Cursor, st: OpState) -> None:
    base, idx = _base_indices(c)
    pad = mask = None
    if c.optional_punct(","):
        pad = c.operand()
        if c.optional_punct(","):
            mask = c.operand()
    c.optional_attr_dict(st)
    base.type = c.colon_type()
    c.punct(",")
    result = c.type()
    if pad is not None:
        elem = element_type(base.type)
        pad.type = None if isinstance(elem, T.VectorType) else elem
    st.refs.extend([base] + idx + [r for r in (pad, mask) if r is not None])
    st.result_types.append(result)


@reader("vector.transfer_write")
def _transfer_write(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    base, idx = _base_indices(c)
    mask = None
    if c.optional_punct(","):
        mask = c.operand()
    c.optional_attr_dict(st)
    value.type = c.colon_type()
    c.punct(",")
    base.type = c.type()
    st.refs.extend([value, base] + idx + ([mask] if mask is not None else []))
    if isinstance(base.type, (T.TensorType, T.UnrankedTensorType)):
        st.result_types.append(base.type)


@reader("vector.contract")
def _contract(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    refs = c.operand_list()
    if len(refs) not in (3, 5):
        c.fail("expected 3 operands (lhs, rhs, acc) or 5 with masks")
    c.optional_attr_dict(st)
    lhs, rhs, acc = refs[:3]
    lhs.type = c.colon_type()
    c.punct(",")
    rhs.type = c.type()
    c.keyword("into")
    result = c.type()
    acc.type = result
    st.refs.extend(refs)
    st.result_types.append(result)


@reader("vector.print")
def _print(c: Cursor, st: OpState) -> None:
    if c.is_operand():
        ref = c.operand()
        ref.type = c.colon_type()
        st.refs.append(ref)
    while True:
        if c.optional_keyword("str"):
            st.properties["stringLiteral"] = StringAttr(c.string())
        elif c.optional_keyword("punctuation"):
            c.punct("<")
            st.properties["punctuation"] = DialectAttr("vector", "punctuation", c.any_keyword().value)
            c.punct(">")
        else:
            break
    c.optional_attr_dict(st)


@reader("vector.mask")
def _mask(c: Cursor, st: OpState) -> None:
    mask = c.operand()
    passthru = None
    if c.optional_punct(","):
        passthru = c.operand()
    st.add_region(c.region())
    c.optional_attr_dict(st)
    mask.type = c.colon_type()
    st.refs.append(mask)
    if c.optional_punct("->"):
        st.result_types.extend(c.type_list())
    if passthru is not None:
        passthru.type = st.result_types[0] if st.result_types else None
        st.refs.append(passthru)


@reader("vector.outerproduct")
def _outerproduct(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    if len(refs) not in (2, 3):
        c.fail("expected 2 or 3 operands")
    c.optional_attr_dict(st)
    lhs = c.colon_type()
    c.punct(",")
    rhs = c.type()
    refs[0].type, refs[1].type = lhs, rhs
    if isinstance(lhs, T.VectorType) and isinstance(rhs, T.VectorType) and lhs.shape and rhs.shape:
        pair = (bool(lhs.scalable and lhs.scalable[0]), bool(rhs.scalable and rhs.scalable[0]))
        scalable = pair if any(pair) else ()
        result: T.Type = T.VectorType((lhs.shape[0], rhs.shape[0]), lhs.element, scalable)
    else:
        result = lhs
    if len(refs) == 3:
        refs[2].type = result
    st.refs.extend(refs)
    st.result_types.append(result)


@infers_types("vector.shuffle")
def _shuffle_result(st: OpState, fs: FormatState) -> None:
    """The mask's length, then v1's trailing dimensions (a 0-D v1 gives a 1-D result)."""
    v1 = fs.types.get("v1", [T.UNKNOWN])[0]
    mask = st.properties.get("mask")
    count = len(mask.values) if isinstance(mask, DenseArrayAttr) else 0
    trailing = v1.shape[1:] if isinstance(v1, T.VectorType) else ()
    fs.types["vector"] = [T.VectorType((count, *trailing), element_type(v1))]


@infers_types("vector.to_elements")
def _to_elements_results(st: OpState, fs: FormatState) -> None:
    """One scalar of the element type per element of the source vector."""
    source = fs.types.get("source", [T.UNKNOWN])[0]
    count = 1
    if isinstance(source, T.VectorType):
        for d in source.shape:
            count *= d
    fs.types["elements"] = [element_type(source)] * count
