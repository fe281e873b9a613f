"""The tosa dialect"s op definitions (upstream TosaOps.td): only its constant, which passes fold."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "tosa.const",
        "A constant tensor.",
        traits="constant_like pure",
        syntax='%c = "tosa.const"() <{values = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>',
    ),
)
