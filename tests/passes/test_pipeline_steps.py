"""A pipeline step by step (passes/steps.py): one printed module per step, ops mapped back to the source."""

from __future__ import annotations

import pytest

from gpu_lsp.lsp.pipeline import pass_list
from gpu_lsp.passes.steps import StepError, pipeline_steps

TEXT = """\
func.func @other() {
  return
}
// -----
func.func @launch(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = arith.addi %c1, %c1 : index
    gpu.terminator
  }
  return
}
"""


def test_each_step_is_the_module_after_that_pass_and_surviving_ops_map_back() -> None:
    steps = pipeline_steps(TEXT, "gpu-launch-sink-index-computations,gpu-kernel-outlining", TEXT.index("gpu.launch"))
    assert [s.name for s in steps] == ["input", "gpu-launch-sink-index-computations", "gpu-kernel-outlining"]
    assert "@other" not in steps[0].text and steps[0].text.startswith("module {\n  func.func @launch(")
    assert "gpu.launch blocks" in steps[1].text and "gpu.launch_func" in steps[2].text and "gpu.container_module" in steps[2].text
    sunk = steps[1].text.split("gpu.launch blocks", 1)[1]
    assert "arith.constant 1 : index" in sunk  # the constant was sunk into the launch body
    for step in steps:
        lines = step.text.split("\n")
        for line, offset in step.origins:
            op_line = lines[line].strip()
            source = TEXT[offset:].split("\n", 1)[0]
            assert op_line.split(" ")[0 if not op_line.startswith("%") else 2] in source, (step.name, op_line, source)
    launch = TEXT.index("func.func @launch")
    assert (1, launch) in steps[2].origins  # `func.func @launch` survives outlining, on line 1


def test_a_nested_pipeline_is_one_step_and_errors_are_one_line() -> None:
    steps = pipeline_steps(TEXT, "builtin.module(gpu-kernel-outlining,func.func(gpu-async-region))", TEXT.index("gpu.launch"))
    assert [s.name for s in steps] == ["input", "gpu-kernel-outlining", "func.func(gpu-async-region)"]
    assert "gpu.wait async" in steps[2].text
    with pytest.raises(StepError, match=r"^func.func\(gpu-async-region\): 'gpu.launch' op replace with gpu.launch_func first$"):
        pipeline_steps(TEXT, "func.func(gpu-async-region)", TEXT.index("gpu.launch"))
    with pytest.raises(StepError, match="invalid pass pipeline 'no-such-pass'"):
        pipeline_steps(TEXT, "no-such-pass")
    with pytest.raises(StepError, match="the chunk does not parse"):
        pipeline_steps("func.func @f( {\n", "gpu-kernel-outlining")


def test_the_pass_list_offers_every_pass_with_its_options() -> None:
    passes = {p["name"]: p for p in pass_list()}
    assert {"gpu-kernel-outlining", "gpu-launch-sink-index-computations", "gpu-async-region"} <= set(passes)
    assert "data-layout-str" in passes["gpu-kernel-outlining"]["options"]
    assert passes["gpu-async-region"]["anchor"] == "func.func"
