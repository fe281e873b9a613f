"""Op classes of an op-definitions file (ODS's `class GPU_IndexOp : GPU_Op<...>`): facts their ops share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gpu_lsp.ir.brackets import split_commas

# The ODS lists an op declares, and the word each is written with: `(ins ...)`, `(outs ...)`, ...
LIST_WORDS = {"arguments": "ins", "results": "outs", "regions": "region", "successors": "successor"}
# In a class's list, trait list or format, `...` stands for what the op (or the derived class) gives.
PLACEHOLDER = "..."


@dataclass(frozen=True)
class OpClass:
    """The facts a class gives its ops, the prefix of their names (the dialect's, or `llvm.intr`), and the
    ops it declares by mnemonic alone (`members`)."""

    prefix: str
    facts: dict[str, Any]
    mnemonics: tuple[str, ...] = ()

    def derive(self, prefix: str | None, facts: dict[str, Any], mnemonics: tuple[str, ...]) -> OpClass:
        """A class based on this one (`class = "..."` in a class table): its facts composed with these."""
        return OpClass(prefix or self.prefix, compose(self.facts, facts, final=False), mnemonics)

    def make(self, mnemonic: str, own: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The name and facts of the class's op `mnemonic`, its own facts composed with the class's.

        The class's `summary` and `syntax` are templates: `{mnemonic}` and `{name}` stand for the op's.
        """
        name = f"{self.prefix}.{mnemonic}"
        facts = compose(self.facts, own, final=True)
        for key in ("summary", "syntax"):
            if key in self.facts and key not in own:
                facts[key] = self.facts[key].replace("{mnemonic}", mnemonic).replace("{name}", name)
        return name, facts

    def members(self) -> list[tuple[str, dict[str, Any]]]:
        return [self.make(mnemonic, {}) for mnemonic in self.mnemonics]


def compose(base: dict[str, Any], own: dict[str, Any], final: bool) -> dict[str, Any]:
    """`own` facts over `base` ones: where a base value holds `...`, own's value goes there (`final`: and where
    own gives none, the `...` goes away); elsewhere own's value replaces base's."""
    out = {**base, **own}
    for key, value in base.items():
        if _holds_placeholder(key, value) and (key in own or final):
            out[key] = _fill(key, value, own.get(key))
    return out


def _holds_placeholder(key: str, value: Any) -> bool:
    if PLACEHOLDER not in value:
        return False
    if key in LIST_WORDS:
        return PLACEHOLDER in _items(key, value)
    if key == "traits":
        return PLACEHOLDER in value
    return key == "assemblyFormat" and PLACEHOLDER in value.split()


def _fill(key: str, value: Any, own: Any) -> Any:
    """`value` with `own` (or nothing) where its `...` is."""
    if key in LIST_WORDS:
        items = [piece for item in _items(key, value) for piece in (_items(key, own) if item == PLACEHOLDER else [item])]
        return f"({LIST_WORDS[key]} {', '.join(items)})" if items else f"({LIST_WORDS[key]})"
    if key == "traits":
        return [piece for item in value for piece in (own or [] if item == PLACEHOLDER else [item])]
    before, _, after = f" {value} ".partition(f" {PLACEHOLDER} ")
    return " ".join(part for part in (before.strip(), (own or "").strip(), after.strip()) if part)


def _items(key: str, text: str | None) -> list[str]:
    """The entries of an ODS list, written `(ins a, b)` or bare `a, b`."""
    if not text:
        return []
    opened = re.match(rf"\(\s*{LIST_WORDS[key]}\b(.*)\)\s*\Z", text.strip(), re.S)
    return split_commas(opened[1] if opened else text, drop_empty=True)
