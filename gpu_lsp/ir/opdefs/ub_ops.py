"""The ub dialect"s op definitions (upstream UBOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.model import OpDef, declare

OPS: tuple[OpDef, ...] = (
    declare("ub.poison", "A poison value of any type.", traits="constant_like pure", syntax="%p = ub.poison : T"),
)
