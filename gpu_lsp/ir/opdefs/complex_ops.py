"""The complex dialect"s op definitions (upstream ComplexOps.td): only its constant, which passes fold."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare(
        "complex.constant",
        "A complex number constant from its real and imaginary parts.",
        traits="constant_like pure",
        syntax="%c = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>",
    ),
)
