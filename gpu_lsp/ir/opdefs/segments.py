"""Named operands and results of an op, split by its declaration (ODS's generated accessors)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.opdef import ArgLayout, OpDef

V = TypeVar("V")


def declared_sizes(layout: ArgLayout, count: int) -> tuple[int, ...] | None:
    """How many of `count` items each arg of `layout` takes when the one optional/variadic arg takes
    what the single ones leave; None when that cannot be (wrong count, or several flexible args)."""
    by_count = layout.by_count
    if count in by_count:
        return by_count[count]
    flexible = layout.flexible
    declared = len(layout.names)
    found: tuple[int, ...] | None
    if flexible == -1:
        found = layout.singles if count == declared else None
    elif flexible == -2 or count < declared - 1:
        found = None
    else:
        found = layout.singles[:flexible] + (count - (declared - 1),) + layout.singles[flexible + 1 :]
    by_count[count] = found
    return found


def split(layout: ArgLayout, items: Sequence[V], sizes: tuple[int, ...] | None) -> dict[str, list[V]] | None:
    """`items` split over the args of `layout`: by segment sizes, else the one optional/variadic takes what is left.

    None when the items cannot be split that way (wrong counts: malformed IR).
    """
    if sizes is None:
        if layout.flexible == -1:  # every arg single: one item each (declared_sizes' first case, inline)
            return {name: [item] for name, item in zip(layout.names, items)} if len(items) == len(layout.names) else None
        sizes = declared_sizes(layout, len(items))
        if sizes is None:
            return None
    elif len(sizes) != len(layout.names) or sum(sizes) != len(items) or min(sizes, default=0) < 0:
        return None
    out: dict[str, list[V]] = {}
    i = 0
    for name, n in zip(layout.names, sizes):
        out[name] = list(items[i : i + n]) if n != 1 else [items[i]]
        i += n
    return out


def _sizes(op: Operation, key: str) -> tuple[int, ...] | None:
    attr = op.get_attr(key)
    return tuple(attr.values) if isinstance(attr, DenseArrayAttr) else None


def _operand_sizes(definition: OpDef, op: Operation) -> tuple[int, ...] | None:
    layout = definition.operand_layout
    return _sizes(op, "operandSegmentSizes") if layout is not None and layout.sized_by_attribute else None


def operand_groups(definition: OpDef, op: Operation) -> dict[str, list] | None:
    """Operands by declared name; None when the op declares none or its operands do not fit."""
    layout = definition.operand_layout
    if layout is None:
        return None
    return split(layout, op.operands, _operand_sizes(definition, op))


def result_groups(definition: OpDef, op: Operation) -> dict[str, list] | None:
    """Results by declared name; None when the op declares none or its results do not fit."""
    layout = definition.result_layout
    if layout is None:
        return None
    return split(layout, op.results, _sizes(op, "resultSegmentSizes"))


def segment_sizes(definition: OpDef, op: Operation) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """The operand and result segment sizes `operand_groups` and `result_groups` split by (besides the counts)."""
    return _operand_sizes(definition, op), _sizes(op, "resultSegmentSizes")
