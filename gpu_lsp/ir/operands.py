"""Named operands: an op's operands grouped as its definition declares them (ODS's operand segments)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_lsp.ir.attributes import DenseArrayAttr, OpaqueAttr
from gpu_lsp.ir.core import Operation, Value
from gpu_lsp.ir.opdefs import definition, lookup
from gpu_lsp.ir.opdefs.segments import declared_sizes

SEGMENTS = "operandSegmentSizes"


def segment_sizes(op: Operation) -> tuple[int, ...] | None:
    """The `operandSegmentSizes` of `op` (property or, in old generic form, attribute), if well formed."""
    attr = op.properties.get(SEGMENTS)
    if attr is None:
        attr = op.attributes.get(SEGMENTS)
        if attr is None:
            return None
    if type(attr) is DenseArrayAttr:
        values: tuple[int, ...] = attr.values
        for size in values:  # a loop the compiled build types (`min` of a tuple is a generic call)
            if not isinstance(size, int) or size < 0:
                return None
        return values
    if isinstance(attr, OpaqueAttr) and attr.text.startswith("dense<"):
        try:
            body = attr.text[len("dense<") : attr.text.rindex(">")].strip("[] ")
            return tuple(int(v) for v in body.split(",")) if body else ()
        except ValueError:
            return None
    return None


def fitting_segment_sizes(op: Operation) -> tuple[int, ...] | None:
    """`segment_sizes` of `op` where they add up to its operand count."""
    sizes = segment_sizes(op)
    if sizes is None:
        return None
    total = 0
    for size in sizes:  # typed in the compiled build (`sum` is a generic call)
        total += size
    return sizes if total == len(op.operands) else None


def _group_sizes(op: Operation) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    definition = lookup(op.name)
    layout = definition.operand_layout if definition is not None else None
    if layout is None:
        return None
    names = layout.names
    if layout.sized_by_attribute:
        sizes = fitting_segment_sizes(op)
        if sizes is None or len(sizes) != len(names):
            return None
        return names, sizes
    found = declared_sizes(layout, len(op.operands))
    return None if found is None else (names, found)


def operand_ranges(op: Operation) -> dict[str, range] | None:
    """Where each declared operand group lies in `op.operands`: from `operandSegmentSizes` when the
    op has several optional or variadic groups, else from the count. None when the op has no
    declared operands or its operands do not fit the declaration."""
    grouped = _group_sizes(op)
    if grouped is None:
        return None
    out: dict[str, range] = {}
    pos = 0
    for name, size in zip(*grouped):
        out[name] = range(pos, pos + size)
        pos += size
    return out


def operand_range(op: Operation, name: str) -> range:
    """The indices in `op.operands` of the declared group `name` (empty when absent or malformed)."""
    ranges = operand_ranges(op)
    return ranges.get(name, range(0)) if ranges is not None else range(0)


def segments(op: Operation) -> dict[str, list[Value]] | None:
    """The operands of `op` by declared name (`asyncDependencies`, `gridSizeX`, `kernelOperands`...)."""
    grouped = _group_sizes(op)
    if grouped is None:
        return None
    operands = op.operands
    out: dict[str, list[Value]] = {}
    pos = 0
    for name, size in zip(*grouped):
        out[name] = operands[pos : pos + size]
        pos += size
    return out


def operand_group(op: Operation, name: str) -> list[Value]:
    """The operands of the declared group `name` (empty when absent or when the op is malformed)."""
    found = operand_range(op, name)
    return op.operands[found.start : found.stop]


def operand(op: Operation, name: str) -> Value | None:
    """The operand declared as `name` (`op.operand("gridSizeX")` in ODS), None when absent."""
    group = operand_group(op, name)
    return group[0] if len(group) == 1 else None


def split_by_segments(op: Operation, values: list) -> dict[str, list] | None:
    """`values` (one per operand of `op`, e.g. the runner's runtime values) grouped by declared name."""
    ranges = operand_ranges(op)
    if ranges is None or len(values) != len(op.operands):
        return None
    return {name: values[r.start : r.stop] for name, r in ranges.items()}


def assemble(op_name: str, groups: Mapping[str, Sequence[Value]]) -> tuple[list[Value], tuple[int, ...]]:
    """The operands of a new `op_name` in declared order from its named groups (a name left out is
    empty), and the sizes for its `operandSegmentSizes`."""
    declared = definition(op_name).operands or ()
    unknown = set(groups) - {arg.name for arg in declared}
    if unknown:
        raise KeyError(f"{op_name} declares no operands {sorted(unknown)}")
    values: list[Value] = []
    sizes: list[int] = []
    for arg in declared:
        group = list(groups.get(arg.name, ()))
        values.extend(group)
        sizes.append(len(group))
    return values, tuple(sizes)
