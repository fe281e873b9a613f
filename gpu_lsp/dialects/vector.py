"""The vector dialect: n-D vector values, their memory transfers, reductions and masks."""

from __future__ import annotations

from gpu_lsp.dialects.arith import read_modifiers
from gpu_lsp.dialects.common import element_type
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DialectAttr, StringAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.parser.cursor import Cursor, OpState, Ref

DYNAMIC = -(2**63)


def index_list(c: Cursor, opener: str = "[") -> tuple[list[Ref], list[int]]:
    """`[0, %i, 2]`: SSA index operands and the static positions (DYNAMIC for operands)."""
    sub = c.group(opener)
    refs: list[Ref] = []
    static: list[int] = []
    while not sub.at_end:
        if sub.is_operand():
            refs.append(sub.operand(T.INDEX))
            static.append(DYNAMIC)
        else:
            static.append(sub.integer())
        if sub.at_end:
            break
        sub.punct(",")
    return refs, static


def _kind(c: Cursor, st: OpState) -> None:
    """`<add>` combining kind."""
    c.punct("<")
    st.properties["kind"] = DialectAttr("vector", "kind", c.any_keyword().value)
    c.punct(">")


@reader("vector.scalable.extract")
def _scalable_extract(c: Cursor, st: OpState) -> None:
    src = c.operand()
    sub = c.group("[")
    sub.integer()
    sub.done()
    c.optional_attr_dict(st)
    result = c.colon_type()
    c.keyword("from")
    src.type = c.type()
    st.refs.append(src)
    st.result_types.append(result)


@reader("vector.scalable.insert")
def _scalable_insert(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    dest = c.operand()
    sub = c.group("[")
    sub.integer()
    sub.done()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("into")
    dest.type = c.type()
    st.refs.extend([src, dest])
    st.result_types.append(dest.type)


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


@reader("vector.reduction")
def _reduction(c: Cursor, st: OpState) -> None:
    _kind(c, st)
    c.punct(",")
    src = c.operand()
    acc = None
    if c.optional_punct(","):
        acc = c.operand()
    read_modifiers(c, st)
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("into")
    result = c.type()
    if acc is not None:
        acc.type = result
    st.refs.extend([src] + ([acc] if acc is not None else []))
    st.result_types.append(result)


@reader("vector.multi_reduction")
def _multi_reduction(c: Cursor, st: OpState) -> None:
    _kind(c, st)
    c.punct(",")
    src = c.operand()
    c.punct(",")
    acc = c.operand()
    st.properties["reduction_dims"] = c.attr()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("to")
    result = c.type()
    acc.type = result
    st.refs.extend([src, acc])
    st.result_types.append(result)


@reader("vector.scan")
def _scan(c: Cursor, st: OpState) -> None:
    _kind(c, st)
    c.punct(",")
    src = c.operand()
    c.punct(",")
    init = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.punct(",")
    init.type = c.type()
    st.refs.extend([src, init])
    st.result_types.extend([src.type, init.type])


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


@reader("vector.to_elements")
def _to_elements(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    st.refs.append(src)
    count = 1
    if isinstance(src.type, T.VectorType):
        for d in src.type.shape:
            count *= d
    st.result_types.extend([element_type(src.type)] * count)


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


@reader("vector.gather")
def _gather(c: Cursor, st: OpState) -> None:
    _indexed_vector_access(c, st)
    c.keyword("into")
    st.result_types.append(c.type())


def _indexed_vector_access(c: Cursor, st: OpState) -> None:
    """`%base[%i][%idxs], %mask, %v attr-dict : B, I, M, V`, shared by gather and scatter."""
    base, idx = _base_indices(c)
    sub = c.group("[")
    vec = sub.operand()
    sub.done()
    c.punct(",")
    mask = c.operand()
    c.punct(",")
    value = c.operand()
    c.optional_attr_dict(st)
    base.type = c.colon_type()
    for ref in (vec, mask, value):
        c.punct(",")
        ref.type = c.type()
    st.refs.extend([base] + idx + [vec, mask, value])


@reader("vector.scatter")
def _scatter(c: Cursor, st: OpState) -> None:
    _indexed_vector_access(c, st)
    if c.optional_punct("->"):
        st.result_types.append(c.type())


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


@reader("vector.shuffle")
def _shuffle(c: Cursor, st: OpState) -> None:
    a = c.operand()
    c.punct(",")
    b = c.operand()
    mask = c.attr()
    c.optional_attr_dict(st)
    a.type = c.colon_type()
    c.punct(",")
    b.type = c.type()
    count = len(getattr(mask, "elements", ()))
    if isinstance(a.type, T.VectorType) and a.type.shape:
        result: T.Type = T.VectorType((count,) + a.type.shape[1:], a.type.element)
    else:
        result = T.VectorType((count,), element_type(a.type))
    st.refs.extend([a, b])
    st.result_types.append(result)


@reader("vector.deinterleave")
def _deinterleave(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.punct("->")
    ty = c.type()
    st.refs.append(src)
    st.result_types.extend([ty, ty])

