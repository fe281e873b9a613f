"""Custom forms of the gpu dialect, as GPUOps.td's formats and GPUDialect.cpp's printers write them."""

from __future__ import annotations

from gpu_lsp.ir.attributes import IntegerAttr, StringAttr, UnitAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs import printer
from gpu_lsp.ir.opdefs.format_customs import enum_keyword
from gpu_lsp.ir.operands import segments
from gpu_lsp.ir.printer import (
    GENERIC_DISCARDABLE,
    GENERIC_EXTRA,
    GENERIC_PROPERTIES,
    CannotPrint,
    OpPrinter,
    required_attr,
    required_function_type,
    result_names,
)
from gpu_lsp.ir.printers.func import function_signature
from gpu_lsp.ir.views import FuncView, attributions

INDEX_OPS = (
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id",
    "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_dim_blocks", "gpu.cluster_block_id",
)


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


@result_names(*INDEX_OPS)
def _index_names(op: Operation):
    yield 0, f"{op.name[4:]}_{enum_keyword(op.get_attr('dimension'))}"


# --- structure and launch ---------------------------------------------------------------------


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




@printer("gpu.func")
def _func(p: OpPrinter, op: Operation) -> None:
    p.write(" " + p.symbol(required_attr(op, "sym_name", StringAttr).value))
    fn_type = required_function_type(op)
    function_signature(p, op, list(fn_type.inputs), list(fn_type.results))
    workgroup, private = attributions(op)
    _attributions(p, "workgroup", workgroup, op.get_attr("workgroup_attrib_attrs"))
    _attributions(p, "private", private, op.get_attr("private_attrib_attrs"))
    if FuncView(op).is_kernel:
        p.write(" kernel")
    p.attr_dict(
        op,
        (
            "sym_name", "workgroup_attributions", "gpu.kernel", "kernel", "function_type", "arg_attrs",
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


def _cooperative(p: OpPrinter, op: Operation) -> None:
    """` cooperative` when the launch has the unit attribute."""
    if op.get_attr("cooperative") is not None:
        p.write(" cooperative")


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
    _cooperative(p, op)
    workgroup, private = attributions(op)
    _attributions(p, "workgroup", workgroup)
    _attributions(p, "private", private)
    p.write(" ")
    p.region(region, entry_args=False)
    p.attr_dict(op, ("workgroup_attributions", "module", "function", "cooperative"))


# --- collectives ------------------------------------------------------------------------------


@result_names("gpu.shuffle")
def _shuffle_names(op: Operation):
    return [(0, "shuffleResult"), (1, "valid")]


@result_names("gpu.rotate")
def _rotate_names(op: Operation):
    return [(0, "rotateResult"), (1, "valid")]


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


@result_names("gpu.alloc")
def _alloc_names(op: Operation):
    yield 0, "memref"
    if len(op.results) > 1:
        yield 1, "asyncToken"


# --- sparse (cuSPARSE) ops: upstream's result names

_SPARSE_NAMES = {
    "gpu.create_coo": "spmat", "gpu.create_coo_aos": "spmat", "gpu.create_csr": "spmat",
    "gpu.create_csc": "spmat", "gpu.create_bsr": "spmat", "gpu.create_2to4_spmat": "spMat",
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
# attribution count a property.
GENERIC_DISCARDABLE["gpu.func"] = frozenset(("sym_name",))
GENERIC_PROPERTIES["gpu.launch"] = frozenset(("workgroup_attributions",))


def _launch_generic(op: Operation, props: dict, attrs: dict) -> None:
    count = props.get("workgroup_attributions")
    if isinstance(count, IntegerAttr) and count.value == 0:
        del props["workgroup_attributions"]


GENERIC_EXTRA["gpu.launch"] = _launch_generic


def _func_generic(op: Operation, props: dict, attrs: dict) -> None:
    """Upstream keeps `kernel` (unless written generically as `gpu.kernel`) and a non-zero
    `workgroup_attributions` among gpu.func's properties."""
    if "gpu.kernel" in attrs and not op.generic:
        del attrs["gpu.kernel"]
        props["kernel"] = UnitAttr()
    count = attrs.pop("workgroup_attributions", None) or props.pop("workgroup_attributions", None)
    if isinstance(count, IntegerAttr) and count.value:
        props["workgroup_attributions"] = count


GENERIC_EXTRA["gpu.func"] = _func_generic
