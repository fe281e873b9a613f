"""Result names of the index dialect's constants (getAsmResultNames); its ops print by their formats."""

from __future__ import annotations

from gpu_lsp.ir.attributes import BoolAttr, IntegerAttr
from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import result_names


@result_names("index.constant")
def _constant_names(op: Operation):
    value = op.get_attr("value")
    if isinstance(value, IntegerAttr):
        yield 0, f"idx{value.value}"


@result_names("index.bool.constant")
def _bool_names(op: Operation):
    value = op.get_attr("value")
    if isinstance(value, BoolAttr):
        yield 0, "true" if value.value else "false"
