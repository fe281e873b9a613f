"""Custom forms of the gpu dialect, as GPUOps.td's formats and GPUDialect.cpp's printers write them."""

from __future__ import annotations

from gpu_lsp.ir.attributes import DialectAttr, IntegerAttr, UnitAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.operands import segments
from gpu_lsp.ir.printer import (
    GENERIC_DISCARDABLE,
    GENERIC_EXTRA,
    GENERIC_FROM_SOURCE,
    GENERIC_PROPERTIES,
    CannotPrint,
    OpPrinter,
    int_text,
    result_names,
)

INDEX_OPS = (
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id",
    "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_dim_blocks", "gpu.cluster_block_id",
)


def enum_keyword(attr) -> str:
    """`#gpu<dim x>` -> `x`: the bare spelling custom formats use."""
    if isinstance(attr, DialectAttr) and attr.body is not None:
        return attr.body.split(None, 1)[-1]
    return str(attr)


def _groups(op: Operation) -> dict[str, list]:
    """The operands by declared name; an op whose operands do not fit its declaration has no custom form."""
    groups = segments(op)
    if groups is None:
        raise CannotPrint(f"'{op.name}' operands do not match its operand segments")
    return groups


def _xyz(groups: dict[str, list], prefix: str) -> list:
    return [v for d in "XYZ" for v in groups[prefix + d]]


def has_token(op: Operation) -> bool:
    return any(r.type.is_token for r in op.results)


def async_deps(p: OpPrinter, op: Operation, deps) -> str:
    """custom<AsyncDependencies>: `async`, then `[%deps]`, each only when present."""
    text = "async" if has_token(op) else ""
    if deps:
        text += (" " if text else "") + "[" + p.values(deps) + "]"
    return text


def token_deps(op: Operation) -> list:
    """Leading operands of token type (an op's async dependencies without segment sizes)."""
    out = []
    for v in op.operands:
        if not v.type.is_token:
            break
        out.append(v)
    return out


def _upper_bound(p: OpPrinter, op: Operation) -> None:
    ub = op.get_attr("upper_bound")
    if isinstance(ub, IntegerAttr):
        p.write(f" upper_bound {int_text(ub.value, ub.type)}")


@result_names(*INDEX_OPS)
def _index_names(op: Operation):
    yield 0, f"{op.name[4:]}_{enum_keyword(op.get_attr('dimension'))}"


@printer(*INDEX_OPS)
def _index(p: OpPrinter, op: Operation) -> None:
    p.write(" " + enum_keyword(op.get_attr("dimension")))
    _upper_bound(p, op)
    p.attr_dict(op, ("dimension", "upper_bound"))


@printer("gpu.lane_id")
def _lane_id(p: OpPrinter, op: Operation) -> None:
    _upper_bound(p, op)
    p.attr_dict(op, ("upper_bound",))


@printer("gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size")
def _typed_index(p: OpPrinter, op: Operation) -> None:
    _upper_bound(p, op)
    p.attr_dict(op, ("upper_bound",))
    p.write(" : " + p.value_types(op.results))


# --- structure and launch ---------------------------------------------------------------------


def _handler(p: OpPrinter, attr) -> str:
    """An offloading handler; `#gpu.select_object<1>` shows its integer's type, like upstream."""
    if isinstance(attr, DialectAttr) and attr.dialect == "gpu" and attr.name == "select_object":
        body = (attr.body or "").strip()
        if body.lstrip("-").isdigit():
            return f"#gpu.select_object<{body} : i64>"
    return p.attr(attr)


@printer("gpu.module")
def _module(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.symbol(op.get_attr("sym_name").value))
    handler = op.get_attr("offloadingHandler")
    if handler is not None:
        p.write("<" + _handler(p, handler) + ">")
    targets = op.get_attr("targets")
    if targets is not None:
        p.write(" " + p.attr(targets))
    p.attr_dict(op, ("sym_name", "targets", "offloadingHandler"), keyword=True)
    p.write(" ")
    p.region(op.regions[0], entry_args=False, terminators=False)


@printer("gpu.binary")
def _binary(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.symbol(op.get_attr("sym_name").value) + " ")
    handler = op.get_attr("offloadingHandler")
    if handler is not None and str(handler) not in ("#gpu.select_object", "#gpu.select_object<>"):
        p.write("<" + _handler(p, handler) + ">")
    p.attr_dict(op, ("sym_name", "objects", "offloadingHandler"))
    p.write(" " + p.attr(op.get_attr("objects")))


def _attributions(p: OpPrinter, keyword: str, args, attrs=None) -> None:
    if not args:
        return
    parts = []
    for i, arg in enumerate(args):
        text = f"{p.value(arg)} : {p.type(arg.type)}"
        if attrs is not None and i < len(attrs.elements):
            text += p.optional_dict(attrs.elements[i])
        parts.append(text)
    p.write(f" {keyword}(" + ", ".join(parts) + ")")


def _split_attributions(op: Operation, fixed: int):
    args = op.regions[0].blocks[0].arguments if op.regions and op.regions[0].blocks else []
    workgroup, private = op.extra.get("attributions", (0, 0))
    rest = args[fixed:]
    if not op.extra.get("attributions"):
        count = op.attributes.get("workgroup_attributions")
        workgroup = count.value if isinstance(count, IntegerAttr) else 0
        private = len(rest) - workgroup
    return rest[:workgroup], rest[workgroup : workgroup + private]


@printer("gpu.func")
def _func(p: OpPrinter, op: Operation) -> None:
    from gpu_lsp.ir.printers.func import function_signature

    p.write(" " + p.symbol(op.get_attr("sym_name").value))
    fn_type = op.get_attr("function_type").type
    function_signature(p, op, list(fn_type.inputs), list(fn_type.results))
    workgroup, private = _split_attributions(op, len(fn_type.inputs))
    _attributions(p, "workgroup", workgroup, op.get_attr("workgroup_attrib_attrs"))
    _attributions(p, "private", private, op.get_attr("private_attrib_attrs"))
    if "gpu.kernel" in op.attributes:
        p.write(" kernel")
    p.attr_dict(
        op,
        (
            "sym_name", "workgroup_attributions", "gpu.kernel", "function_type", "arg_attrs",
            "res_attrs", "workgroup_attrib_attrs", "private_attrib_attrs",
        ),
        keyword=True,
    )
    p.write(" ")
    p.region(op.regions[0], entry_args=False)


def _size_assignment(p: OpPrinter, ids, sizes, operands) -> str:
    v = p.value
    return (
        f"({v(ids[0])}, {v(ids[1])}, {v(ids[2])}) in ("
        f"{v(sizes[0])} = {v(operands[0])}, {v(sizes[1])} = {v(operands[1])}, {v(sizes[2])} = {v(operands[2])})"
    )


@printer("gpu.launch")
def _launch(p: OpPrinter, op: Operation) -> None:
    groups = _groups(op)
    deps = groups["asyncDependencies"]
    grid, block, cluster = _xyz(groups, "gridSize"), _xyz(groups, "blockSize"), _xyz(groups, "clusterSize")
    dsm = groups["dynamicSharedMemorySize"]
    if has_token(op):
        p.write(" async")
        if deps:
            p.write(" [" + p.values(deps) + "]")
    region = op.regions[0]
    args = region.blocks[0].arguments if region.blocks else []
    if cluster:
        p.write(" clusters" + _size_assignment(p, args[12:15], args[15:18], cluster))
    p.write(" blocks" + _size_assignment(p, args[0:3], args[6:9], grid))
    p.write(" threads" + _size_assignment(p, args[3:6], args[9:12], block))
    if dsm:
        p.write(" dynamic_shared_memory_size " + p.value(dsm[0]))
    for key in ("module", "function"):
        sym = op.get_attr(key)
        if sym is not None:
            p.write(f" {key}(" + p.attr(sym) + ")")
    workgroup, private = _split_attributions(op, 18 if cluster else 12)
    _attributions(p, "workgroup", workgroup)
    _attributions(p, "private", private)
    p.write(" ")
    p.region(region, entry_args=False)
    p.attr_dict(op, ("workgroup_attributions", "module", "function"))


@printer("gpu.launch_func")
def _launch_func(p: OpPrinter, op: Operation) -> None:
    groups = _groups(op)
    deps = groups["asyncDependencies"]
    grid, block, cluster = _xyz(groups, "gridSize"), _xyz(groups, "blockSize"), _xyz(groups, "clusterSize")
    dsm, args, obj = groups["dynamicSharedMemorySize"], groups["kernelOperands"], groups["asyncObject"]
    p.write(" " + async_deps(p, op, deps))
    if obj:
        p.write(f"<{p.value(obj[0])} : {p.type(obj[0].type)}>")
    p.write(" " + p.attr(op.get_attr("kernel")))
    if cluster:
        p.write(" clusters in (" + p.values(cluster) + ")")
    p.write(" blocks in (" + p.values(grid) + ") threads in (" + p.values(block) + ") ")
    if grid and not grid[0].type.is_index:
        p.write(": " + p.type(grid[0].type))
    if dsm:
        p.write(" dynamic_shared_memory_size " + p.value(dsm[0]))
    p.write(" ")
    if args:
        p.write("args(" + ", ".join(f"{p.value(a)} : {p.type(a.type)}" for a in args) + ")")
    p.attr_dict(op, ("kernel",))


def _operands_with_types(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op)
    if op.operands:
        p.write(" " + p.values(op.operands) + " : " + p.value_types(op.operands))


@printer("gpu.return", "gpu.yield")
def _return(p: OpPrinter, op: Operation) -> None:
    _operands_with_types(p, op)


@printer("gpu.terminator")
def _terminator(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op)


# --- collectives ------------------------------------------------------------------------------


@printer("gpu.all_reduce")
def _all_reduce(p: OpPrinter, op: Operation) -> None:
    kind = op.get_attr("op")
    p.write(" " + (enum_keyword(kind) if kind is not None else ""))
    p.write(" " + p.value(op.operands[0]))
    if op.get_attr("uniform") is not None:
        p.write(" uniform")
    p.write(" ")
    p.region(op.regions[0])
    p.attr_dict(op, ("op", "uniform"))
    p.write(" : " + p.functional_type(op))


@printer("gpu.subgroup_reduce")
def _subgroup_reduce(p: OpPrinter, op: Operation) -> None:
    p.write(" " + enum_keyword(op.get_attr("op")) + " " + p.value(op.operands[0]))
    if op.get_attr("uniform") is not None:
        p.write(" uniform")
    size = op.get_attr("cluster_size")
    if isinstance(size, IntegerAttr):
        p.write(f" cluster(size = {size.value}")
        stride = op.get_attr("cluster_stride")
        if isinstance(stride, IntegerAttr) and stride.value != 1:
            p.write(f", stride = {stride.value}")
        p.write(")")
    p.attr_dict(op, ("op", "uniform", "cluster_size", "cluster_stride"))
    p.write(" : " + p.functional_type(op))


@result_names("gpu.shuffle")
def _shuffle_names(op: Operation):
    return [(0, "shuffleResult"), (1, "valid")]


@result_names("gpu.rotate")
def _rotate_names(op: Operation):
    return [(0, "rotateResult"), (1, "valid")]


@printer("gpu.shuffle")
def _shuffle(p: OpPrinter, op: Operation) -> None:
    p.write(" " + enum_keyword(op.get_attr("mode")) + " " + p.values(op.operands))
    p.attr_dict(op, ("mode",))
    p.write(" : " + p.type(op.operands[0].type))


@printer("gpu.rotate")
def _rotate(p: OpPrinter, op: Operation) -> None:
    offset = op.get_attr("offset")
    width = op.get_attr("width")
    p.write(f" {p.value(op.operands[0])}, {offset.value}, {width.value}")
    p.attr_dict(op, ("offset", "width"))
    p.write(" : " + p.type(op.operands[0].type))


@printer("gpu.subgroup_broadcast")
def _subgroup_broadcast(p: OpPrinter, op: Operation) -> None:
    p.write(f" {p.value(op.operands[0])}, {enum_keyword(op.get_attr('broadcast_type'))}")
    if len(op.operands) > 1:
        p.write(" " + p.value(op.operands[1]))
    p.attr_dict(op, ("broadcast_type",))
    p.write(" : " + p.value_types(op.results))


@printer("gpu.barrier")
def _barrier(p: OpPrinter, op: Operation) -> None:
    spaces = op.get_attr("address_spaces")
    if spaces is not None:
        p.write(" memfence " + p.attr(spaces))
    p.attr_dict(op, ("address_spaces",))


@printer("gpu.printf")
def _printf(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.attr(op.get_attr("format")))
    p.attr_dict(op, ("format",))
    if op.operands:
        p.write(", " + p.values(op.operands) + " : " + p.value_types(op.operands))


@printer("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op)
    p.write(" : " + p.value_types(op.results))


@printer("gpu.warp_execute_on_lane_0")
def _warp_execute(p: OpPrinter, op: Operation) -> None:
    p.write(f"({p.value(op.operands[0])})")
    size = op.get_attr("warp_size")
    p.write(f"[{size.value if isinstance(size, IntegerAttr) else size}]")
    args = op.operands[1:]
    if args:
        p.write(f" args({p.values(args)} : {p.value_types(args)})")
    if op.results:
        p.write(" -> (" + p.value_types(op.results) + ")")
    p.write(" ")
    p.region(op.regions[0], entry_args=True, terminators=bool(op.results))
    p.attr_dict(op, ("warp_size",))


# --- host-side runtime ------------------------------------------------------------------------


@printer("gpu.wait")
def _wait(p: OpPrinter, op: Operation) -> None:
    p.write(" " + async_deps(p, op, token_deps(op)))
    p.attr_dict(op)


@result_names("gpu.alloc")
def _alloc_names(op: Operation):
    yield 0, "memref"
    if len(op.results) > 1:
        yield 1, "asyncToken"


@printer("gpu.alloc")
def _alloc(p: OpPrinter, op: Operation) -> None:
    groups = segments(op)
    if groups is None:
        deps = token_deps(op)
        groups = {"asyncDependencies": deps, "dynamicSizes": op.operands[len(deps) :], "symbolOperands": []}
    p.write(" " + async_deps(p, op, groups["asyncDependencies"]))
    if op.get_attr("hostShared") is not None:
        p.write(" host_shared")
    p.write(" (" + p.values(groups["dynamicSizes"]) + ")")
    if groups["symbolOperands"]:
        p.write("[" + p.values(groups["symbolOperands"]) + "]")
    p.attr_dict(op, ("hostShared",))
    p.write(" : " + p.type(op.results[0].type))


@printer("gpu.dealloc")
def _dealloc(p: OpPrinter, op: Operation) -> None:
    deps = token_deps(op)
    rest = op.operands[len(deps) :]
    p.write(" " + async_deps(p, op, deps) + " " + p.values(rest))
    p.attr_dict(op)
    p.write(" : " + p.value_types(rest))


@printer("gpu.memcpy", "gpu.memset")
def _memcpy(p: OpPrinter, op: Operation) -> None:
    deps = op.operands[: len(op.operands) - 2]
    dst, src = op.operands[-2], op.operands[-1]
    p.write(" " + async_deps(p, op, deps) + f" {p.value(dst)}, {p.value(src)}")
    p.attr_dict(op)
    p.write(f" : {p.type(dst.type)}, {p.type(src.type)}")


@printer("gpu.host_register", "gpu.host_unregister")
def _host_register(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    p.attr_dict(op)
    p.write(" : " + p.type(op.operands[0].type))


@printer("gpu.set_default_device")
def _set_default_device(p: OpPrinter, op: Operation) -> None:
    p.attr_dict(op)
    p.write(" " + p.value(op.operands[0]))


# --- MMA --------------------------------------------------------------------------------------


@printer("gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_extract_thread_local")
def _mma_load(p: OpPrinter, op: Operation) -> None:
    src, idx = op.operands[0], op.operands[1:]
    p.write(f" {p.value(src)}[{p.values(idx)}]")
    p.attr_dict(op)
    p.write(f" : {p.type(src.type)} -> {p.value_types(op.results)}")


@printer("gpu.subgroup_mma_store_matrix")
def _mma_store(p: OpPrinter, op: Operation) -> None:
    src, dst, idx = op.operands[0], op.operands[1], op.operands[2:]
    p.write(f" {p.value(src)}, {p.value(dst)}[{p.values(idx)}]")
    p.attr_dict(op)
    p.write(f" : {p.type(src.type)}, {p.type(dst.type)}")


@printer("gpu.subgroup_mma_insert_thread_local")
def _mma_insert(p: OpPrinter, op: Operation) -> None:
    value, matrix, idx = op.operands[0], op.operands[1], op.operands[2:]
    p.write(f" {p.value(value)}, {p.value(matrix)}[{p.values(idx)}]")
    p.attr_dict(op)
    p.write(f" : {p.type(value.type)}, {p.type(matrix.type)} -> {p.value_types(op.results)}")


@printer("gpu.subgroup_mma_compute")
def _mma_compute(p: OpPrinter, op: Operation) -> None:
    a, b = op.operands[0], op.operands[1]
    p.write(" " + p.values(op.operands))
    p.attr_dict(op)
    p.write(f" : {p.type(a.type)}, {p.type(b.type)} -> {p.value_types(op.results)}")


@printer("gpu.subgroup_mma_constant_matrix")
def _mma_constant(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.value(op.operands[0]))
    p.attr_dict(op)
    p.write(" : " + p.value_types(op.results))


@printer("gpu.subgroup_mma_elementwise")
def _mma_elementwise(p: OpPrinter, op: Operation) -> None:
    p.write(" " + enum_keyword(op.get_attr("opType")) + " " + p.values(op.operands))
    p.attr_dict(op, ("opType",))
    p.write(" : " + p.functional_type(op))


# --- sparse (cuSPARSE) ops: printed from their source text, with upstream's result names -------

_SPARSE_NAMES = {
    "gpu.create_coo": "spmat", "gpu.create_coo_aos": "spmat", "gpu.create_csr": "spmat",
    "gpu.create_csc": "spmat", "gpu.create_bsr": "spmat", "gpu.create_2to4_spmat": "spmat",
    "gpu.create_dn_tensor": "dnTensor", "gpu.spmv_buffer_size": "bufferSz", "gpu.spmm_buffer_size": "bufferSzs",
    "gpu.sddmm_buffer_size": "bufferSz", "gpu.spgemm_create_descr": "desc",
    "gpu.spgemm_work_estimation_or_compute": "bufferSzNew",
}


@result_names(*_SPARSE_NAMES, "gpu.spmat_get_size")
def _sparse_names(op: Operation):
    results = op.results
    token = len(results) - 1 if results and results[-1].type.is_token else None
    values = results[:token] if token is not None else results
    if op.name == "gpu.spmat_get_size":
        names = [(i, n) for i, n in enumerate(("rows", "cols", "nnz")) if i < len(values)]
    elif values:
        names = [(0, _SPARSE_NAMES[op.name])]
    else:
        names = []
    if token is not None:
        names.append((token, "asyncToken"))
    return names


# Generic form: gpu.func's symbol name is a discardable attribute upstream, gpu.launch's
# attribution count a property; the sparse ops' IR lacks their segment sizes.
GENERIC_DISCARDABLE["gpu.func"] = frozenset(("sym_name",))
GENERIC_PROPERTIES["gpu.launch"] = frozenset(("workgroup_attributions",))


def _launch_generic(op: Operation, props: dict, attrs: dict) -> None:
    count = props.get("workgroup_attributions")
    if isinstance(count, IntegerAttr) and count.value == 0:
        del props["workgroup_attributions"]


GENERIC_EXTRA["gpu.launch"] = _launch_generic


def _func_generic(op: Operation, props: dict, attrs: dict) -> None:
    """Upstream keeps `kernel` and a non-zero `workgroup_attributions` among gpu.func's properties."""
    if "gpu.kernel" in attrs:
        del attrs["gpu.kernel"]
        props["kernel"] = UnitAttr()
    count = attrs.pop("workgroup_attributions", None)
    if isinstance(count, IntegerAttr) and count.value:
        props["workgroup_attributions"] = count


GENERIC_EXTRA["gpu.func"] = _func_generic
GENERIC_FROM_SOURCE.update((*_SPARSE_NAMES, "gpu.spmat_get_size", "gpu.destroy_dn_tensor", "gpu.destroy_sp_mat",
                            "gpu.spmv", "gpu.spmm", "gpu.sddmm", "gpu.spgemm_destroy_descr", "gpu.spgemm_copy",
                            "gpu.set_csr_pointers"))
