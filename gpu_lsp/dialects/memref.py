"""The memref dialect: allocation, load/store, dim, cast, copy, globals."""

from __future__ import annotations

from gpu_lsp.dialects.common import cast_op, element_type, mixed_list, mixed_values, read_element_access, read_tolerant, reassociation, typed_operand_list
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import DenseArrayAttr, OpaqueAttr, StringAttr
from gpu_lsp.parser.cursor import SYMBOL_NAME, Cursor, OpState


@op("memref.load", "", "Loads an element from a memref.", "%v = memref.load %m[%i, ...] : memref<...>")
def _load(c: Cursor, st: OpState) -> None:
    read_element_access(c, st)


@op("memref.store", "", "Stores an element into a memref.", "memref.store %v, %m[%i, ...] : memref<...>")
def _store(c: Cursor, st: OpState) -> None:
    v = c.operand()
    c.punct(",")
    m = c.operand()
    idx = c.index_list()
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


cast_op("memref.cast", "Casts between compatible memref types.")
cast_op("memref.memory_space_cast", "Changes the memory space of a memref.")


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


@op("memref.subview", "pure", "A strided view of a part of a memref.", "%v = memref.subview %m[%o, 0] [%n, 4] [1, 1] : T to U")
def _subview(c: Cursor, st: OpState) -> None:
    m = c.operand()
    refs: list = []
    sizes = []
    for name in ("static_offsets", "static_sizes", "static_strides"):
        dyn, statics = mixed_values(c)
        refs.extend(dyn)
        sizes.append(len(dyn))
        st.properties[name] = statics
    st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, (1, *sizes))
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([m] + refs)
    st.result_types.append(c.type())


@op("memref.view", "pure", "A typed view of a byte buffer at a byte offset.", "%v = memref.view %buf[%off][%n] : memref<2048xi8> to memref<?x4xf32>")
def _view(c: Cursor, st: OpState) -> None:
    buf = c.operand()
    refs = mixed_list(c) + mixed_list(c)
    c.optional_attr_dict(st)
    buf.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([buf] + refs)
    st.result_types.append(c.type())


def _reshape_like(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        m = c.operand()
        reassociation(c, st)
        refs = mixed_list(c) if c.optional_keyword("output_shape") else []
        c.optional_attr_dict(st)
        m.type = c.colon_type()
        c.keyword("into")
        st.refs.extend([m] + refs)
        st.result_types.append(c.type())

    op(name, "pure", summary, f"%r = {name} %m [[0, 1]] : T into U")(parse)


_reshape_like("memref.expand_shape", "Splits dimensions of a memref.")
_reshape_like("memref.collapse_shape", "Merges dimensions of a memref.")


@op(
    "memref.reinterpret_cast",
    "pure",
    "A view of a memref's buffer with a new offset, sizes and strides.",
    "%r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : T to U",
)
def _reinterpret_cast(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.keyword("to")
    refs = []
    counts = []
    for word in ("offset", "sizes", "strides"):
        c.keyword(word)
        c.punct(":")
        dyn, statics = mixed_values(c)
        refs.extend(dyn)
        counts.append(len(dyn))
        st.properties["static_offsets" if word == "offset" else f"static_{word}"] = statics
        if word != "strides":
            c.punct(",")
    st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, (1, *counts))
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([m] + refs)
    st.result_types.append(c.type())


@op("memref.reshape", "pure", "Reshapes a memref to a shape given as a memref.", "%r = memref.reshape %m(%shape) : (T, memref<2xindex>) -> U")
def _reshape(c: Cursor, st: OpState) -> None:
    m = c.operand()
    sub = c.group("(")
    shape = sub.operand()
    sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if len(fn.inputs) == 2:
        m.type, shape.type = fn.inputs
    st.refs.extend([m, shape])
    st.result_types.extend(fn.results)


@op("memref.rank", "pure", "The rank of a memref.", "%r = memref.rank %m : memref<*xf32>")
def _rank(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.append(m)
    st.result_types.append(T.INDEX)


@op("memref.realloc", "", "Grows or shrinks a 1-D buffer.", "%r = memref.realloc %m [(%n)] : T to U")
def _realloc(c: Cursor, st: OpState) -> None:
    m = c.operand()
    refs = []
    if c.is_group("("):
        sub = c.group("(")
        refs = sub.operand_list(T.INDEX)
        sub.done()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    c.keyword("to")
    st.refs.extend([m] + refs)
    st.result_types.append(c.type())


@op(
    "memref.assume_alignment",
    "pure",
    "Asserts that a memref's buffer is aligned; returns the same memref.",
    "%r = memref.assume_alignment %m, 16 : memref<...>",
)
def _assume_alignment(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.punct(",")
    c.integer()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    st.refs.append(m)
    if st.num_results:
        st.result_types.append(m.type)


@op(
    "memref.extract_aligned_pointer_as_index",
    "pure",
    "The aligned pointer of a memref as an index.",
    "%p = memref.extract_aligned_pointer_as_index %m : memref<...> -> index",
)
def _extract_aligned_pointer(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    c.punct("->")
    st.refs.append(m)
    st.result_types.append(c.type())


@op(
    "memref.extract_strided_metadata",
    "pure",
    "The base buffer, offset, sizes and strides of a memref.",
    "%base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<...> -> memref<f32>, index, index, index, index, index",
)
def _extract_strided_metadata(c: Cursor, st: OpState) -> None:
    m = c.operand()
    c.optional_attr_dict(st)
    m.type = c.colon_type()
    c.punct("->")
    st.refs.append(m)
    st.result_types.extend(c.type_list())


@op(
    "memref.alloca_scope",
    "",
    "A region whose stack allocations are freed at its end.",
    "%r = memref.alloca_scope [-> (T)] { ... memref.alloca_scope.return %v : T }",
)
def _alloca_scope(c: Cursor, st: OpState) -> None:
    if c.optional_punct("->"):
        st.result_types.extend(c.result_types())
    st.add_region(c.region())
    c.optional_attr_dict(st)


def _typed_terminator(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        c.optional_attr_dict(st)
        typed_operand_list(c, st)

    op(name, "terminator return_like", summary, f"{name} [%v : T]")(parse)


_typed_terminator("memref.alloca_scope.return", "Ends a memref.alloca_scope region.")
_typed_terminator("memref.atomic_yield", "Ends the region of memref.generic_atomic_rmw with the new value.")


@op(
    "memref.atomic_rmw",
    "",
    "Atomic read-modify-write of one element; returns the old value.",
    "%old = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32",
)
def _atomic_rmw(c: Cursor, st: OpState) -> None:
    st.extra["kind"] = c.any_keyword().value
    v = c.operand()
    c.punct(",")
    m = c.operand()
    idx = c.index_list()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if len(fn.inputs) == 2:
        v.type, m.type = fn.inputs
    st.refs.extend([v, m] + idx)
    st.result_types.extend(fn.results)


@op(
    "memref.generic_atomic_rmw",
    "",
    "Atomic read-modify-write of one element with the update computed by a region.",
    "%old = memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%cur: f32): ... memref.atomic_yield %new : f32 }",
)
def _generic_atomic_rmw(c: Cursor, st: OpState) -> None:
    m = c.operand()
    idx = c.index_list()
    m.type = c.colon_type()
    st.refs.extend([m] + idx)
    st.add_region(c.region())
    c.optional_attr_dict(st)
    st.result_types.append(element_type(m.type))


@op("memref.prefetch", "", "Prefetches a memref element into the cache.", "memref.prefetch %m[%i], read, locality<3>, data : memref<...>")
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


for _name in ("memref.transpose", "memref.dma_start", "memref.dma_wait", "memref.distinct_objects"):
    op(_name, "", "A memref operation (read loosely).")(read_tolerant)
