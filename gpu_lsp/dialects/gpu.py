"""The gpu dialect: every op's custom syntax (GPUOps.td assembly formats and custom parsers)."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_element_access, read_signature
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import (
    DenseArrayAttr,
    DialectAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from gpu_lsp.parser.cursor import SYMBOL_NAME, ArgDef, Cursor, FormatError, OpState

DIMS = ("x", "y", "z")
REDUCTION_KINDS = (
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf",
    "and", "or", "xor", "minimumf", "maximumf",
)
SHUFFLE_MODES = ("xor", "up", "down", "idx")


def segments(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr(T.I32, tuple(sizes))


# --- shared pieces ----------------------------------------------------------------------------


def read_async(c: Cursor, st: OpState) -> tuple[bool, int]:
    """`custom<AsyncDependencies>`: `[async] [[%dep, ...]]`; returns (async, number of deps).

    An unnamed `async` op is still read (with an unnamed token result) and
    marked, so that one diagnostic with a fix reports it.
    """
    tok = c.optional_keyword("async")
    if tok is not None and st.num_results == 0:
        st.extra["unnamed_async"] = (tok.start_pos, tok.end_pos)
    deps = 0
    if c.is_group("["):
        sub = c.group("[")
        refs = sub.operand_list(T.TOKEN)
        sub.done()
        st.refs.extend(refs)
        deps = len(refs)
    return tok is not None, deps


def add_token(st: OpState, is_async: bool) -> None:
    if is_async:
        st.result_types.append(T.TOKEN)


def read_dim(c: Cursor, st: OpState) -> None:
    tok = c.any_keyword()
    if tok.value not in DIMS:
        c.fail(f"expected one of x, y or z for the dimension, got '{tok.value}'", tok)
    st.properties["dimension"] = DialectAttr("gpu", "", f"dim {tok.value}")


def read_upper_bound(c: Cursor, st: OpState) -> None:
    if c.optional_keyword("upper_bound"):
        st.properties["upper_bound"] = IntegerAttr(c.integer(), T.INDEX)


def read_reduction_kind(c: Cursor, st: OpState, required: bool) -> None:
    tok = c.peek()
    if c.is_token("BARE") and not c.is_keyword("uniform"):
        c.next()
        if tok.value not in REDUCTION_KINDS:
            c.fail("invalid op kind", tok)
        st.properties["op"] = DialectAttr("gpu", "", f"all_reduce_op {tok.value}")
    elif required:
        c.fail("invalid op kind")


def read_attributions(c: Cursor, st: OpState, keyword: str) -> list[ArgDef]:
    """`workgroup(%a : T {attrs}?, ...)` / `private(...)`."""
    if not c.optional_keyword(keyword):
        return []
    sub = c.group("(")
    args: list[ArgDef] = []
    while not sub.at_end:
        tok = sub.def_value()
        sub.punct(":")
        ty = sub.type()
        if sub.is_attr_dict():
            sub.parse_dict_text(sub.next())
        args.append(ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, ty))
        if sub.at_end:
            break
        sub.punct(",")
    return args


def read_size_assignment(c: Cursor, keyword: str) -> tuple[list[ArgDef], list[ArgDef], list]:
    """`kw(%x, %y, %z) in (%sx = %a, %sy = %b, %sz = %c)`: ids, size args, size operands."""
    c.keyword(keyword)
    ids_cursor = c.group("(")
    ids: list[ArgDef] = []
    while not ids_cursor.at_end:
        tok = ids_cursor.def_value()
        ids.append(ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, T.INDEX))
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
        size_args.append(ArgDef(tok.value[1:], tok.start_pos, tok.end_pos, T.INDEX))
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


@op(
    "gpu.module",
    "isolated symbol symbol_table no_terminator graph",
    "A GPU device compilation unit holding gpu.func kernels and device functions.",
    "gpu.module @name [<handler>] [[#target, ...]] [attributes {...}] { ... }",
)
def _module(c: Cursor, st: OpState) -> None:
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    if c.optional_punct("<"):
        st.properties["offloadingHandler"] = c.attr()
        c.punct(">")
    if c.is_group("["):
        st.properties["targets"] = c.attr()
    c.attr_dict_with_keyword(st)
    st.add_region(c.region())


@op(
    "gpu.binary",
    "symbol",
    "Serialized device objects, usable as a kernel container by gpu.launch_func.",
    "gpu.binary @name [<handler>] [attr-dict] [#gpu.object<...>, ...]",
)
def _binary(c: Cursor, st: OpState) -> None:
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    if c.optional_punct("<"):
        st.properties["offloadingHandler"] = c.attr()
        c.punct(">")
    c.optional_attr_dict(st)
    st.properties["objects"] = c.attr()


@op(
    "gpu.func",
    "isolated symbol function",
    "A GPU function (a kernel when marked `kernel`), with optional workgroup and private attributions.",
    "gpu.func @name(%arg: T, ...) [-> R] [workgroup(%w : T, ...)] [private(%p : T, ...)] [kernel] [attributes {...}] { ... }",
)
def _func(c: Cursor, st: OpState) -> None:
    st.properties["sym_name"] = StringAttr(c.symbol(SYMBOL_NAME).root)
    start, end = c.here()
    args, _, named = read_signature(c, st)
    if args and not named:
        raise FormatError("gpu.func requires named arguments", start, end)
    workgroup = read_attributions(c, st, "workgroup")
    private = read_attributions(c, st, "private")
    if c.optional_keyword("kernel"):
        st.attributes["gpu.kernel"] = UnitAttr()
    c.attr_dict_with_keyword(st)
    st.attributes["workgroup_attributions"] = IntegerAttr(len(workgroup), T.I64)
    st.extra["attributions"] = (len(workgroup), len(private))
    if c.is_region():
        st.add_region(c.region(), args + workgroup + private)
    else:
        st.add_region(None, None)


@op(
    "gpu.launch",
    "async",
    "Launches an inline kernel: the region runs on a grid of blocks of threads.",
    (
        "%t = gpu.launch [async [%deps]] [clusters(...) in (...)] blocks(%bx, %by, %bz) in (%gx = %a, ...) threads(%tx, %ty, %tz) in (%sx = %b, ...) "
        "[dynamic_shared_memory_size %s] [module(@m)] [function(@f)] [workgroup(...)] [private(...)] { ... gpu.terminator }"
    ),
)
def _launch(c: Cursor, st: OpState) -> None:
    is_async, ndeps = read_async(c, st)
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
    workgroup = read_attributions(c, st, "workgroup")
    private = read_attributions(c, st, "private")
    args = block_ids + thread_ids + grid_sizes + block_sizes + cluster_ids + cluster_sizes + workgroup + private
    st.add_region(c.region(), args)
    c.optional_attr_dict(st)
    nc = 1 if cluster_refs else 0
    st.properties["operandSegmentSizes"] = segments(ndeps, 1, 1, 1, 1, 1, 1, nc, nc, nc, dsm)
    st.attributes.setdefault("workgroup_attributions", IntegerAttr(len(workgroup), T.I64))
    st.extra["attributions"] = (len(workgroup), len(private))
    st.extra["clusters"] = bool(cluster_refs)
    add_token(st, is_async)


@op(
    "gpu.launch_func",
    "async",
    "Launches an outlined kernel (a gpu.func in a gpu.module) on a grid.",
    (
        "%t = gpu.launch_func [async [%deps]] [<%stream : T>] @module::@kernel [clusters in (...)] blocks in (%gx, %gy, %gz) threads in (%bx, %by, "
        "%bz) [: T] [dynamic_shared_memory_size %s] [args(%a : T, ...)]"
    ),
)
def _launch_func(c: Cursor, st: OpState) -> None:
    is_async, ndeps = read_async(c, st)
    stream = None
    if c.optional_punct("<"):
        stream = c.operand()
        stream.type = c.colon_type()
        c.punct(">")
    if not c.is_symbol():
        c.fail("invalid kind of attribute specified")
    st.properties["kernel"] = c.symbol()
    cluster = []
    if c.is_keyword("clusters"):
        cluster = read_dim3_operands(c, "clusters", None)
    grid = read_dim3_operands(c, "blocks", None)
    block = read_dim3_operands(c, "threads", None)
    dim_type: T.Type = T.INDEX
    if c.optional_punct(":"):
        dim_type = c.type()
    for r in grid + block + cluster:
        r.type = dim_type
    st.refs.extend(grid + block + cluster)
    dsm = 0
    if c.optional_keyword("dynamic_shared_memory_size"):
        st.refs.append(c.operand(T.I32))
        dsm = 1
    nargs = 0
    if c.optional_keyword("args"):
        sub = c.group("(")
        while not sub.at_end:
            ref = sub.operand()
            sub.punct(":")
            ref.type = sub.type()
            st.refs.append(ref)
            nargs += 1
            if sub.at_end:
                break
            if not sub.is_punct(","):
                sub.fail("expected ')' in argument list")
            sub.punct(",")
    c.optional_attr_dict(st)
    if stream is not None:
        st.refs.append(stream)
    nc = 1 if cluster else 0
    st.properties["operandSegmentSizes"] = segments(ndeps, 1, 1, 1, 1, 1, 1, nc, nc, nc, dsm, nargs, 1 if stream else 0)
    st.extra["dim_type"] = dim_type
    add_token(st, is_async)


def _optional_operands_with_types(c: Cursor, st: OpState) -> None:
    refs = c.operand_list()
    if refs:
        tys = c.colon_type_list()
        if len(tys) != len(refs):
            c.fail(f"expected {len(refs)} types")
        for r, t in zip(refs, tys):
            r.type = t
        st.refs.extend(refs)


@op("gpu.return", "terminator return_like pure", "Returns from a gpu.func.", "gpu.return [%v : T, ...]")
def _return(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    _optional_operands_with_types(c, st)


@op("gpu.terminator", "terminator pure", "Ends the body of a gpu.launch.", "gpu.terminator")
def _terminator(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)


@op("gpu.yield", "terminator return_like pure", "Yields values from all_reduce and warp_execute_on_lane_0 regions.", "gpu.yield [%v : T, ...]")
def _yield(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    _optional_operands_with_types(c, st)


# --- id and dimension ops ---------------------------------------------------------------------


def _index_op(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        read_dim(c, st)
        read_upper_bound(c, st)
        c.optional_attr_dict(st)
        st.result_types.append(T.INDEX)

    op(name, "pure", summary, f"{name} x|y|z [upper_bound N]")(parse)


for _name, _summary in (
    ("gpu.thread_id", "The thread index within its block."),
    ("gpu.block_id", "The block index within the grid."),
    ("gpu.block_dim", "The number of threads per block."),
    ("gpu.grid_dim", "The number of blocks in the grid."),
    ("gpu.global_id", "The thread index within the whole grid."),
    ("gpu.cluster_id", "The cluster index within the grid."),
    ("gpu.cluster_dim", "The number of clusters in the grid."),
    ("gpu.cluster_dim_blocks", "The number of blocks per cluster."),
    ("gpu.cluster_block_id", "The block index within its cluster."),
):
    _index_op(_name, _summary)


@op("gpu.lane_id", "pure", "The lane index within the subgroup.", "gpu.lane_id [upper_bound N]")
def _lane_id(c: Cursor, st: OpState) -> None:
    read_upper_bound(c, st)
    c.optional_attr_dict(st)
    st.result_types.append(T.INDEX)


def _typed_index_op(name: str, summary: str) -> None:
    def parse(c: Cursor, st: OpState) -> None:
        read_upper_bound(c, st)
        c.optional_attr_dict(st)
        st.result_types.append(c.colon_type())

    op(name, "pure", summary, f"{name} [upper_bound N] : index")(parse)


_typed_index_op("gpu.subgroup_id", "The subgroup index within the workgroup.")
_typed_index_op("gpu.num_subgroups", "The number of subgroups in the workgroup.")
_typed_index_op("gpu.subgroup_size", "The number of lanes in a subgroup.")


# --- collectives, synchronisation and debug ---------------------------------------------------


@op(
    "gpu.all_reduce",
    "",
    "Reduces a value across all threads of the workgroup, with a kind or a region.",
    "%r = gpu.all_reduce [add|mul|...] %v [uniform] [{ region }] : (T) -> (T)",
)
def _all_reduce(c: Cursor, st: OpState) -> None:
    read_reduction_kind(c, st, required=False)
    value = c.operand()
    if c.optional_keyword("uniform"):
        st.properties["uniform"] = UnitAttr()
    region = c.region()
    st.add_region(region)
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if fn.inputs:
        value.type = fn.inputs[0]
    st.refs.append(value)
    st.result_types.extend(fn.results)


@op(
    "gpu.subgroup_reduce",
    "pure",
    "Reduces a value across the lanes of a subgroup, optionally in clusters.",
    "%r = gpu.subgroup_reduce add %v [uniform] [cluster(size = N[, stride = M])] : (T) -> T",
)
def _subgroup_reduce(c: Cursor, st: OpState) -> None:
    read_reduction_kind(c, st, required=True)
    value = c.operand()
    if c.optional_keyword("uniform"):
        st.properties["uniform"] = UnitAttr()
    if c.optional_keyword("cluster"):
        sub = c.group("(")
        sub.keyword("size")
        sub.punct("=")
        st.properties["cluster_size"] = IntegerAttr(sub.integer(), T.I32)
        if sub.optional_punct(","):
            sub.keyword("stride")
            sub.punct("=")
            st.properties["cluster_stride"] = IntegerAttr(sub.integer(), T.I32)
        sub.done()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    if fn.inputs:
        value.type = fn.inputs[0]
    st.refs.append(value)
    st.result_types.extend(fn.results)


@op(
    "gpu.shuffle",
    "pure",
    "Moves a value between lanes of a subgroup (xor, up, down, idx); also returns whether the source lane was valid.",
    "%v, %valid = gpu.shuffle xor %x, %offset, %width : T",
)
def _shuffle(c: Cursor, st: OpState) -> None:
    tok = c.any_keyword()
    if tok.value not in SHUFFLE_MODES:
        c.fail(f"expected one of xor, up, down or idx for the shuffle mode, got '{tok.value}'", tok)
    st.properties["mode"] = DialectAttr("gpu", "", f"shuffle_mode {tok.value}")
    value = c.operand()
    c.punct(",")
    offset = c.operand(T.I32)
    c.punct(",")
    width = c.operand(T.I32)
    c.optional_attr_dict(st)
    ty = c.colon_type()
    value.type = ty
    st.refs.extend([value, offset, width])
    st.result_types.extend([ty, T.I1])


@op("gpu.rotate", "pure", "Rotates a value among `width` lanes.", "%v, %valid = gpu.rotate %x, offset, width : T")
def _rotate(c: Cursor, st: OpState) -> None:
    value = c.operand()
    c.punct(",")
    st.properties["offset"] = IntegerAttr(c.integer(), T.I32)
    c.punct(",")
    st.properties["width"] = IntegerAttr(c.integer(), T.I32)
    c.optional_attr_dict(st)
    ty = c.colon_type()
    value.type = ty
    st.refs.append(value)
    st.result_types.extend([ty, T.I1])


@op(
    "gpu.subgroup_broadcast",
    "",
    "Broadcasts a value from the first active lane or from a given lane.",
    "%r = gpu.subgroup_broadcast %x, first_active_lane|specific_lane [%lane] : T",
)
def _subgroup_broadcast(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    kind = c.any_keyword()
    if kind.value not in ("first_active_lane", "specific_lane"):
        c.fail(f"expected first_active_lane or specific_lane, got '{kind.value}'", kind)
    st.properties["broadcast_type"] = DialectAttr("gpu", "", f"broadcast {kind.value}")
    lane = c.optional_operand(T.I32)
    c.optional_attr_dict(st)
    ty = c.colon_type()
    src.type = ty
    st.refs.append(src)
    if lane is not None:
        st.refs.append(lane)
    st.result_types.append(ty)


@op("gpu.barrier", "", "Synchronises all threads of a workgroup.", "gpu.barrier [memfence [#gpu.address_space<...>, ...]]")
def _barrier(c: Cursor, st: OpState) -> None:
    if c.optional_keyword("memfence"):
        st.properties["address_spaces"] = c.attr()
    c.optional_attr_dict(st)


@op("gpu.printf", "", "Prints from device code.", 'gpu.printf "format" [, %v : T, ...]')
def _printf(c: Cursor, st: OpState) -> None:
    st.properties["format"] = StringAttr(c.string())
    c.optional_attr_dict(st)
    if c.is_operand():
        c.expected("',' between the format string and the arguments")
    if not c.optional_punct(","):
        return
    refs = c.operand_list()
    if refs:
        tys = c.colon_type_list()
        for r, t in zip(refs, tys):
            r.type = t
        st.refs.extend(refs)


@op(
    "gpu.dynamic_shared_memory",
    "pure",
    "The base of the kernel's dynamic shared memory.",
    "%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>",
)
def _dynamic_shared_memory(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


@op(
    "gpu.warp_execute_on_lane_0",
    "single_block",
    "Runs its region on lane 0 of a warp and distributes vectors between lanes.",
    "%r = gpu.warp_execute_on_lane_0(%laneid)[32] [args(%v : T, ...)] [-> (T, ...)] { ... }",
)
def _warp_execute(c: Cursor, st: OpState) -> None:
    sub = c.group("(")
    st.refs.append(sub.operand(T.INDEX))
    sub.done()
    size = c.group("[")
    st.properties["warp_size"] = IntegerAttr(size.integer(), T.I64)
    size.done()
    region_args: list[ArgDef] = []
    if c.optional_keyword("args"):
        args = c.group("(")
        while not args.at_end:
            ref = args.operand()
            args.punct(":")
            ref.type = args.type()
            st.refs.append(ref)
            if args.at_end:
                break
            args.punct(",")
    if c.optional_punct("->"):
        st.result_types.extend(c.paren_type_list())
    raw = c.region()
    st.add_region(raw, region_args)
    c.optional_attr_dict(st)


# --- host-side runtime ops --------------------------------------------------------------------


@op("gpu.wait", "async", "Waits for async tokens: blocks the host, or joins them into a new token with `async`.", "[%t =] gpu.wait [async] [[%deps]]")
def _wait(c: Cursor, st: OpState) -> None:
    is_async, _ = read_async(c, st)
    c.optional_attr_dict(st)
    add_token(st, is_async)


@op(
    "gpu.alloc",
    "async",
    "Allocates device (or host-shared) memory.",
    "%m[, %t] = gpu.alloc [async [%deps]] [host_shared] (%dyn, ...) [[%sym, ...]] : memref<...>",
)
def _alloc(c: Cursor, st: OpState) -> None:
    is_async, ndeps = read_async(c, st)
    if c.optional_keyword("host_shared"):
        st.properties["hostShared"] = UnitAttr()
    sub = c.group("(")
    dyn = sub.operand_list(T.INDEX)
    sub.done()
    syms = []
    if c.is_group("["):
        ssub = c.group("[")
        syms = ssub.operand_list(T.INDEX)
        ssub.done()
    c.optional_attr_dict(st)
    ty = c.colon_type()
    st.refs.extend(dyn + syms)
    st.properties["operandSegmentSizes"] = segments(ndeps, len(dyn), len(syms))
    st.result_types.append(ty)
    add_token(st, is_async)


@op("gpu.dealloc", "async", "Frees device memory.", "[%t =] gpu.dealloc [async [%deps]] %m : memref<...>")
def _dealloc(c: Cursor, st: OpState) -> None:
    is_async, _ = read_async(c, st)
    ref = c.operand()
    c.optional_attr_dict(st)
    ref.type = c.colon_type()
    st.refs.append(ref)
    add_token(st, is_async)


def _dst_src(c: Cursor, st: OpState) -> None:
    is_async, _ = read_async(c, st)
    dst = c.operand()
    c.punct(",")
    src = c.operand()
    c.punct(":")
    dst.type = c.type()
    c.punct(",")
    src.type = c.type()
    c.optional_attr_dict(st)
    st.refs.extend([dst, src])
    add_token(st, is_async)


@op("gpu.memcpy", "async", "Copies memory between host and device buffers.", "[%t =] gpu.memcpy [async [%deps]] %dst, %src : memref<...>, memref<...>")
def _memcpy(c: Cursor, st: OpState) -> None:
    _dst_src(c, st)


@op("gpu.memset", "async", "Fills a buffer with a value.", "[%t =] gpu.memset [async [%deps]] %dst, %value : memref<...>, T")
def _memset(c: Cursor, st: OpState) -> None:
    _dst_src(c, st)


def _memref_only(c: Cursor, st: OpState) -> None:
    ref = c.operand()
    c.optional_attr_dict(st)
    ref.type = c.colon_type()
    st.refs.append(ref)


@op("gpu.host_register", "", "Maps a host buffer for device access.", "gpu.host_register %m : memref<*xf32>")
def _host_register(c: Cursor, st: OpState) -> None:
    _memref_only(c, st)


@op("gpu.host_unregister", "", "Unmaps a host buffer.", "gpu.host_unregister %m : memref<*xf32>")
def _host_unregister(c: Cursor, st: OpState) -> None:
    _memref_only(c, st)


@op("gpu.set_default_device", "", "Selects the default GPU.", "gpu.set_default_device %dev")
def _set_default_device(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.refs.append(c.operand(T.I32))


# --- MMA ops ----------------------------------------------------------------------------------


@op(
    "gpu.subgroup_mma_load_matrix",
    "",
    "Loads a warp matrix fragment from memory.",
    "%m = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = N : index} : memref<...> -> !gpu.mma_matrix<...>",
)
def _mma_load(c: Cursor, st: OpState) -> None:
    read_element_access(c, st, arrow=True)


@op(
    "gpu.subgroup_mma_store_matrix",
    "",
    "Stores a warp matrix fragment to memory.",
    "gpu.subgroup_mma_store_matrix %m, %dst[%i, %j] {leadDimension = N : index} : !gpu.mma_matrix<...>, memref<...>",
)
def _mma_store(c: Cursor, st: OpState) -> None:
    src = c.operand()
    c.punct(",")
    dst = c.operand()
    idx = c.index_list()
    c.optional_attr_dict(st)
    c.punct(":")
    src.type = c.type()
    c.punct(",")
    dst.type = c.type()
    st.refs.extend([src, dst] + idx)


@op(
    "gpu.subgroup_mma_compute",
    "pure",
    "C += A * B on warp matrix fragments.",
    "%d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<...>, !gpu.mma_matrix<...> -> !gpu.mma_matrix<...>",
)
def _mma_compute(c: Cursor, st: OpState) -> None:
    a = c.operand()
    c.punct(",")
    b = c.operand()
    c.punct(",")
    acc = c.operand()
    c.optional_attr_dict(st)
    c.punct(":")
    a.type = c.type()
    c.punct(",")
    b.type = c.type()
    c.punct("->")
    ty = c.type()
    acc.type = ty
    st.refs.extend([a, b, acc])
    st.result_types.append(ty)


@op(
    "gpu.subgroup_mma_constant_matrix",
    "pure",
    "A warp matrix fragment with every element set to a value.",
    "%m = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<...>",
)
def _mma_constant(c: Cursor, st: OpState) -> None:
    v = c.operand()
    c.optional_attr_dict(st)
    ty = c.colon_type()
    if isinstance(ty, T.DialectType) and ty.body:
        elem = ty.body.split(",")[0].split("x")[-1].strip()
        try:
            from gpu_lsp.parser.types import parse_type

            v.type = parse_type(elem)
        except ValueError:
            pass
    st.refs.append(v)
    st.result_types.append(ty)


@op("gpu.subgroup_mma_elementwise", "pure", "An elementwise operation on warp matrix fragments.", "%r = gpu.subgroup_mma_elementwise addf %a, %b : (T, T) -> T")
def _mma_elementwise(c: Cursor, st: OpState) -> None:
    kind = c.any_keyword()
    st.properties["opType"] = DialectAttr("gpu", "", f"mma_element_wise {kind.value}")
    refs = c.operand_list()
    c.optional_attr_dict(st)
    c.punct(":")
    fn = c.function_type()
    for r, t in zip(refs, fn.inputs):
        r.type = t
    st.refs.extend(refs)
    st.result_types.extend(fn.results)


@op(
    "gpu.subgroup_mma_extract_thread_local",
    "pure",
    "Reads this thread's element of a warp matrix fragment.",
    "%v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<...> -> T",
)
def _mma_extract(c: Cursor, st: OpState) -> None:
    read_element_access(c, st, arrow=True)


@op(
    "gpu.subgroup_mma_insert_thread_local",
    "pure",
    "Writes this thread's element of a warp matrix fragment.",
    "%m2 = gpu.subgroup_mma_insert_thread_local %v, %m[%i] : T, !gpu.mma_matrix<...> -> !gpu.mma_matrix<...>",
)
def _mma_insert(c: Cursor, st: OpState) -> None:
    v = c.operand()
    c.punct(",")
    m = c.operand()
    idx = c.index_list()
    c.optional_attr_dict(st)
    c.punct(":")
    v.type = c.type()
    c.punct(",")
    m.type = c.type()
    c.punct("->")
    st.refs.extend([v, m] + idx)
    st.result_types.append(c.type())



@op("gpu.ballot", "", "A bit mask of the lanes of the subgroup whose predicate is true.", "%m = gpu.ballot %pred : i32")
def _ballot(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(T.I1))
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


# --- sparse (cuSPARSE / cuSPARSELt) ops -------------------------------------------------------

DN_TENSOR = T.DialectType("gpu", "sparse.dntensor_handle")
SP_MAT = T.DialectType("gpu", "sparse.spmat_handle")
SPGEMM_OP = T.DialectType("gpu", "sparse.spgemmop_handle")
TRANSPOSE_MODES = ("NON_TRANSPOSE", "TRANSPOSE", "CONJUGATE_TRANSPOSE")


def _braced_keyword(c: Cursor, allowed: tuple[str, ...]) -> str | None:
    """`{KEYWORD}` (lexed as a dictionary token): a transpose mode, prune flag or SpGEMM kind."""
    item = c.peek()
    if not c.is_attr_dict():
        return None
    word = item.value[1:-1].strip()
    if word not in allowed:
        c.fail(f"expected one of {', '.join(allowed)}", item)
    c.next()
    return word


def _handle(c: Cursor, st: OpState, ty: T.Type, mode: str | None = None) -> None:
    """A handle operand, optionally followed by its `{TRANSPOSE}` mode."""
    st.refs.append(c.operand(ty))
    if mode is not None:
        word = _braced_keyword(c, TRANSPOSE_MODES)
        if word is not None:
            st.properties[mode] = DialectAttr("gpu", "", f"mat_transpose_mode {word}")


def _operands_with_types(c: Cursor, st: OpState, first: list, count: int) -> None:
    """`, %a, %b, %c : T1, T2, T3` after `first` untyped operands (types for the last `count`)."""
    refs = []
    for _ in range(count):
        c.punct(",")
        refs.append(c.operand())
    c.optional_attr_dict(st)
    c.punct(":")
    for k, r in enumerate(refs):
        if k:
            c.punct(",")
        r.type = c.type()
    st.refs.extend(first + refs)


def _index_operands(c: Cursor, count: int) -> list:
    refs = [c.operand(T.INDEX)]
    for _ in range(count - 1):
        c.punct(",")
        refs.append(c.operand(T.INDEX))
    return refs


def _sparse_op(name: str, summary: str, syntax: str):
    """Register a sparse op: the reader gets the async flag already read and adds the token."""

    def wrap(fn):
        def parse(c: Cursor, st: OpState) -> None:
            is_async, _ = read_async(c, st)
            fn(c, st)
            add_token(st, is_async)

        op(name, "async", summary, syntax)(parse)
        return fn

    return wrap


@_sparse_op(
    "gpu.create_dn_tensor",
    "Creates a dense tensor (vector or matrix) handle over a buffer.",
    "%dn, %t = gpu.create_dn_tensor async [%dep] %mem, %rows, %cols : index, index into memref<?xf64>",
)
def _create_dn_tensor(c: Cursor, st: OpState) -> None:
    mem = c.operand()
    dims = []
    while c.optional_punct(","):
        dims.append(c.operand())
    c.optional_attr_dict(st)
    c.punct(":")
    for k, r in enumerate(dims):
        if k:
            c.punct(",")
        r.type = c.type()
    c.keyword("into")
    mem.type = c.type()
    st.refs.extend([mem] + dims)
    st.result_types.append(DN_TENSOR)


@_sparse_op("gpu.destroy_dn_tensor", "Destroys a dense tensor handle.", "%t = gpu.destroy_dn_tensor async [%dep] %dn")
def _destroy_dn_tensor(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(DN_TENSOR))
    c.optional_attr_dict(st)


def _create_sparse(name: str, summary: str, sizes: int, buffers: int) -> None:
    @_sparse_op(name, summary, f"%sp, %t = {name} async [%dep] %rows, %cols, %nnz, ... : memref<?xindex>, ...")
    def parse(c: Cursor, st: OpState) -> None:
        first = _index_operands(c, sizes)
        _operands_with_types(c, st, first, buffers)
        st.result_types.append(SP_MAT)


_create_sparse("gpu.create_coo", "Creates a sparse matrix handle in COO format.", 3, 3)
_create_sparse("gpu.create_coo_aos", "Creates a sparse matrix handle in COO array-of-structs format.", 3, 2)
_create_sparse("gpu.create_csr", "Creates a sparse matrix handle in CSR format.", 3, 3)
_create_sparse("gpu.create_csc", "Creates a sparse matrix handle in CSC format.", 3, 3)
_create_sparse("gpu.create_bsr", "Creates a sparse matrix handle in BSR format.", 5, 3)


@_sparse_op(
    "gpu.create_2to4_spmat",
    "Creates a 2:4 structured sparse matrix handle (cuSPARSELt).",
    "%sp, %t = gpu.create_2to4_spmat async [%dep] {PRUNE_AND_CHECK} %rows, %cols, %mem : memref<?xf16>",
)
def _create_2to4(c: Cursor, st: OpState) -> None:
    flag = _braced_keyword(c, ("NONE", "PRUNE_ONLY", "PRUNE_AND_CHECK"))
    if flag is not None:
        st.properties["pruneFlag"] = DialectAttr("gpu", "", f"prune_2to4_spmat_flag {flag}")
    first = _index_operands(c, 2)
    _operands_with_types(c, st, first, 1)
    st.result_types.append(SP_MAT)


@_sparse_op("gpu.destroy_sp_mat", "Destroys a sparse matrix handle.", "%t = gpu.destroy_sp_mat async [%dep] %sp")
def _destroy_sp_mat(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(SP_MAT))
    c.optional_attr_dict(st)


def _into_compute_type(c: Cursor, st: OpState) -> None:
    c.keyword("into")
    st.properties["computeType"] = c.attr()


@_sparse_op("gpu.spmv_buffer_size", "The workspace size of a SpMV.", "%size, %t = gpu.spmv_buffer_size async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY into f32")
def _spmv_buffer_size(c: Cursor, st: OpState) -> None:
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    c.optional_attr_dict(st)
    _into_compute_type(c, st)
    st.result_types.append(T.INDEX)


@_sparse_op("gpu.spmv", "Sparse matrix times dense vector.", "%t = gpu.spmv async [%dep] %spA[{TRANSPOSE}], %dnX, %dnY, %buffer : memref<?xf64> into f64")
def _spmv(c: Cursor, st: OpState) -> None:
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    _operands_with_types(c, st, [], 1)
    _into_compute_type(c, st)


@_sparse_op(
    "gpu.spmm_buffer_size",
    "The workspace sizes of a SpMM.",
    "%size, %t = gpu.spmm_buffer_size async [%dep] %spA[{T}], %dnB[{T}], %dnC : index into f32",
)
def _spmm_buffer_size(c: Cursor, st: OpState) -> None:
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    _handle(c, st, DN_TENSOR, "modeB")
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    c.optional_attr_dict(st)
    st.result_types.extend(c.colon_type_list())
    _into_compute_type(c, st)


@_sparse_op("gpu.spmm", "Sparse matrix times dense matrix.", "%t = gpu.spmm async [%dep] %spA[{T}], %dnB[{T}], %dnC, %buffers : memref<?xf64> into f64")
def _spmm(c: Cursor, st: OpState) -> None:
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    _handle(c, st, DN_TENSOR, "modeB")
    c.punct(",")
    st.refs.append(c.operand(DN_TENSOR))
    buffers = []
    while c.optional_punct(","):
        buffers.append(c.operand())
    c.optional_attr_dict(st)
    tys = c.colon_type_list()
    if len(tys) != len(buffers):
        c.fail(f"expected {len(buffers)} buffer types")
    for r, t in zip(buffers, tys):
        r.type = t
    st.refs.extend(buffers)
    _into_compute_type(c, st)


@_sparse_op("gpu.sddmm_buffer_size", "The workspace size of an SDDMM.", "%size, %t = gpu.sddmm_buffer_size async [%dep] %dnA[{T}], %dnB[{T}], %spC into f32")
def _sddmm_buffer_size(c: Cursor, st: OpState) -> None:
    _handle(c, st, DN_TENSOR, "modeA")
    c.punct(",")
    _handle(c, st, DN_TENSOR, "modeB")
    c.punct(",")
    st.refs.append(c.operand(SP_MAT))
    c.optional_attr_dict(st)
    _into_compute_type(c, st)
    st.result_types.append(T.INDEX)


@_sparse_op(
    "gpu.sddmm",
    "Sampled dense-dense matrix multiplication.",
    "%t = gpu.sddmm async [%dep] %dnA[{T}], %dnB[{T}], %spC, %buffer : memref<?xf64> into f64",
)
def _sddmm(c: Cursor, st: OpState) -> None:
    _handle(c, st, DN_TENSOR, "modeA")
    c.punct(",")
    _handle(c, st, DN_TENSOR, "modeB")
    c.punct(",")
    st.refs.append(c.operand(SP_MAT))
    _operands_with_types(c, st, [], 1)
    _into_compute_type(c, st)


@_sparse_op("gpu.spgemm_create_descr", "Creates a SpGEMM operation descriptor.", "%desc, %t = gpu.spgemm_create_descr async [%dep]")
def _spgemm_create_descr(c: Cursor, st: OpState) -> None:
    c.optional_attr_dict(st)
    st.result_types.append(SPGEMM_OP)


@_sparse_op("gpu.spgemm_destroy_descr", "Destroys a SpGEMM operation descriptor.", "%t = gpu.spgemm_destroy_descr async [%dep] %desc")
def _spgemm_destroy_descr(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(SPGEMM_OP))
    c.optional_attr_dict(st)


@_sparse_op(
    "gpu.spgemm_work_estimation_or_compute",
    "The work estimation or compute phase of a SpGEMM.",
    "%size, %t = gpu.spgemm_work_estimation_or_compute async [%dep] {COMPUTE} %spA[{T}], %spB[{T}], %spC, %desc, %size0, %buf : f32 into memref<0xi8>",
)
def _spgemm_work(c: Cursor, st: OpState) -> None:
    kind = _braced_keyword(c, ("WORK_ESTIMATION", "COMPUTE"))
    if kind is None:
        c.expected("{WORK_ESTIMATION} or {COMPUTE}")
    st.properties["kind"] = DialectAttr("gpu", "", f"spgemm_work_estimation_or_compute_kind {kind}")
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    _handle(c, st, SP_MAT, "modeB")
    c.punct(",")
    st.refs.append(c.operand(SP_MAT))
    c.punct(",")
    st.refs.append(c.operand(SPGEMM_OP))
    c.punct(",")
    st.refs.append(c.operand(T.INDEX))
    c.punct(",")
    buffer = c.operand()
    c.optional_attr_dict(st)
    c.punct(":")
    st.properties["computeType"] = c.attr()
    c.keyword("into")
    buffer.type = c.type()
    st.refs.append(buffer)
    st.result_types.append(T.INDEX)


@_sparse_op(
    "gpu.spgemm_copy",
    "Copies the result of a SpGEMM into its output matrix.",
    "%t = gpu.spgemm_copy async [%dep] %spA[{T}], %spB[{T}], %spC, %desc : f32",
)
def _spgemm_copy(c: Cursor, st: OpState) -> None:
    _handle(c, st, SP_MAT, "modeA")
    c.punct(",")
    _handle(c, st, SP_MAT, "modeB")
    c.punct(",")
    st.refs.append(c.operand(SP_MAT))
    c.punct(",")
    st.refs.append(c.operand(SPGEMM_OP))
    c.optional_attr_dict(st)
    c.punct(":")
    st.properties["computeType"] = c.attr()


@_sparse_op(
    "gpu.spmat_get_size",
    "The number of rows, columns and nonzeros of a sparse matrix.",
    "%rows, %cols, %nnz, %t = gpu.spmat_get_size async [%dep] %sp",
)
def _spmat_get_size(c: Cursor, st: OpState) -> None:
    st.refs.append(c.operand(SP_MAT))
    c.optional_attr_dict(st)
    st.result_types.extend([T.INDEX, T.INDEX, T.INDEX])


@_sparse_op(
    "gpu.set_csr_pointers",
    "Sets the position, coordinate and value buffers of a CSR matrix.",
    "%t = gpu.set_csr_pointers async [%dep] %sp, %pos, %crd, %val : memref<?xindex>, memref<?xindex>, memref<?xf32>",
)
def _set_csr_pointers(c: Cursor, st: OpState) -> None:
    first = [c.operand(SP_MAT)]
    _operands_with_types(c, st, first, 3)
