"""Ops declared by family: an ODS-style op class holds the facts its ops share, a name table lists them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_lsp.ir.opdefs.model import OpDef, declare

OpClass = Callable[..., OpDef]


def op_class(prefix: str, summary: str = "", syntax: str = "", **shared: Any) -> OpClass:
    """`make(mnemonic, summary="", **own)` declares `prefix.mnemonic` with the class's facts and its own.

    `summary` and `syntax` are templates: `{mnemonic}` and `{name}` stand for each op's, so an op of a
    family written alike needs only its mnemonic. An op's own summary or facts replace the class's.
    """

    def make(mnemonic: str, own_summary: str = "", **own: Any) -> OpDef:
        name = f"{prefix}.{mnemonic}"
        facts = {**shared, **own}
        if syntax and "syntax" not in own:
            facts["syntax"] = syntax.format(name=name, mnemonic=mnemonic)
        return declare(name, own_summary or summary.format(name=name, mnemonic=mnemonic), **facts)

    return make


def family(make: OpClass, mnemonics: str) -> tuple[OpDef, ...]:
    """One op of the class per whitespace-separated mnemonic of the name table, in its order."""
    return tuple(make(mnemonic) for mnemonic in mnemonics.split())
