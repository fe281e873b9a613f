"""The gpu dialect: every op's custom syntax (GPUOps.td assembly formats and custom parsers)."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import ArrayAttr, DenseArrayAttr, DictAttr, IntegerAttr, UnitAttr
from gpu_lsp.ir.opdefs import definition, reader
from gpu_lsp.ir.opdefs.common_read import (
    arg_def,
    attr_dict_after_reader,
    paren_typed_operands,
    read_optional_body,
    read_signature,
    read_symbol_name,
    typed_arg_defs,
)
from gpu_lsp.ir.opdefs.format import read_format
from gpu_lsp.ir.opdefs.format_customs import read_async_dependencies
from gpu_lsp.syntax.cursor import ArgDef, Cursor, FormatError, OpState


def segments(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(T.I32, tuple(sizes))


# --- shared pieces ----------------------------------------------------------------------------


def read_async(c: Cursor, st: OpState) -> tuple[bool, int]:
    """The async prefix of an op with a hand-written reader; returns (async, number of deps)."""
    is_async, refs = read_async_dependencies(c, st)
    st.refs.extend(refs)
    return is_async, len(refs)


def add_token(st: OpState, is_async: bool) -> None:
    if is_async:
        st.result_types.append(T.TOKEN)


def read_cooperative(c: Cursor, st: OpState) -> None:
    """The `cooperative` keyword of gpu.launch and gpu.launch_func (UnitAttr:$cooperative)."""
    if c.optional_keyword("cooperative"):
        st.properties["cooperative"] = UnitAttr()


def read_attributions(c: Cursor, keyword: str, st: OpState | None = None) -> list[ArgDef]:
    """`workgroup(%a : T {attrs}?, ...)` / `private(...)`: the attributions, none without the keyword.

    With `st` (gpu.func), their attribute dictionaries become `{keyword}_attrib_attrs` when one
    is not empty, as upstream's parser keeps them."""
    if not c.optional_keyword(keyword):
        return []
    attrs: list[DictAttr] = []
    args = typed_arg_defs(c, attrs)
    if st is not None and any(a.entries for a in attrs):
        st.properties[f"{keyword}_attrib_attrs"] = ArrayAttr(tuple(attrs))
    return args


def read_size_assignment(c: Cursor, keyword: str) -> tuple[list[ArgDef], list[ArgDef], list]:
    """`kw(%x, %y, %z) in (%sx = %a, %sy = %b, %sz = %c)`: ids, size args, size operands."""
    c.keyword(keyword)
    ids_cursor = c.group("(")
    ids: list[ArgDef] = []
    while not ids_cursor.at_end:
        tok = ids_cursor.def_value()
        ids.append(arg_def(tok, T.INDEX))
        if ids_cursor.at_end:
            break
        ids_cursor.punct(",")
    c.keyword("in")
    sizes_cursor = c.group("(")
    if len(ids) != 3:
        c.fail_at_name(f"{keyword} expects 3 arguments, but got {len(ids)}")
    size_args: list[ArgDef] = []
    refs = []
    for i in range(3):  # upstream reads exactly three: `expected ','` / `expected ')'` otherwise
        if i:
            sizes_cursor.punct(",")
        tok = sizes_cursor.def_value()
        sizes_cursor.punct("=")
        refs.append(sizes_cursor.operand(T.INDEX))
        size_args.append(arg_def(tok, T.INDEX))
    if not sizes_cursor.at_end:
        sizes_cursor.expected_by_parser("')'")
    return ids, size_args, refs


def read_dim3_operands(c: Cursor, keyword: str, ty: T.Type | None) -> list:
    """`kw in (%a, %b, %c)` (launch_func sizes)."""
    c.keyword(keyword)
    c.keyword("in")
    sub = c.group("(")
    refs = []
    for i in range(3):  # upstream reads exactly three: `expected ','` / `expected ')'` otherwise
        if i:
            sub.punct(",")
        refs.append(sub.operand(ty))
    if not sub.at_end:
        sub.expected_by_parser("')'")
    return refs


# --- structure and launch ops -----------------------------------------------------------------


@reader("gpu.func")
def _func(c: Cursor, st: OpState) -> None:
    read_symbol_name(c, st)
    start, end = c.here()
    args, _, named = read_signature(c, st)
    if args and not named:
        raise FormatError("gpu.func requires named arguments", start, end)
    workgroup = read_attributions(c, "workgroup", st)
    private = read_attributions(c, "private", st)
    if c.optional_keyword("kernel"):
        st.attributes["gpu.kernel"] = UnitAttr()
    attr_dict_after_reader(c, st)
    st.attributes["workgroup_attributions"] = IntegerAttr(len(workgroup), T.I64)
    read_optional_body(c, st, args + workgroup + private)


@reader("gpu.launch")
def _launch(c: Cursor, st: OpState) -> None:
    is_async, ndeps = read_async(c, st)
    if not is_async:
        _without_async(c, st, ndeps)
    cluster_ids: list[ArgDef] = []
    cluster_sizes: list[ArgDef] = []
    cluster_refs: list = []
    if c.is_keyword("clusters"):
        cluster_ids, cluster_sizes, cluster_refs = read_size_assignment(c, "clusters")
    block_ids, grid_sizes, grid_refs = read_size_assignment(c, "blocks")
    thread_ids, block_sizes, block_refs = read_size_assignment(c, "threads")
    st.refs.extend(grid_refs)
    st.refs.extend(block_refs)
    st.refs.extend(cluster_refs)
    dsm = 0
    if c.optional_keyword("dynamic_shared_memory_size"):
        st.refs.append(c.operand(T.I32))
        dsm = 1
    if c.optional_keyword("module"):
        sub = c.group("(")
        st.properties["module"] = sub.symbol()
        sub.done()
    if c.optional_keyword("function"):
        sub = c.group("(")
        st.properties["function"] = sub.symbol()
        sub.done()
    read_cooperative(c, st)
    workgroup = read_attributions(c, "workgroup")
    private = read_attributions(c, "private")
    args = block_ids + thread_ids + grid_sizes + block_sizes + cluster_ids + cluster_sizes + workgroup + private
    st.add_region(c.region(), args)
    c.optional_attr_dict(st)
    nc = 1 if cluster_refs else 0
    st.properties["operandSegmentSizes"] = segments(ndeps, 1, 1, 1, 1, 1, 1, nc, nc, nc, dsm)
    st.attributes.setdefault("workgroup_attributions", IntegerAttr(len(workgroup), T.I64))
    add_token(st, is_async or st.num_results > 0)  # named without `async` and on dependencies: their use is the error


def _without_async(c: Cursor, st: OpState, ndeps: int) -> None:
    """gpu.launch without `async`, as upstream's parser reads it: its dependencies are resolved with
    no type (a value defined before them is then used with another type: that error comes first), and
    a result named is an error at the op's name."""
    if ndeps:
        for ref in st.refs[-ndeps:]:
            ref.type = T.NULL
    elif st.num_results:
        raise FormatError("gpu.launch requires 'async' keyword to return a value", *c.ctx.name_range)


# --- collectives, synchronisation and debug ---------------------------------------------------


@reader("gpu.warp_execute_on_lane_0")
def _warp_execute(c: Cursor, st: OpState) -> None:
    sub = c.group("(")
    st.refs.append(sub.operand(T.INDEX))
    sub.done()
    size = c.group("[")
    st.properties["warp_size"] = IntegerAttr(size.integer(), T.I64)
    size.done()
    region_args: list[ArgDef] = []
    if c.optional_keyword("args"):
        st.refs.extend(paren_typed_operands(c, "')'"))
    if c.optional_punct("->"):
        st.result_types.extend(c.paren_type_list())
    raw = c.region()
    st.add_region(raw, region_args)
    c.optional_attr_dict(st)


# --- custom<AsyncDependencies> ---------------------------------------------------------------


@reader("gpu.printf")
def _printf(c: Cursor, st: OpState) -> None:
    """The declared format, and a clearer error than a stray operand for the old syntax (no ',')."""
    read_format(c, st, definition("gpu.printf"))
    if c.is_operand():
        c.expected("',' between the format string and the arguments")


