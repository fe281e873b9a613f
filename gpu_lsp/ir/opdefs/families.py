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


def same_type_class(prefix: str, constraint: str, operands: str, flag: str = "", flag_format: str = "") -> OpClass:
    """A Pure, SameOperandsAndResultType, ElementwiseMappable class (arith's and math's): `$lhs `,` $rhs [flag]
    attr-dict `:` type($result)`.

    `operands` names the operands, all of `constraint` like the result; `flag` is an attribute
    written after them as `flag_format` (`fastmath<fast>`, `overflow<nsw>`).
    """
    names = operands.split()
    ins = ", ".join([*(f"{constraint}:${name}" for name in names), *([flag] if flag else [])])
    written = " `,` ".join(f"${name}" for name in names)
    format = " ".join(part for part in (written, flag_format, "attr-dict `:` type($result)") if part)
    return op_class(prefix, traits="pure same_type elementwise", ins=ins, outs=f"{constraint}:$result", format=format)


def returning(name: str, summary: str, operands: str = "operands", **own: Any) -> OpDef:
    """A Pure, ReturnLike terminator that hands its variadic `operands` to its parent or caller,
    written `attr-dict ($operands^ `:` type($operands))?`."""
    return declare(
        name,
        summary,
        traits="pure region_return return_like terminator",
        ins=f"Variadic<AnyType>:${operands}",
        format=f"attr-dict (${operands}^ `:` type(${operands}))?",
        **own,
    )
