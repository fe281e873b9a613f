"""The affine dialect keeps its source text (its maps are held as text): generic form included."""

from __future__ import annotations

from gpu_lsp.ir.opdefs import OPS
from gpu_lsp.ir.printer import GENERIC_FROM_SOURCE

GENERIC_FROM_SOURCE.update(
    name for name, op in OPS.items() if name.startswith(("affine.", "spirv.", "tensor.", "transform.")) and op.format is None
)
