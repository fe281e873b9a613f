"""Result names of the math dialect (math.sincos's getAsmResultNames); its ops print by their formats."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import result_names


@result_names("math.sincos")
def _sincos_names(op: Operation):
    return [(0, "sin"), (1, "cos")]
