"""Ops of dialects gpu-lsp does not know, in custom form (IREE's hal, iree_tensor_ext, util): one hint each, no error cascade."""

from __future__ import annotations

from gpu_lsp.analysis import lint_text
from gpu_lsp.diagnostics.model import Severity
from gpu_lsp.parser.api import parse

IREE = """\
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">]>
func.func @dispatch() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%c0) flags(ReadOnly) : memref<?xf32>
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?xf32>{%1}
  %4 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0], sizes = [%1], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%1, %1} -> tensor<?xf32>
  %5 = memref.load %2[%c0] : memref<?xf32>
  %6 = arith.addf %5, %cst : f32
  util.optimization_barrier %6 : f32
  return
}
"""  # noqa: E501 (one op per line, as IREE prints them)

UNKNOWN = [
    "hal.interface.constant.load",
    "hal.interface.binding.subspan",
    "hal.interface.binding.subspan",
    "iree_tensor_ext.dispatch.tensor.load",
    "util.optimization_barrier",
]


def test_unknown_custom_ops_give_one_hint_each_and_nothing_else() -> None:
    diagnostics = lint_text(IREE)
    assert [d.code for d in diagnostics] == ["GPU006"] * len(UNKNOWN)
    assert [d.message.split("'")[1] for d in diagnostics] == UNKNOWN
    assert all(d.severity == Severity.HINT for d in diagnostics)


def test_their_results_and_uses_are_read() -> None:
    module = parse(IREE).chunks[0].module
    ops = {op.name: op for op in module.walk()}
    subspan = next(op for op in module.walk() if op.name == "hal.interface.binding.subspan")
    assert len(subspan.results) == 1 and [v.owner.name for v in subspan.operands] == ["arith.constant"]
    cast = ops["arith.index_castui"]
    # `{%1}` after a type (dynamic dimensions) is a use of %1, neither a region nor a dictionary.
    users = sorted(use.owner.name for use in cast.results[0].uses)
    assert users == ["hal.interface.binding.subspan"] + ["iree_tensor_ext.dispatch.tensor.load"] * 3
    assert ops["memref.load"].operands[0] is subspan.results[0]
