"""Named operands and results of an op, split by its declaration (ODS's generated accessors)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.opdef import SINGLE, Arg, OpDef

V = TypeVar("V")


def split(args: tuple[Arg, ...], items: Sequence[V], sizes: tuple[int, ...] | None) -> dict[str, list[V]] | None:
    """`items` split over `args`: by segment sizes, else the one optional/variadic takes what is left.

    None when the items cannot be split that way (wrong counts: malformed IR).
    """
    if sizes is not None:
        if len(sizes) != len(args) or sum(sizes) != len(items) or min(sizes, default=0) < 0:
            return None
    else:
        flexible = [a for a in args if a.kind != SINGLE]
        if len(flexible) > 1:
            return None
        rest = len(items) - (len(args) - len(flexible))
        if rest < 0 or (not flexible and rest != 0):
            return None
        sizes = tuple(1 if a.kind == SINGLE else rest for a in args)
    out: dict[str, list[V]] = {}
    i = 0
    for arg, n in zip(args, sizes):
        out[arg.name] = list(items[i : i + n])
        i += n
    return out


def _sizes(op: Operation, key: str) -> tuple[int, ...] | None:
    attr = op.get_attr(key)
    return tuple(attr.values) if isinstance(attr, DenseArrayAttr) else None


def operand_groups(definition: OpDef, op: Operation) -> dict[str, list] | None:
    """Operands by declared name; None when the op declares none or its operands do not fit."""
    if definition.operands is None:
        return None
    sizes = _sizes(op, "operandSegmentSizes") if definition.has("attr_sized_operands") else None
    return split(definition.operands, op.operands, sizes)


def result_groups(definition: OpDef, op: Operation) -> dict[str, list] | None:
    """Results by declared name; None when the op declares none or its results do not fit."""
    if definition.results is None:
        return None
    return split(definition.results, op.results, _sizes(op, "resultSegmentSizes"))
