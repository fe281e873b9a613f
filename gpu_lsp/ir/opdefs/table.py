"""The table of op definitions: every dialect's declarations, and the hooks upper layers attach."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar

from gpu_lsp.ir.opdefs import declarations
from gpu_lsp.ir.opdefs.opdef import OpDef

OPS: dict[str, OpDef] = {}

F = TypeVar("F", bound=Callable[..., Any])


def _build() -> None:
    for definitions in declarations.ALL:
        for definition in definitions:
            if definition.name in OPS:
                raise ValueError(f"operation {definition.name} declared twice")
            OPS[definition.name] = definition


# A project's own ops in the table now (registry.py swaps them per configuration), and the file of each.
_USER: list[dict[str, OpDef]] = [{}]
_DECLARED_IN: list[dict[str, str]] = [{}]


def use_user_ops(ops: dict[str, OpDef], declared_in: dict[str, str], names: frozenset[str]) -> None:
    """Make `ops` the project's ops in the table, in place of the last ones (the same dict again: nothing to do);
    `names`: every op name then (`op_names`)."""
    global _NAMES
    if ops is _USER[0]:
        return
    for name in _USER[0]:
        OPS.pop(name, None)
    OPS.update(ops)
    _USER[0] = ops
    _DECLARED_IN[0] = declared_in
    _NAMES = names


def installed_from(name: str) -> str | None:
    """The source (an op-definitions file) that declared op `name`; None for a built-in or unknown op."""
    return _DECLARED_IN[0].get(name)


def lookup(name: str) -> OpDef | None:
    return OPS.get(name)


def op_names() -> frozenset[str]:
    return _NAMES


def has_trait(name: str, trait: str) -> bool:
    definition = OPS.get(name)
    return definition is not None and trait in definition.traits


def definition(name: str) -> OpDef:
    """The declaration of `name`; an undeclared name in a registration is a programming error."""
    found = OPS.get(name)
    if found is None:
        raise KeyError(f"no op definition for {name!r}")
    return found


def _attach(names: tuple[str, ...], hook: Literal["reader", "printer"]) -> Callable[[F], F]:
    """A decorator that makes the function the `hook` of each named op's definition."""

    def wrap(fn: F) -> F:
        for name in names:
            setattr(definition(name), hook, fn)
        return fn

    return wrap


def reader(*names: str) -> Callable[[F], F]:
    """Attach `fn(cursor, state)` as the hand-written reader of each named op."""
    return _attach(names, "reader")


def attach_readers(names: Iterable[str], fn: Callable[..., Any]) -> None:
    """Attach one hand-written reader to many ops (intrinsic families read alike)."""
    reader(*names)(fn)


def printer(*names: str) -> Callable[[F], F]:
    """Attach `fn(p, op)` as the hand-written printer of each named op."""
    return _attach(names, "printer")


_build()
BUILT_IN = frozenset(OPS)
_NAMES = BUILT_IN
