"""`-gpu-kernel-outlining`: move each gpu.launch body into a gpu.func in a new gpu.module.

Follows upstream's KernelOutlining.cpp:

* every top-level symbol op of the module (func.func, llvm.func, ...) is walked
  post-order, so an inner gpu.launch is outlined before the launch around it;
* the kernel is `@<enclosing symbol>_kernel` (or the launch's `function(@f)`),
  with the values used in the body but defined above it as arguments (first-use
  order of a post-order walk), `known_block_size`/`known_grid_size`/
  `known_cluster_size` when the sizes are constants, the launch's workgroup and
  private attributions, the 12 (18 with clusters) id/dimension ops replacing
  the region arguments, and `gpu.return` for `gpu.terminator`;
* the kernel goes into a new `gpu.module` named like the kernel (or the launch's
  `module(@m)`, reused when it exists) inserted right after the enclosing
  function; a name already taken gets `_0`, `_1`, ...;
* every symbol the kernel references is cloned into that module, transitively;
* the launch becomes a `gpu.launch_func` with the same async dependencies, token,
  sizes and dynamic shared memory size, and the module gets `gpu.container_module`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from gpu_lsp.gcpause import paused_gc
from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, DialectAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.brackets import split_commas
from gpu_lsp.ir.core import Operation, Region, erase_op
from gpu_lsp.ir.operands import assemble
from gpu_lsp.ir.operands import segments as operand_groups
from gpu_lsp.ir.symbols import is_symbol_table, symbol_name
from gpu_lsp.ir.traits import constant_int
from gpu_lsp.ir.views import attributions
from gpu_lsp.passes.base import PassDiagnostic, PassFailure, op_error
from gpu_lsp.passes.effects import is_registered
from gpu_lsp.passes.registration import gpu_pass
from gpu_lsp.passes.rewriter import (
    body_block,
    clone_op,
    clone_region_into,
    dimension_op,
    i64,
    insert_before,
    is_symbol,
    lookup_symbol_ref,
    new_op,
    op_symbol_refs,
    post_order,
    segments,
    set_symbol_name,
    used_values_defined_above,
)

DIMS = ("x", "y", "z")
UINT32_MAX = 0xFFFFFFFF


@dataclass
class LaunchParts:
    """The operand groups of a gpu.launch (its operandSegmentSizes)."""

    deps: list
    grid: list
    block: list
    cluster: list
    dynamic_shared_memory: list


def launch_parts(launch: Operation) -> LaunchParts:
    groups = operand_groups(launch)
    if groups is None:  # no segment sizes: the six sizes alone
        ops = launch.operands
        return LaunchParts([], ops[0:3], ops[3:6], [], [])

    def xyz(prefix: str) -> list:
        return [v for d in "XYZ" for v in groups[prefix + d]]

    return LaunchParts(
        groups["asyncDependencies"], xyz("gridSize"), xyz("blockSize"), xyz("clusterSize"), groups["dynamicSharedMemorySize"]
    )


def constant_dims(values: list) -> DenseArrayAttr | None:
    """`maybeConstantDimsAttr`: the sizes as `array<i32: ...>` when all are constants <= UINT32_MAX."""
    out = []
    for value in values:
        c = constant_int(value)
        if c is None:
            return None
        c &= (1 << 64) - 1
        if c > UINT32_MAX:
            return None
        out.append(c - (1 << 32) if c >= 1 << 31 else c)
    return DenseArrayAttr(T.I32, tuple(out))


# --- data layout ----------------------------------------------------------------------------

_INT_VALUE = re.compile(r"^(-?\d+)\s*:\s*(\S+)$")


def _entry_value(text: str) -> str:
    m = _INT_VALUE.match(text.strip())
    return f"{m.group(1)} : {m.group(2)}" if m else text.strip()


def parse_data_layout(text: str) -> Attribute:
    """A `data-layout-str` as the attribute upstream attaches (`dlti.dl_spec`), printed form.

    Accepts `#dlti.dl_spec<#dlti.dl_entry<key, value>, ...>` and the short
    `#dlti.dl_spec<key = value, ...>`; raises ValueError for anything else.
    """
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    prefix = "#dlti.dl_spec<"
    if not text.startswith(prefix) or not text.endswith(">"):
        raise ValueError(f"not a data layout specification: {text}")
    entries = []
    for part in split_commas(text[len(prefix) : -1], drop_empty=True):
        if part.startswith("#dlti.dl_entry<") and part.endswith(">"):
            inner = split_commas(part[len("#dlti.dl_entry<") : -1], drop_empty=True)
            if len(inner) != 2:
                raise ValueError(f"malformed data layout entry: {part}")
            key, value = inner
        elif "=" in part:
            key, _, value = part.partition("=")
        else:
            raise ValueError(f"malformed data layout entry: {part}")
        entries.append(f"{key.strip()} = {_entry_value(value)}")
    return DialectAttr("dlti", "dl_spec", ", ".join(entries))


# --- the pass -------------------------------------------------------------------------------


@dataclass
class Outlined:
    """One outlined launch: the new launch_func, its kernel and the kernel's module."""

    launch_func: Operation
    kernel: Operation
    module: Operation
    new_module: bool
    origin: Operation  # the gpu.launch it replaced (detached)


@dataclass
class OutlineResult:
    outlined: list[Outlined] = field(default_factory=list)
    container_added: bool = False


class _SymbolTable:
    """`mlir::SymbolTable` over one symbol-table op: name -> op, insertion with renaming.

    Like upstream, the counter of the `_N` suffixes lives as long as the table:
    the second clash in one pass starts where the first stopped.
    """

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.counter = 0
        self.names: dict[str, Operation] = {}
        for child in body_block(op).operations:
            name = symbol_name(child)
            if name is not None:
                self.names.setdefault(name, child)

    def lookup(self, name: str) -> Operation | None:
        return self.names.get(name)

    def insert(self, symbol: Operation, before: Operation | None = None) -> str:
        """Insert `symbol` (before `before`, else at the end) and make its name unique."""
        block = body_block(self.op)
        if symbol.parent is None:
            if before is not None and before.parent is block:
                insert_before(symbol, before)
            else:
                block.append(symbol)
        name = symbol_name(symbol) or ""
        if self.names.get(name) is symbol:
            return name
        if name not in self.names:
            self.names[name] = symbol
            return name
        while True:
            candidate = f"{name}_{self.counter}"
            self.counter += 1
            if candidate not in self.names:
                break
        self.names[candidate] = symbol
        set_symbol_name(symbol, candidate)
        return candidate


def _potentially_unknown_symbol_table(op: Operation) -> bool:
    return len(op.regions) == 1 and not is_registered(op)


def symbol_uses(root: Operation) -> list[tuple[Operation, SymbolRefAttr]] | None:
    """`SymbolTable::getSymbolUses(root)`, in MLIR's order; None if an unknown op may hide some."""
    if _potentially_unknown_symbol_table(root):
        return None
    uses = [(root, ref) for ref in op_symbol_refs(root)]
    if is_symbol_table(root):
        return uses
    worklist: list[Region] = list(root.regions)
    while worklist:
        region = worklist.pop()
        for block in region.blocks:
            for op in block.operations:
                if _potentially_unknown_symbol_table(op):
                    return None
                uses.extend((op, ref) for ref in op_symbol_refs(op))
                if not is_symbol_table(op):
                    worklist.extend(op.regions)
    return uses


def _nearest_symbol_name(op: Operation) -> str:
    for ancestor in op.ancestors():
        if is_symbol(ancestor):
            return symbol_name(ancestor) or ""
    return ""


def outline_kernel_func(launch: Operation, name: str, origin: dict) -> tuple[Operation, list]:
    """`outlineKernelFuncImpl`: the gpu.func for one launch and the values it takes."""
    body = launch.regions[0]
    parts = launch_parts(launch)
    operands = used_values_defined_above(body)
    workgroup, private = attributions(launch)
    entry_args = body.blocks[0].arguments
    attributes: dict[str, Attribute] = {"gpu.kernel": UnitAttr()}
    block_bounds = constant_dims(parts.block)
    grid_bounds = constant_dims(parts.grid)
    if block_bounds is not None:
        attributes["known_block_size"] = block_bounds
    if grid_bounds is not None:
        attributes["known_grid_size"] = grid_bounds
    if parts.cluster:
        cluster_bounds = constant_dims(parts.cluster)
        if cluster_bounds is not None:
            attributes["known_cluster_size"] = cluster_bounds
    attributes["workgroup_attributions"] = i64(len(workgroup))
    func = new_op(
        "gpu.func",
        properties={
            "sym_name": StringAttr(name),
            "function_type": TypeAttr(T.FunctionType(tuple(v.type for v in operands), ())),
        },
        attributes=attributes,
        loc=launch.loc,
    )
    func_body = func.add_region()
    entry = func_body.add_block()
    for value in operands:
        entry.add_argument(value.type)
    wg_args = [entry.add_argument(a.type, a.name) for a in workgroup]
    priv_args = [entry.add_argument(a.type, a.name) for a in private]
    mapping: dict = {}
    kinds = ["gpu.block_id", "gpu.thread_id", "gpu.grid_dim", "gpu.block_dim"]
    if parts.cluster:
        kinds += ["gpu.cluster_id", "gpu.cluster_dim"]
    index_values = []
    for kind in kinds:
        for dim in DIMS:
            index_op = dimension_op(kind, dim, launch.loc)
            entry.append(index_op)
            index_values.append(index_op.results[0])
    for arg, value in zip(entry_args, index_values):
        mapping[arg] = value
    for old, new in zip(workgroup, wg_args):
        mapping[old] = new
    for old, new in zip(private, priv_args):
        mapping[old] = new
    for value, arg in zip(operands, entry.arguments):
        mapping[value] = arg
    cloned = clone_region_into(body, func_body, mapping, origin)
    for block in cloned:
        term = block.operations[-1] if block.operations else None
        if term is not None and term.name == "gpu.terminator":
            ret = new_op("gpu.return", loc=term.loc)
            origin[ret] = origin.get(term, term)
            block.operations[-1] = ret
            ret.parent = block
            term.parent = None
            term.drop_operand_uses()
    first = cloned[0]
    for op in first.operations:
        entry.append(op)
    first.operations = []
    func_body.blocks.remove(first)
    first.parent = None
    return func, operands


def _new_gpu_module(name: str, loc) -> Operation:
    module = new_op("gpu.module", properties={"sym_name": StringAttr(name)}, loc=loc)
    module.add_region().add_block()
    return module


def create_kernel_module(
    launch: Operation,
    kernel: Operation,
    top: _SymbolTable,
    data_layout: Attribute | None,
    origin: dict,
) -> tuple[Operation, bool]:
    """`createKernelModule`: the gpu.module holding `kernel` and every symbol it needs."""
    module = None
    module_attr = launch.properties.get("module")
    if isinstance(module_attr, SymbolRefAttr):
        name = module_attr.root
        found = top.lookup(name)
        if found is not None and found.name == "gpu.module":
            module = found
    else:
        name = symbol_name(kernel) or ""
    is_new = module is None
    if module is None:
        module = _new_gpu_module(name, kernel.loc)
    if data_layout is not None:
        module.attributes["dlti.dl_spec"] = data_layout
    table = _SymbolTable(module)
    table.insert(kernel)
    worklist = [kernel]
    while worklist:
        uses = symbol_uses(worklist.pop())
        if uses is None:
            continue
        for user, ref in uses:
            if table.lookup(ref.leaf) is not None:
                continue
            definition = lookup_symbol_ref(top.op, ref)
            if definition is None:
                if not ref.nested:
                    message = f"failed to outline gpu kernel: symbol '{ref.root}' not found"
                else:
                    message = f"failed to outline gpu kernel: found invalid symbol reference: {ref}"
                raise PassFailure([op_error(user, message, origin)])
            copy = clone_op(definition, {})
            worklist.append(copy)
            table.insert(copy)
    return module, is_new


def convert_to_launch_func(launch: Operation, kernel: Operation, module: Operation, operands: list) -> Operation:
    """`convertToLaunchFuncOp`: a gpu.launch_func before the launch; the launch is erased."""
    parts = launch_parts(launch)
    groups = {"asyncDependencies": parts.deps, "dynamicSharedMemorySize": parts.dynamic_shared_memory, "kernelOperands": operands}
    for prefix, sizes in (("gridSize", parts.grid), ("blockSize", parts.block), ("clusterSize", parts.cluster)):
        groups.update({prefix + d: [v] for d, v in zip("XYZ", sizes)})
    values, segment_sizes = assemble("gpu.launch_func", groups)
    token = bool(launch.results) and launch.results[0].type == T.TOKEN
    launch_func = new_op(
        "gpu.launch_func",
        values,
        [T.TOKEN] if token else [],
        {
            "kernel": SymbolRefAttr(symbol_name(module) or "", (symbol_name(kernel) or "",)),
            "operandSegmentSizes": segments(*segment_sizes),
        },
        loc=launch.loc,
    )
    insert_before(launch_func, launch)
    for old, new in zip(launch.results, launch_func.results):
        old.replace_all_uses_with(new)
    erase_op(launch)
    return launch_func


def outline_kernels(
    module: Operation,
    data_layout_str: str = "",
    select: Callable[[Operation], bool] | None = None,
) -> OutlineResult:
    """Run the pass on a builtin.module; `select` limits it to some gpu.launch ops.

    Raises PassFailure with upstream's diagnostics when a referenced symbol
    cannot be found (the IR is then partly rewritten, as upstream leaves it), or
    ValueError when `data_layout_str` is not a data layout specification.
    """
    data_layout = parse_data_layout(data_layout_str) if data_layout_str else None
    with paused_gc():
        return _outline_module(module, data_layout, select)


@gpu_pass("gpu-kernel-outlining", anchor="builtin.module", options=("data-layout-str",))
def outlining_pass(module: Operation, options: dict[str, str]) -> None:
    """Outline gpu.launch bodies into gpu.func kernels in new gpu.modules."""
    layout = options.get("data-layout-str", "")
    if layout:
        try:
            parse_data_layout(layout)
        except ValueError as exc:
            raise PassFailure([PassDiagnostic(f"invalid data-layout-str: {exc}", None)]) from None
    outline_kernels(module, layout)


def _outline_module(module: Operation, data_layout: Attribute | None, select) -> OutlineResult:
    result = OutlineResult()
    top = _SymbolTable(module)
    block = body_block(module)
    origin: dict = {}
    index = 0
    while index < len(block.operations):
        func = block.operations[index]
        if not is_symbol(func):
            index += 1
            continue
        insert_pt = block.operations[index + 1] if index + 1 < len(block.operations) else None
        for launch in post_order(func):
            if launch.name != "gpu.launch" or launch.parent is None:
                continue
            if select is not None and not select(launch):
                continue
            function_attr = launch.properties.get("function")
            if isinstance(function_attr, SymbolRefAttr):
                name = function_attr.root
            else:
                name = _nearest_symbol_name(launch) + "_kernel"
            kernel, operands = outline_kernel_func(launch, name, origin)
            kernel_module, is_new = create_kernel_module(launch, kernel, top, data_layout, origin)
            top.insert(kernel_module, insert_pt)
            launch_func = convert_to_launch_func(launch, kernel, kernel_module, operands)
            result.outlined.append(Outlined(launch_func, kernel, kernel_module, is_new, launch))
        index = block.index_of(func) + 1
    if result.outlined:
        result.container_added = "gpu.container_module" not in module.attributes
        module.attributes["gpu.container_module"] = UnitAttr()
    return result


__all__ = [
    "Outlined",
    "OutlineResult",
    "launch_parts",
    "outline_kernels",
    "parse_data_layout",
    "symbol_uses",
]
