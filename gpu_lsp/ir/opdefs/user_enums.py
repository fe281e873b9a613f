"""A project's enum attributes (`[enums.<Constraint>]` of an op-definitions file), read as EnumDefs and made known."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gpu_lsp.ir import types as T
from gpu_lsp.ir.enums import ENUMS, EnumDef
from gpu_lsp.ir.opdefs.definition_file import Locator, Mistake

_BUILT_IN = frozenset(ENUMS)
_KEYS = ("cases", "mnemonic", "default")
_WORD = re.compile(r"[A-Za-z_][\w.]*\Z")


def read_enum(name: str, table: Any, dialect: str | None, where: Locator) -> EnumDef:
    """`[enums.Name]`: `cases`, and `mnemonic` for an EnumAttr held as `#dialect<mnemonic case>` (else an i32)."""
    header = f"enums.{name}"
    if not isinstance(table, dict):
        raise Mistake(where.error(f"'enums.{name}' must be a table", header))
    if name in _BUILT_IN:
        raise Mistake(where.error(f"enum {name} is built in; a project cannot declare it again", header))
    for key in table:
        if key not in _KEYS:
            raise Mistake(where.error(f"unknown key '{key}' (expected one of {', '.join(_KEYS)})", header, key, key))
    cases = table.get("cases")
    if not isinstance(cases, list) or not cases or not all(isinstance(c, str) and _WORD.match(c) for c in cases):
        raise Mistake(where.error("'cases' must be a list of keywords", header, "cases"))
    mnemonic = table.get("mnemonic", "")
    if not isinstance(mnemonic, str) or (mnemonic and not _WORD.match(mnemonic)):
        raise Mistake(where.error("'mnemonic' must be a keyword", header, "mnemonic"))
    if mnemonic and dialect is None:
        raise Mistake(where.error("an enum with a 'mnemonic' needs the file's `dialect = \"...\"`", header, "mnemonic"))
    default = table.get("default")
    if default is not None and default not in cases:
        raise Mistake(where.error(f"'default' must be one of the cases ({', '.join(cases)})", header, "default"))
    return EnumDef(name, tuple(cases), dialect or "", mnemonic, name, T.I32, default)


@contextmanager
def enums_known(enums: tuple[EnumDef, ...]) -> Iterator[None]:
    """ENUMS as the built-in enums and these alone while a file's ops are declared (their defaults and hover
    syntax name the cases; what another configuration made known must not leak into the reading)."""
    before = dict(ENUMS)
    for name in before.keys() - _BUILT_IN:
        del ENUMS[name]
    ENUMS.update((e.constraint, e) for e in enums)
    try:
        yield
    finally:
        ENUMS.clear()
        ENUMS.update(before)
