"""Every bundled example has a @main that gpu-run runs (mistakes.mlir's with --split-input-file)."""

from __future__ import annotations

from helpers import printed_memrefs, run
from support import REPO

from gpu_lsp.runner import run_file

EXAMPLES = REPO / "examples"


def test_every_example_is_covered_here() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.mlir")) == ["async_pipeline.mlir", "mistakes.mlir", "outlined_module.mlir"]


def test_async_pipeline_runs() -> None:
    result = run_file(str(EXAMPLES / "async_pipeline.mlir"), backend="numpy")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    expected = [max(0.5 * (i - 8) + 1, 0.0) for i in range(16)]
    assert printed_memrefs(result.stdout)[0].tolist() == expected


def test_outlined_module_runs() -> None:
    result = run_file(str(EXAMPLES / "outlined_module.mlir"), backend="numpy")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    y = [2 * i + 1 for i in range(1000)]
    assert printed_memrefs(result.stdout)[0].tolist() == [sum(y[b * 256 : (b + 1) * 256]) for b in range(4)]


def test_mistakes_runs_its_chunk_and_warns_like_the_linter() -> None:
    path = str(EXAMPLES / "mistakes.mlir")
    whole = run_file(path, backend="numpy")
    assert whole.exit_code == 1 and "not running a program that does not verify" in whole.stderr
    result = run_file(path, backend="numpy", split=True)
    assert result.exit_code == 0, result.stderr
    [warning] = result.warnings
    assert "the async token of 'gpu.memcpy' is never waited on" in warning.message
    line = result.stderr.splitlines()[0]
    text = (EXAMPLES / "mistakes.mlir").read_text(encoding="utf-8").splitlines()
    number = int(line.split(":")[1])
    assert line.endswith("warning: the async token of 'gpu.memcpy' is never waited on")
    assert text[number - 1].strip().startswith("%t1 = gpu.memcpy async") and "func.func @token_never_waited_on" in text[number - 3]


SPLIT = """func.func @main() -> i32 {
  %a = arith.constant 1 : i32
  return %a : i32
}
// -----
func.func @helper() {
  %x = arith.addi %undefined, %undefined : i32
  return
}
// -----
func.func @main() -> i32 {
  %c = arith.constant 3 : i32
  %z = arith.constant 0 : i32
  %d = arith.divsi %c, %z : i32
  return %d : i32
}
"""


def test_split_input_file_runs_each_chunk_defining_the_entry_with_file_locations() -> None:
    result = run(SPLIT, split=True)
    assert result.stdout == "1\n"
    assert result.exit_code == 1
    assert result.stderr.startswith("test.mlir:14:3: error: 'arith.divsi' op divides by zero")
    # No chunk defines the entry: the file runs whole, as without --split-input-file.
    assert run(SPLIT, split=True, entry="other").stderr == run(SPLIT, entry="other").stderr
    assert "not running a program that does not verify" in run(SPLIT, entry="other").stderr
