"""Typed views of gpu ops: async dependencies and tokens, launch sizes, kernels, attributions, copies."""

from __future__ import annotations

from collections.abc import Container

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import IntegerAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from gpu_lsp.ir.opdefs import has_trait, lookup
from gpu_lsp.ir.operands import fitting_segment_sizes, segments
from gpu_lsp.text import TextRange

# Region argument layout of gpu.launch (GPUDialect.cpp: kNumConfigRegionAttributes and friends).
LAUNCH_CONFIG_ARGS = 12
LAUNCH_CLUSTER_ARGS = 6

def is_async_op(op: Operation) -> bool:
    """Whether `op` implements the AsyncOpInterface (has async dependencies and an optional token)."""
    return has_trait(op.name, "async")


def async_dependencies(op: Operation) -> list[Value]:
    """The tokens `op` waits for (`[%a, %b]`)."""
    sizes = fitting_segment_sizes(op)
    if sizes:
        return op.operands[: sizes[0]]
    trailing = _trailing_operands(op)
    if trailing is not None:
        return op.operands[: max(0, len(op.operands) - trailing)]
    deps: list[Value] = []
    for value in op.operands:
        if not is_token_type(value.type):
            break
        deps.append(value)
    return deps


def _trailing_operands(op: Operation) -> int | None:
    """How many operands follow the async dependencies of an op declaring only single ones after them."""
    definition = lookup(op.name)
    layout = definition.operand_layout if definition is not None else None
    # Every declared operand after the first is single: the only flexible one, if any, is the first.
    if layout is None or not layout.names or layout.names[0] != "asyncDependencies" or layout.flexible not in (-1, 0):
        return None
    return len(layout.names) - 1


def is_token_type(ty: T.Type) -> bool:
    """`ty.is_token`, the property asked of a dialect type only (a compiled caller then calls it
    once per token, not once per value: every op and block argument is asked about)."""
    return isinstance(ty, T.DialectType) and ty.is_token


def async_token(op: Operation) -> OpResult | None:
    """The `!gpu.async.token` result of an async op, or None when it is synchronous."""
    for result in reversed(op.results):
        if is_token_type(result.type):
            return result
    return None


def unnamed_async_range(op: Operation) -> TextRange | None:
    """Where an `async` keyword with no result name to hold the token is written, if it is."""
    marker = op.facts.unnamed_async
    if marker is None or op.span is None:
        return None
    base = op.span.anchor.base
    return TextRange(base + marker[0], base + marker[1])


def dependency_ranges(op: Operation) -> list[TextRange]:
    """Where each async dependency is written, in order (None-free: missing spans are skipped)."""
    deps = async_dependencies(op)
    out = []
    for i in range(len(deps)):
        span = op.operand_spans[i] if i < len(op.operand_spans) else None
        if span is not None:
            out.append(span.range)
    return out


def int_attr(op: Operation, name: str) -> int | None:
    attr = op.get_attr(name)
    return attr.value if isinstance(attr, IntegerAttr) else None


def has_unit_attr(op: Operation, name: str) -> bool:
    return isinstance(op.get_attr(name), UnitAttr)


# The operand groups of each size of a launch, per axis (named once, not formatted per call).
_PER_AXIS = {prefix: (prefix + "X", prefix + "Y", prefix + "Z") for prefix in ("gridSize", "blockSize", "clusterSize")}


def _single(groups: dict[str, list[Value]] | None, name: str) -> Value | None:
    """The operand of a single or optional group `name`, None when absent."""
    group = groups[name] if groups is not None else []
    return group[0] if len(group) == 1 else None


def _workgroup_attribution_count(op: Operation) -> int:
    """How many workgroup attributions gpu.launch or gpu.func declares: its `workgroup_attributions`."""
    return int_attr(op, "workgroup_attributions") or 0


def attributions(op: Operation) -> tuple[list[BlockArgument], list[BlockArgument]]:
    """The (workgroup, private) attributions of a gpu.func or gpu.launch, as upstream finds them: the
    entry block's arguments after the function's inputs (the launch's configuration), the first
    `workgroup_attributions` of them workgroup, the rest private; none for another op (a device
    function written as `func.func`)."""
    if op.name == "gpu.func":
        return FuncView(op).attributions()
    if op.name == "gpu.launch":
        return LaunchView(op).attributions()
    return [], []


def attribution_counts(op: Operation) -> tuple[int, int]:
    """(workgroup, private) attribution counts of a gpu.func or gpu.launch."""
    workgroup, private = attributions(op)
    return len(workgroup), len(private)


class _AsyncOpView:
    """An async op with its operand groups (None when they do not add up): dependencies and token."""

    __slots__ = ("op", "segments")

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.segments = segments(op)

    def _operands(self, group: str) -> list[Value]:
        return self.segments[group] if self.segments is not None else []

    @property
    def dependencies(self) -> list[Value]:
        return async_dependencies(self.op)

    @property
    def token(self) -> OpResult | None:
        return async_token(self.op)


class _LaunchConfigView(_AsyncOpView):
    """What gpu.launch and gpu.launch_func launch with: grid, block and cluster sizes, dynamic shared memory."""

    __slots__ = ()

    def _per_dimension(self, prefix: str) -> list[Value | None]:
        """The operands `prefix`X, Y and Z; None where one is absent (a cluster size, or operands that do not add up)."""
        segments = self.segments
        return [_single(segments, name) for name in _PER_AXIS[prefix]]

    @property
    def dynamic_shared_memory_size(self) -> Value | None:
        return _single(self.segments, "dynamicSharedMemorySize")


class LaunchView(_LaunchConfigView):
    """`gpu.launch`: dependencies, token, grid/block/cluster sizes, body and its arguments."""

    __slots__ = ()

    @property
    def well_formed(self) -> bool:
        return self.segments is not None

    @property
    def grid_sizes(self) -> list[Value | None]:
        return self._per_dimension("gridSize")

    @property
    def block_sizes(self) -> list[Value | None]:
        return self._per_dimension("blockSize")

    @property
    def cluster_sizes(self) -> list[Value | None]:
        return self._per_dimension("clusterSize")

    @property
    def has_clusters(self) -> bool:
        return any(v is not None for v in self.cluster_sizes)

    @property
    def body(self) -> Region | None:
        return self.op.regions[0] if self.op.regions else None

    @property
    def entry(self) -> Block | None:
        body = self.body
        return body.blocks[0] if body is not None and body.blocks else None

    @property
    def num_config_args(self) -> int:
        return LAUNCH_CONFIG_ARGS + (LAUNCH_CLUSTER_ARGS if self.has_clusters else 0)

    @property
    def num_workgroup_attributions(self) -> int:
        return _workgroup_attribution_count(self.op)

    @property
    def workgroup_attributions(self) -> list[BlockArgument]:
        entry = self.entry
        if entry is None:
            return []
        start = self.num_config_args
        return entry.arguments[start : start + self.num_workgroup_attributions]

    @property
    def private_attributions(self) -> list[BlockArgument]:
        entry = self.entry
        if entry is None:
            return []
        return entry.arguments[self.num_config_args + self.num_workgroup_attributions :]

    def attributions(self) -> tuple[list[BlockArgument], list[BlockArgument]]:
        """(workgroup, private) attribution block arguments."""
        return self.workgroup_attributions, self.private_attributions


class LaunchFuncView(_LaunchConfigView):
    """`gpu.launch_func`: kernel reference, dependencies, sizes, kernel operands and async object."""

    __slots__ = ()

    @property
    def kernel(self) -> SymbolRefAttr | None:
        attr = self.op.get_attr("kernel")
        return attr if isinstance(attr, SymbolRefAttr) else None

    def _written(self, prefix: str) -> list[Value]:
        """The operands `prefix`X, Y and Z that are written, in that order."""
        return [v for v in self._per_dimension(prefix) if v is not None]

    @property
    def grid_sizes(self) -> list[Value]:
        return self._written("gridSize")

    @property
    def block_sizes(self) -> list[Value]:
        return self._written("blockSize")

    @property
    def cluster_sizes(self) -> list[Value]:
        return self._written("clusterSize")

    @property
    def kernel_operands(self) -> list[Value]:
        return self._operands("kernelOperands")

    @property
    def kernel_operand_offset(self) -> int:
        """Index of the first kernel operand in `op.operands`."""
        if self.segments is None:
            return len(self.op.operands)
        return len(self.op.operands) - len(self.segments["kernelOperands"]) - len(self.segments["asyncObject"])

    @property
    def async_object(self) -> Value | None:
        return _single(self.segments, "asyncObject")


class FuncView:
    """`gpu.func`: signature, kernel flag, body and attributions."""

    __slots__ = ("op",)

    def __init__(self, op: Operation) -> None:
        self.op = op

    @property
    def function_type(self) -> T.FunctionType | None:
        attr = self.op.get_attr("function_type")
        if isinstance(attr, TypeAttr) and isinstance(attr.type, T.FunctionType):
            return attr.type
        return None

    @property
    def is_kernel(self) -> bool:
        """Marked `kernel`: the `gpu.kernel` attribute, or the `kernel` unit attribute of a generic form."""
        return self.op.get_attr("gpu.kernel") is not None or self.op.get_attr("kernel") is not None

    @property
    def body(self) -> Region | None:
        return self.op.regions[0] if self.op.regions else None

    @property
    def num_workgroup_attributions(self) -> int:
        return _workgroup_attribution_count(self.op)

    def attributions(self) -> tuple[list[BlockArgument], list[BlockArgument]]:
        """(workgroup, private) attribution block arguments."""
        fn = self.function_type
        body = self.body
        if fn is None or body is None or not body.blocks:
            return [], []
        args = body.blocks[0].arguments
        start = len(fn.inputs)
        nw = self.num_workgroup_attributions
        return args[start : start + nw], args[start + nw :]


class AllocView(_AsyncOpView):
    """`gpu.alloc`: dependencies, dynamic sizes, symbol operands, memref and token results."""

    __slots__ = ()

    @property
    def dynamic_sizes(self) -> list[Value]:
        return self._operands("dynamicSizes")

    @property
    def symbol_operands(self) -> list[Value]:
        return self._operands("symbolOperands")

    @property
    def memref(self) -> OpResult | None:
        return self.op.results[0] if self.op.results and not is_token_type(self.op.results[0].type) else None

    @property
    def host_shared(self) -> bool:
        return self.op.get_attr("hostShared") is not None


def copy_operands(op: Operation) -> tuple[Value, Value] | None:
    """(dst, src) of gpu.memcpy or (dst, value) of gpu.memset."""
    if op.name not in ("gpu.memcpy", "gpu.memset") or len(op.operands) < 2:
        return None
    return op.operands[-2], op.operands[-1]


def fresh_token_name(taken: Container[str]) -> str:
    """The name (without `%`) of a new async token, one scheme for every fix and refactoring: `tN`, the first N
    that `taken` does not hold."""
    k = 0
    while f"t{k}" in taken:
        k += 1
    return f"t{k}"
