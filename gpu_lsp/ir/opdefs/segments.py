"""Named operands and results of an op, split by its declaration (ODS's generated accessors)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from gpu_lsp.ir.attributes import DenseArrayAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.opdefs.opdef import SINGLE, Arg, OpDef

V = TypeVar("V")


class _Layout:
    """What `split` needs of a declaration's args: their names, and where the one flexible arg is."""

    __slots__ = ("args", "names", "singles", "flexible")

    def __init__(self, args: tuple[Arg, ...]) -> None:
        self.args = args
        self.names = tuple(a.name for a in args)
        self.singles = (1,) * len(args)
        flexible = [i for i, a in enumerate(args) if a.kind != SINGLE]
        # The index of the one optional/variadic arg; -1: none; -2: more than one (sizes needed).
        self.flexible = -1 if not flexible else flexible[0] if len(flexible) == 1 else -2


# Per args tuple of a declaration, by identity (the layout keeps its tuple, so that an id is never
# reused meanwhile; one per declaration ever made: the built-in ones and a project's).
_LAYOUTS: dict[int, _Layout] = {}


def _layout(args: tuple[Arg, ...]) -> _Layout:
    layout = _LAYOUTS.get(id(args))
    if layout is None or layout.args is not args:
        layout = _LAYOUTS[id(args)] = _Layout(args)
    return layout


def arg_names(args: tuple[Arg, ...]) -> tuple[str, ...]:
    """The names of `args`, in order."""
    return _layout(args).names


def declared_sizes(args: tuple[Arg, ...], count: int) -> tuple[int, ...] | None:
    """How many of `count` items each of `args` takes when the one optional/variadic arg takes what
    the single ones leave; None when that cannot be (wrong count, or several flexible args)."""
    layout = _layout(args)
    flexible = layout.flexible
    if flexible == -1:
        return layout.singles if count == len(args) else None
    rest = count - (len(args) - 1)
    if flexible == -2 or rest < 0:
        return None
    return layout.singles[:flexible] + (rest,) + layout.singles[flexible + 1 :]


def split(args: tuple[Arg, ...], items: Sequence[V], sizes: tuple[int, ...] | None) -> dict[str, list[V]] | None:
    """`items` split over `args`: by segment sizes, else the one optional/variadic takes what is left.

    None when the items cannot be split that way (wrong counts: malformed IR).
    """
    layout = _layout(args)
    if sizes is None:
        if layout.flexible == -1:  # every arg single: one item each (declared_sizes' first case, inline)
            return {name: [item] for name, item in zip(layout.names, items)} if len(items) == len(args) else None
        sizes = declared_sizes(args, len(items))
        if sizes is None:
            return None
    elif len(sizes) != len(args) or sum(sizes) != len(items) or min(sizes, default=0) < 0:
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
