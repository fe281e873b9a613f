"""The builtin dialect's op definitions (upstream BuiltinOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "builtin.module",
        "A top-level container of operations.",
        traits="graph isolated no_terminator symbol_table",
        default_dialect="builtin",
        syntax="module [@name] [attributes {...}] { ... }",
    ),
    declare(
        "builtin.unrealized_conversion_cast",
        "A cast between types of two dialects, left by partial conversion.",
        traits="pure",
        ins="Variadic<AnyType>:$inputs",
        outs="Variadic<AnyType>:$outputs",
        format="($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict",
    ),
)
