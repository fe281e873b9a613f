"""The tensor dialect's suggested result names (its ops print by their declared formats)."""

from __future__ import annotations

from gpu_lsp.ir.core import Operation
from gpu_lsp.ir.printer import result_names

# getAsmResultNames of TensorOps.td's ops.
_NAMES = {
    "tensor.extract": "extracted",
    "tensor.insert": "inserted",
    "tensor.dim": "dim",
    "tensor.rank": "rank",
    "tensor.cast": "cast",
    "tensor.from_elements": "from_elements",
    "tensor.splat": "splat",
    "tensor.reshape": "reshape",
    "tensor.generate": "generated",
    "tensor.pad": "padded",
    "tensor.extract_slice": "extracted_slice",
    "tensor.insert_slice": "inserted_slice",
    "tensor.expand_shape": "expanded",
    "tensor.collapse_shape": "collapsed",
    "tensor.concat": "concat",
    "tensor.gather": "gather",
    "tensor.scatter": "scatter",
}


@result_names(*_NAMES)
def _names(op: Operation) -> list[tuple[int, str]]:
    return [(0, _NAMES[op.name])]
