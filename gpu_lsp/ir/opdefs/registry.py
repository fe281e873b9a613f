"""A configuration's op registry: what its op-definitions files declare, immutable, made the table's while in use.

The op table (table.py) holds the built-in ops and the ops of one registry, the active one. A parse or a
lint uses the registry its document's configuration names (`activate` first); activating the registry
already active costs one identity test, another one replaces the project's ops (built-in ones are never
copied). Nothing here reads files: a registry is built from `(path, text)` pairs (lint/op_definitions.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from gpu_lsp.ir.enums import ENUMS, EnumDef
from gpu_lsp.ir.opdefs.definition_file import DefinitionError
from gpu_lsp.ir.opdefs.opdef import OpDef
from gpu_lsp.ir.opdefs.table import BUILT_IN as BUILT_IN_NAMES
from gpu_lsp.ir.opdefs.table import use_user_ops
from gpu_lsp.ir.opdefs.user_ops import read_user_ops

Sources = tuple[tuple[str, str], ...]  # (path, text) of each op-definitions file, in the configuration's order


@dataclass(frozen=True, eq=False)
class OpRegistry:
    """The ops and enums a configuration's op-definitions files declare, and their mistakes per file."""

    sources: Sources = ()
    ops: dict[str, OpDef] = field(default_factory=dict)
    enums: dict[str, EnumDef] = field(default_factory=dict)
    declared_in: dict[str, str] = field(default_factory=dict)  # op name -> the file that declares it
    errors: tuple[tuple[str, DefinitionError], ...] = ()  # declarations left out, with their file
    names: frozenset[str] = BUILT_IN_NAMES  # every op name while it is active (built-in ones too)


BUILT_IN = OpRegistry()
_ACTIVE: list[OpRegistry] = [BUILT_IN]


@functools.lru_cache(maxsize=32)
def registry_of(sources: Sources) -> OpRegistry:
    """The registry of these files' texts (cached: the same sources give the same registry).

    A declaration another file of the configuration made first, or of a built-in op, is refused.
    """
    if not sources:
        return BUILT_IN
    ops: dict[str, OpDef] = {}
    enums: dict[str, EnumDef] = {}
    declared_in: dict[str, str] = {}
    enum_files: dict[str, str] = {}
    errors: list[tuple[str, DefinitionError]] = []
    for path, text in sources:
        found = read_user_ops(text)
        errors.extend((path, error) for error in found.errors)
        headers = dict(found.headers)
        refused: list[tuple[str, str]] = []
        for enum in found.enums:
            if enum.constraint in enum_files:
                refused.append((enum.constraint, f"enum {enum.constraint} is already declared in {enum_files[enum.constraint]}"))
            else:
                enums[enum.constraint] = enum
                enum_files[enum.constraint] = path
        mine: set[str] = set()
        for op in found.ops:
            if op.name in mine:
                refused.append((op.name, f"operation {op.name} is declared twice"))
            elif op.name in declared_in:
                refused.append((op.name, f"operation {op.name} is already declared in {declared_in[op.name]}"))
            elif op.name in BUILT_IN_NAMES:
                refused.append((op.name, f"operation {op.name} is built in; a project cannot declare it again"))
            else:
                ops[op.name] = op
                declared_in[op.name] = path
                mine.add(op.name)
        errors.extend((path, replace(headers[name], message=why)) for name, why in refused)
    return OpRegistry(sources, ops, enums, declared_in, tuple(errors), BUILT_IN_NAMES | frozenset(ops))


def activate(registry: OpRegistry) -> None:
    """Make `registry` the one the op table and the enums answer from (the active one again: nothing to do)."""
    last = _ACTIVE[0]
    if registry is last:
        return
    for name in last.enums:
        ENUMS.pop(name, None)
    ENUMS.update(registry.enums)
    use_user_ops(registry.ops, registry.declared_in, registry.names)
    _ACTIVE[0] = registry


def active() -> OpRegistry:
    """The registry the op table answers from now."""
    return _ACTIVE[0]
