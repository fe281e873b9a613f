"""The vector dialect: n-D vector values, their memory transfers, reductions and masks."""

from __future__ import annotations

from gpu_lsp.dialects.arith import read_modifiers
from gpu_lsp.dialects.common import cast_op, element_type, typed_operand_list
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, DialectAttr, StringAttr
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


@op("vector.broadcast", "pure", "Broadcasts a scalar or vector to a vector of higher rank.", "%v = vector.broadcast %s : f32 to vector<4xf32>")
def _broadcast(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("to")
    st.refs.append(src)
    st.result_types.append(c.type())


@op("vector.extract", "pure", "Extracts an element or a sub-vector at static or dynamic positions.", "%e = vector.extract %v[0, %i] : f32 from vector<4x8xf32>")
def _extract(c: Cursor, st: OpState) -> None:
    src = c.operand()
    refs, static = index_list(c)
    st.properties["static_position"] = DenseArrayAttr(T.I64, tuple(static))
    c.optional_attr_dict(st)
    result = c.colon_type()
    c.keyword("from")
    src.type = c.type()
    st.refs.extend([src] + refs)
    st.result_types.append(result)


@op(
    "vector.insert",
    "pure",
    "Inserts an element or a sub-vector at static or dynamic positions.",
    "%r = vector.insert %s, %v[0, %i] : f32 into vector<4x8xf32>",
)
def _insert(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    dest = c.operand()
    refs, static = index_list(c)
    st.properties["static_position"] = DenseArrayAttr(T.I64, tuple(static))
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("into")
    dest.type = c.type()
    st.refs.extend([src, dest] + refs)
    st.result_types.append(dest.type)


@op(
    "vector.scalable.extract",
    "pure",
    "Extracts a fixed-length vector from a scalable one.",
    "%r = vector.scalable.extract %v[0] : vector<4xf32> from vector<[8]xf32>",
)
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


@op(
    "vector.scalable.insert",
    "pure",
    "Inserts a fixed-length vector into a scalable one.",
    "%r = vector.scalable.insert %v, %acc[0] : vector<4xf32> into vector<[8]xf32>",
)
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


@op("vector.load", "", "Loads a vector from a memref at the given indices.", "%v = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>")
def _load(c: Cursor, st: OpState) -> None:
    base, idx = _base_indices(c)
    c.optional_attr_dict(st)
    base.type = c.colon_type()
    c.punct(",")
    st.refs.extend([base] + idx)
    st.result_types.append(c.type())


@op("vector.store", "", "Stores a vector into a memref at the given indices.", "vector.store %v, %m[%i] : memref<?xf32>, vector<8xf32>")
def _store(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    base, idx = _base_indices(c)
    c.optional_attr_dict(st)
    base.type = c.colon_type()
    c.punct(",")
    value.type = c.type()
    st.refs.extend([value, base] + idx)


def _masked_read(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        base, idx = _base_indices(c)
        c.punct(",")
        mask = c.operand()
        c.punct(",")
        passthru = c.operand()
        c.optional_attr_dict(st)
        base.type = c.colon_type()
        c.punct(",")
        mask.type = c.type()
        c.punct(",")
        passthru.type = c.type()
        c.keyword("into")
        st.refs.extend([base] + idx + [mask, passthru])
        st.result_types.append(c.type())

    op(name, "", summary, f"%v = {name} %m[%i], %mask, %pass : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>")(parse)


def _masked_write(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        base, idx = _base_indices(c)
        c.punct(",")
        mask = c.operand()
        c.punct(",")
        value = c.operand()
        c.optional_attr_dict(st)
        base.type = c.colon_type()
        c.punct(",")
        mask.type = c.type()
        c.punct(",")
        value.type = c.type()
        st.refs.extend([base] + idx + [mask, value])

    op(name, "", summary, f"{name} %m[%i], %mask, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>")(parse)


_masked_read("vector.maskedload", "Loads the enabled lanes of a vector; the others come from a pass-through vector.")
_masked_read("vector.expandload", "Loads consecutive elements into the enabled lanes of a vector.")
_masked_write("vector.maskedstore", "Stores the enabled lanes of a vector.")
_masked_write("vector.compressstore", "Stores the enabled lanes of a vector consecutively.")


@op(
    "vector.transfer_read",
    "",
    "Reads a vector from a memref or tensor slice, with padding and an optional mask.",
    "%v = vector.transfer_read %m[%i, %j], %pad [, %mask] {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>",
)
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


@op(
    "vector.transfer_write",
    "",
    "Writes a vector to a memref or tensor slice, with an optional mask; returns the new tensor for tensors.",
    "[%t =] vector.transfer_write %v, %m[%i] [, %mask] {in_bounds = [true]} : vector<4xf32>, memref<?xf32>",
)
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


@op(
    "vector.reduction",
    "pure",
    "Reduces a 1-D vector to a scalar, optionally with an accumulator.",
    "%r = vector.reduction <add>, %v [, %acc] : vector<16xf32> into f32",
)
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


@op(
    "vector.multi_reduction",
    "pure",
    "Reduces a vector along some dimensions into an accumulator.",
    "%r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>",
)
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


@op(
    "vector.scan",
    "pure",
    "Inclusive or exclusive scan of a vector along one dimension.",
    "%r, %acc = vector.scan <add>, %v, %init {reduction_dim = 1 : i64, inclusive = true} : vector<4x8xf32>, vector<4xf32>",
)
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


@op(
    "vector.contract",
    "pure",
    "Generalised contraction (matmul, dot product) of two vectors into an accumulator.",
    "%r = vector.contract {indexing_maps = [...], iterator_types = [...]} %a, %b, %acc : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>",
)
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


cast_op("vector.shape_cast", "Reshapes a vector keeping its elements in order.")
cast_op("vector.bitcast", "Reinterprets the bits of a vector with another element type.")
cast_op("vector.type_cast", "Views a memref of scalars as a memref of one vector.")
cast_op("vector.extract_strided_slice", "Extracts a strided slice of a vector ({offsets, sizes, strides}).")


@op("vector.transpose", "pure", "Permutes the dimensions of a vector.", "%r = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>")
def _transpose(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    st.properties["permutation"] = c.attr()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("to")
    st.refs.append(src)
    st.result_types.append(c.type())


@op(
    "vector.insert_strided_slice",
    "pure",
    "Inserts a vector into a strided slice of another.",
    "%r = vector.insert_strided_slice %a, %b {offsets = [..], strides = [..]} : vector<2x4xf32> into vector<16x4x8xf32>",
)
def _insert_strided_slice(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    dest = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.keyword("into")
    dest.type = c.type()
    st.refs.extend([src, dest])
    st.result_types.append(dest.type)


@op("vector.fma", "pure", "Fused multiply-add on vectors.", "%r = vector.fma %a, %b, %c : vector<4xf32>")
def _fma(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    if len(refs) != 3:
        c.fail("expected 3 operands")
    c.optional_attr_dict(st)
    ty = c.colon_type()
    for r in refs:
        r.type = ty
    st.refs.extend(refs)
    st.result_types.append(ty)


@op("vector.from_elements", "pure", "Builds a vector from scalars.", "%v = vector.from_elements %a, %b : vector<2xf32>")
def _from_elements(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    c.optional_attr_dict(st)
    ty = c.colon_type()
    for r in refs:
        r.type = element_type(ty)
    st.refs.extend(refs)
    st.result_types.append(ty)


@op("vector.to_elements", "pure", "Splits a vector into its scalar elements.", "%a, %b = vector.to_elements %v : vector<2xf32>")
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


@op("vector.step", "pure", "The vector [0, 1, ..., N-1].", "%v = vector.step : vector<4xindex>")
def _step(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op("vector.vscale", "pure", "The runtime multiple of scalable vector lengths.", "%vs = vector.vscale")
def _vscale(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(T.INDEX)


@op("vector.constant_mask", "pure", "A mask with a static leading region set.", "%m = vector.constant_mask [3, 2] : vector<4x3xi1>")
def _constant_mask(c: Cursor, st: OpState) -> None:
    st.properties["mask_dim_sizes"] = c.attr()
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op("vector.create_mask", "pure", "A mask with a dynamic leading region set.", "%m = vector.create_mask %a, %b : vector<4x3xi1>")
def _create_mask(c: Cursor, st: OpState) -> None:
    st.refs.extend(c.operand_list(T.INDEX))
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op("vector.print", "", "Prints a value, a string or punctuation (for tests and debugging).", 'vector.print %v : vector<4xf32> | vector.print str "text"')
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


@op(
    "vector.mask",
    "",
    "Applies a mask to the single maskable operation in its region.",
    "%r = vector.mask %m [, %pass] { vector.transfer_read ... } : vector<16xi1> [-> vector<16xf32>]",
)
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


@op("vector.yield", "terminator return_like pure", "Ends the region of vector.mask.", "vector.yield [%v : T]")
def _yield(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    typed_operand_list(c, st)


@op(
    "vector.gather",
    "",
    "Gathers elements from memory at base + index vector, for the enabled lanes.",
    "%g = vector.gather %m[%i][%idxs], %mask, %pass : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>",
)
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


@op(
    "vector.scatter",
    "",
    "Scatters the enabled lanes of a vector to memory at base + index vector.",
    "vector.scatter %m[%i][%idxs], %mask, %v : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32>",
)
def _scatter(c: Cursor, st: OpState) -> None:
    _indexed_vector_access(c, st)
    if c.optional_punct("->"):
        st.result_types.append(c.type())


@op(
    "vector.outerproduct",
    "pure",
    "Outer product of two vectors (or AXPY with a scalar), plus an optional accumulator.",
    "%r = vector.outerproduct %a, %b [, %acc] : vector<4xf32>, vector<8xf32>",
)
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


@op("vector.shuffle", "pure", "Picks elements of two vectors by a static mask.", "%r = vector.shuffle %a, %b [0, 3] : vector<2xf32>, vector<2xf32>")
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


@op("vector.interleave", "pure", "Interleaves two vectors lane by lane.", "%r = vector.interleave %a, %b : vector<4xi32> -> vector<8xi32>")
def _interleave(c: Cursor, st: OpState) -> None:
    a = c.operand()
    c.punct(",")
    b = c.operand()
    c.optional_attr_dict(st)
    a.type = b.type = c.colon_type()
    c.punct("->")
    st.refs.extend([a, b])
    st.result_types.append(c.type())


@op("vector.deinterleave", "pure", "Splits a vector into its even and odd lanes.", "%e, %o = vector.deinterleave %v : vector<8xi32> -> vector<4xi32>")
def _deinterleave(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.optional_attr_dict(st)
    src.type = c.colon_type()
    c.punct("->")
    ty = c.type()
    st.refs.append(src)
    st.result_types.extend([ty, ty])

