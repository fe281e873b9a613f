"""`gpu-run --entry NAME --arg ...`: scalars and memrefs (zeros, a constant, a range, a .npy file) as entry arguments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import printed_memrefs, run, run_ok

SCALE = """
func.func @scale(%x: memref<?x3xf32>, %k: f32, %n: index, %flag: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x3xf32>
      %w = arith.mulf %v, %k : f32
      %out = arith.select %flag, %w, %v : f32
      memref.store %out, %x[%i, %j] : memref<?x3xf32>
    }
  }
  %u = memref.cast %x : memref<?x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return %n : index
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def scaled(*args: str) -> np.ndarray:
    result = run_ok(SCALE, entry="scale", args=list(args))
    assert result.stdout.splitlines()[-1] == "2"  # the entry's result is printed
    return printed_memrefs(result.stdout)[0]


def test_memref_filled_with_a_range_a_constant_and_zeros() -> None:
    assert scaled("2x3:range", "2.5", "2", "true").tolist() == [[0, 2.5, 5], [7.5, 10, 12.5]]
    assert scaled("2x3:1.5", "2", "2", "false").tolist() == [[1.5] * 3] * 2
    assert scaled("2x3", "2", "2", "1").tolist() == [[0] * 3] * 2


def test_memref_from_a_npy_file(tmp_path: Path) -> None:
    path = tmp_path / "x.npy"
    np.save(path, np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float64))
    assert scaled(str(path), "-1", "2", "true").tolist() == [[-1, -2, -3], [-4, -5, -6]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "entry function @scale takes arguments (memref<?x3xf32>, f32, index, i1); 0 given with --arg"),
        (["2x4", "1", "2", "true"], "--arg '2x4' for argument #0 (memref<?x3xf32>): shape 2x4 does not fit the memref type"),
        (["2x3", "one", "2", "true"], "--arg 'one' for argument #1 (f32): not a number of that type"),
        (["2x3", "1", "2", "maybe"], "--arg 'maybe' for argument #3 (i1): not a boolean of that type"),
        (["2x3:x", "1", "2", "true"], "--arg '2x3:x' for argument #0 (memref<?x3xf32>): 'x' is not a f32 value"),
        (["big", "1", "2", "true"], "expected a shape such as 4x8 (then :VALUE or :range), or a .npy file"),
        (["missing.npy", "1", "2", "true"], "cannot read the array"),
    ],
)
def test_arguments_that_do_not_fit_are_located_errors(args: list[str], message: str) -> None:
    result = run(SCALE, entry="scale", args=args)
    assert result.exit_code == 1
    assert "test.mlir:2:1: error: " in result.stderr and message in result.stderr, result.stderr


def test_an_out_of_range_integer_is_an_error() -> None:
    result = run("func.func @f(%a: i8) -> i8 {\n  return %a : i8\n}\n", entry="f", args=["300"])
    assert "--arg '300' for argument #0 (i8): 300 does not fit in 8 bits" in result.stderr
    assert run_ok("func.func @f(%a: i8) -> i8 {\n  return %a : i8\n}\n", entry="f", args=["255"]).stdout == "-1\n"


def test_the_cli_passes_arguments(tmp_path: Path) -> None:
    path = tmp_path / "scale.mlir"
    path.write_text(SCALE, encoding="utf-8")
    cmd = [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", str(path), "--entry", "scale"]
    cmd += ["--arg", "1x3:range", "--arg", "3", "--arg", "1", "--arg", "true"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert printed_memrefs(done.stdout)[0].tolist() == [[0, 3, 6]]
