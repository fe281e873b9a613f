"""Show IR after each pass through a user's `mlir-opt` (lsp/pipeline.py, passes/ir_dump.py): the
command line, the child's isolation and limits, the dump cut into steps, a failing pass as the last
step; against a fake mlir-opt and against MLIR's own IR printer (the oracle's bindings)."""

from __future__ import annotations

import asyncio
import json
import math
import os
import stat
import sys
from pathlib import Path

import pytest
from support import oracle as oracle_support

from gpu_lsp.lsp import tool_child
from gpu_lsp.lsp.pipeline import mlir_opt_steps
from gpu_lsp.passes.ir_dump import pass_pipeline
from gpu_lsp.passes.steps import StepError
from gpu_lsp.runner.oslimits import ADDRESS_SPACE_SLACK, CPU_SLACK

MEMORY = 2**30
TEXT = """\
func.func @other() {
  return
}
// -----
func.func @f(%a: index) -> index {
  %0 = arith.addi %a, %a : index
  return %0 : index
}
"""

# A fake mlir-opt: each pass of a flat `builtin.module(...)` pipeline adds its name to a module
# attribute; `fail-here` fails with an error on line 6; `sleep` hangs. It notes how it was run.
FAKE = '''\
#!{python}
import json, os, re, resource, sys, time
args = sys.argv[1:]
json.dump({{"args": args, "cwd": os.getcwd(), "as": resource.getrlimit(resource.RLIMIT_AS)[0],
           "cpu": resource.getrlimit(resource.RLIMIT_CPU)[0]}}, open({record!r}, "w"))
pipeline = next(a for a in args if a.startswith("-pass-pipeline="))[len("-pass-pipeline="):]
body = sys.stdin.read().strip("\\n")
if "nope" in pipeline:
    sys.stderr.write("MLIR Textual PassPipeline Parser:1:16: error: 'nope' does not refer to a registered pass or pass pipeline\\n")
    sys.exit(1)
def dump(when, name, ir):
    sys.stderr.write(f"// -----// IR Dump {{when}} {{name}} ('builtin.module' operation) //----- //\\n{{ir}}\\n\\n")
def printed(done):
    head = "module {{" if not done else "module attributes {{test.done = [" + ", ".join(f'\\"{{d}}\\"' for d in done) + "]}} {{"
    return head + "\\n" + "\\n".join("  " + line for line in body.split("\\n")) + "\\n}}"
done = []
for name in re.match(r"builtin\\.module\\((.*)\\)$", pipeline).group(1).split(","):
    dump("Before", f"Pass{{len(done)}} ({{name}})", printed(done))
    if name == "sleep":
        time.sleep(60)
    if name == "fail-here":
        sys.stderr.write("<stdin>:6:8: error: 'arith.addi' op cannot be handled\\n  %0 = arith.addi %a, %a : index\\n       ^\\n")
        dump("After", f"FailHere Failed ({{name}})", printed(done))
        sys.exit(1)
    done.append(name)
    dump("After", f"Pass{{len(done)}} ({{name}})", printed(done))
print(printed(done))
'''


def _executable(path: Path, text: str) -> str:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def fake(tmp_path: Path) -> tuple[str, Path]:
    record = tmp_path / "record.json"
    return _executable(tmp_path / "mlir-opt", FAKE.format(python=sys.executable, record=str(record))), record


def _steps(mlir_opt: str, pipeline: str, timeout: float = 30.0, text: str = TEXT):
    return asyncio.run(mlir_opt_steps(text, text.index("arith.addi"), pipeline, mlir_opt, timeout, MEMORY))


def test_each_pass_is_a_step_from_the_dump_of_the_chunk_at_the_cursor(fake: tuple[str, Path]) -> None:
    mlir_opt, record = fake
    steps = _steps(mlir_opt, "first,second")
    assert [s.name for s in steps] == ["input", "first", "second"]
    assert steps[0].text.startswith("module {\n  func.func @f(") and "@other" not in steps[0].text
    assert steps[1].text.startswith('module attributes {test.done = ["first"]} {')
    assert steps[2].text.startswith('module attributes {test.done = ["first", "second"]} {')
    assert all(s.origins == () for s in steps)
    ran = json.loads(record.read_text())
    assert ran["args"] == ["-pass-pipeline=builtin.module(first,second)", "-mlir-print-ir-before-all", "-mlir-print-ir-after-all",
                           "-mlir-print-ir-module-scope", "-mlir-disable-threading", "-"]


def test_the_child_runs_outside_the_workspace_under_os_limits_and_without_a_shell(fake: tuple[str, Path], tmp_path: Path) -> None:
    mlir_opt, record = fake
    marker = tmp_path / "shell-ran"
    steps = _steps(mlir_opt, f"first;touch {marker}", timeout=7.5)
    assert steps[1].name == f"first;touch {marker}" and not marker.exists()
    ran = json.loads(record.read_text())
    assert ran["cwd"] == os.path.abspath(os.sep)
    assert ran["as"] == MEMORY + ADDRESS_SPACE_SLACK and ran["cpu"] == math.ceil(7.5) + CPU_SLACK


def test_a_failing_pass_is_the_last_step_with_its_error(fake: tuple[str, Path]) -> None:
    steps = _steps(fake[0], "first,fail-here,never")
    assert [s.name for s in steps] == ["input", "first", "fail-here (failed)"]
    last = steps[-1].text
    assert last.startswith("// <stdin>:6:8: error: 'arith.addi' op cannot be handled\n//   %0 = arith.addi")
    assert 'module attributes {test.done = ["first"]} {' in last


def test_what_cannot_run_is_one_message(fake: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(StepError, match="'nope' does not refer to a registered pass"):
        _steps(fake[0], "first,nope")
    with pytest.raises(StepError, match="could not start"):
        _steps(str(tmp_path / "missing-mlir-opt"), "first")
    with pytest.raises(StepError, match="did not finish within 1 s and was stopped"):
        _steps(fake[0], "sleep", timeout=1)
    monkeypatch.setattr(tool_child, "MAX_OUTPUT", 100)
    with pytest.raises(StepError, match="printed more than"):
        _steps(fake[0], "first,second")


def test_a_typed_pipeline_is_anchored_on_the_module_once() -> None:
    assert pass_pipeline(" a,func.func(b) ") == "-pass-pipeline=builtin.module(a,func.func(b))"
    assert pass_pipeline("builtin.module(a,func.func(b))") == "-pass-pipeline=builtin.module(a,func.func(b))"
    assert pass_pipeline("builtin.module(a),builtin.module(b)") == "-pass-pipeline=builtin.module(builtin.module(a),builtin.module(b))"


LAUNCH = """\
func.func @f(%a: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%o = %c1, %p = %c1, %q = %c1) {
    %s = arith.addi %a, %c1 : index
    gpu.terminator
  }
  return
}
func.func @g() {
  return
}
"""


@pytest.fixture
def standin(tmp_path: Path) -> str:
    return oracle_support.mlir_opt_standin(tmp_path)


def test_mlirs_own_ir_printer_cut_into_steps(standin: str) -> None:
    steps = asyncio.run(mlir_opt_steps(LAUNCH, 0, "gpu-launch-sink-index-computations,gpu-kernel-outlining,func.func(canonicalize)", standin, 60, 4 * MEMORY))
    assert [s.name for s in steps] == ["input", "gpu-launch-sink-index-computations", "gpu-kernel-outlining", "canonicalize @f", "canonicalize @g"]
    assert steps[0].text.startswith("module {\n  func.func @f(%arg0: index) {") and "gpu.launch blocks" in steps[0].text
    assert "gpu.launch_func" not in steps[1].text and "gpu.launch_func" in steps[2].text and "gpu.module @f_kernel" in steps[2].text
    kernels = "module attributes {gpu.container_module} {\n  gpu.module @k {\n  }\n}\n"
    failed = asyncio.run(mlir_opt_steps(kernels, 0, "cse,gpu-module-to-binary,cse", standin, 60, 4 * MEMORY))
    assert [s.name for s in failed] == ["input", "cse", "gpu-module-to-binary (failed)"]
    assert failed[-1].text.startswith("// -:2:3: error: the module has no target attributes\nmodule attributes {gpu.container_module} {")
