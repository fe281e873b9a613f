"""Bit-flag attributes a format writes as `<a, b>` after a keyword (`overflow<nsw>`, `fastmath<fast>`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gpu_lsp.ir.attributes import Attribute, DialectAttr
from gpu_lsp.ir.enums import unknown_case


@dataclass(frozen=True)
class FlagsDef:
    """An ODS bit-enum attribute: its flags in bit order and how upstream writes a set of them."""

    constraint: str
    dialect: str
    mnemonic: str
    flags: tuple[str, ...]
    separator: str
    all_name: str | None = None
    description: str = ""  # the enum's summary, which newer upstream parsers name in their errors

    def unknown(self, word: str) -> str:
        """Upstream's error for a word that is no flag of this enum."""
        cases = ("none", *self.flags)
        return unknown_case(cases, self.description, word) or f"expected {self.mnemonic} flags to be one of: {', '.join(cases)}"

    def canonical(self, names: Iterable[str]) -> list[str] | None:
        """`names` in bit order, `fast` expanded; None when one is not a flag of this enum."""
        chosen: set[str] = set()
        for name in names:
            if name == self.all_name:
                chosen.update(self.flags)
            elif name in self.flags:
                chosen.add(name)
            elif name != "none":
                return None
        return [f for f in self.flags if f in chosen]

    def attribute(self, names: Iterable[str]) -> DialectAttr | None:
        """The attribute for a set of flags, as the generic form's `#arith.fastmath<...>` reads."""
        flags = self.canonical(names)
        if flags is None:
            return None
        if self.all_name is not None and len(flags) == len(self.flags):
            return DialectAttr(self.dialect, self.mnemonic, self.all_name)
        return DialectAttr(self.dialect, self.mnemonic, self.separator.join(flags) or "none")

    def text(self, attr: Attribute) -> str | None:
        """`<nsw, nuw>` / `<fast>` for the custom form, or None when `attr` is not of this enum."""
        if not isinstance(attr, DialectAttr) or (attr.dialect, attr.name) != (self.dialect, self.mnemonic):
            return None
        flags = self.canonical(f.strip() for f in (attr.body or "").split(self.separator.strip()))
        if flags is None:
            return None
        if self.all_name is not None and len(flags) == len(self.flags):
            return f"<{self.all_name}>"
        return "<" + (self.separator.join(flags) or "none") + ">"


_FLAGS = (
    FlagsDef("Arith_IntegerOverflowAttr", "arith", "overflow", ("nsw", "nuw"), ", "),
    FlagsDef("Arith_FastMathAttr", "arith", "fastmath", ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"), ",", "fast"),
    FlagsDef(
        "AMDGPU_SchedBarrierOpOptAttr",
        "amdgpu",
        "sched_barrier_opt",
        (
            "non_mem_non_sideffect", "valu", "salu", "mfma_wmma", "all_vmem", "vmem_read", "vmem_write",
            "all_ds", "ds_read", "ds_write", "transcendental",
        ),
        "|",
        description="The possible options for scheduling barriers",
    ),
    FlagsDef(
        "Vector_CombiningKindAttr",
        "vector",
        "kind",
        ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor", "maximumf", "minimumf"),
        "|",
    ),
)

FLAGS: dict[str, FlagsDef] = {f.constraint: f for f in _FLAGS}
_BY_MNEMONIC: dict[tuple[str, str], FlagsDef] = {(f.dialect, f.mnemonic): f for f in _FLAGS}


def canonical_flags(attr: DialectAttr) -> DialectAttr:
    """A bit-flag attribute with its flags as upstream prints them (`#arith.fastmath<nnan,ninf>`); others as they are."""
    kind = _BY_MNEMONIC.get((attr.dialect, attr.name))
    if kind is None or attr.body is None:
        return attr
    return kind.attribute(f.strip() for f in attr.body.split(kind.separator.strip())) or attr
