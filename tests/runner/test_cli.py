"""`gpu-run`: options, exit codes, the no-GPU line, --time and --emit-cuda."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gpu_lsp.cli.gpu_run import main, parse_size
from gpu_lsp.runner.cupy_backend import probe

PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%x: memref<8xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<8xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %x[%i] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc () : memref<8xi32>
    %u = memref.cast %h : memref<8xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func @other() {
    %c = arith.constant 5 : i64
    call @printI64(%c) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
}
"""


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    return path


def test_run_prints_the_program_output(program: Path, capsys) -> None:
    assert main(["--backend", "numpy", "--time", str(program)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1] == "[1,  1,  1,  1,  1,  1,  1,  1]"
    assert "gpu-run: kernel inc (numpy): " in err and err.rstrip().endswith("ms")


def test_entry_option(program: Path, capsys) -> None:
    assert main(["--backend", "numpy", "--entry", "other", str(program)]) == 0
    assert capsys.readouterr().out == "5\n"


def test_no_gpu_is_one_line(program: Path, capsys) -> None:
    reason = probe()
    if reason is None:
        pytest.skip("a GPU is usable here")
    assert main(["--backend", "cupy", str(program)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"gpu-run: no GPU: {reason}\n"
    assert main(["--backend", "auto", str(program)]) == 0
    out, err = capsys.readouterr()
    assert err == f"gpu-run: no GPU ({reason}); running on the NumPy backend\n"
    assert "[1,  1," in out


def test_emit_cuda(program: Path, capsys) -> None:
    assert main(["--emit-cuda", str(program)]) == 0
    out = capsys.readouterr().out
    assert 'extern "C" __global__ void inc(int* p0, long long o0, long long s0_0, long long t0_0)' in out


def test_errors_exit_with_status_1_and_missing_files_with_2(program: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @main() {\n  %c = arith.constant 1 : index\n  %m = memref.alloc (%c) : memref<?xf32>\n"
        "  %x = memref.load %m[%c] : memref<?xf32>\n  return\n}\n"
    )
    assert main(["--backend", "numpy", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:4:3: error: 'memref.load' op index 1 is out of bounds for dimension 0 of size 1")
    assert main([str(tmp_path / "missing.mlir")]) == 2


def test_sizes() -> None:
    assert parse_size("512M") == 512 << 20
    assert parse_size("2G") == 2 << 30
    assert parse_size("64KiB") == 64 << 10
    assert parse_size("1000") == 1000


def test_console_script_runs_as_a_module(program: Path) -> None:
    command = [sys.executable, "-m", "gpu_lsp.cli.gpu_run", "--backend", "numpy", "--max-memory", "1M", "--timeout", "30", str(program)]
    r = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "[1,  1,  1" in r.stdout


def test_missing_cupy_names_the_install_command(program: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    assert main(["--backend", "cupy", str(program)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gpu-run: no GPU: cupy is not installed: pip install 'gpu-lsp[gpu]' (CuPy for CUDA 12)")
    assert "cupy-cuda11x" in err and err.count("\n") == 1


def test_entry_with_or_without_the_at_sign(program: Path, capsys) -> None:
    """`--entry @other` runs @other; a missing one is named once, not `@@add` (issue 26)."""
    assert main(["--backend", "numpy", "--entry", "@other", str(program)]) == 0
    assert capsys.readouterr().out == "5\n"
    assert main(["--backend", "numpy", "--entry", "@add", str(program)]) == 1
    err = capsys.readouterr().err
    assert "entry function @add not found" in err and "@@" not in err


FILL = """
func.func @fill(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.5 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %a[%i] : memref<4xf32>
  }
  return
}
"""


def test_memref_arguments_are_printed_after_the_run(tmp_path: Path, capsys) -> None:
    path = tmp_path / "fill.mlir"
    path.write_text(FILL)
    argv = ["--backend", "numpy", "--entry", "fill", "--arg", "4:range", "--arg", "2", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("argument #0 (memref<4xf32>) after the run:\nMemref base@ = ")
    assert out.endswith("sizes = [4] strides = [1] data = \n[2.5,  2.5,  2,  3]\n")
    assert main([*argv, "--no-print-args"]) == 0
    assert capsys.readouterr().out == ""


def test_limits_have_defaults_and_refuse_zero_or_below(capsys) -> None:
    from gpu_lsp.cli.gpu_run import DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT, build_parser

    args = build_parser().parse_args(["x.mlir"])
    assert (args.timeout, args.max_memory) == (DEFAULT_TIMEOUT, parse_size(DEFAULT_MAX_MEMORY))
    args = build_parser().parse_args(["x.mlir", "--timeout", "none", "--max-memory", "none"])
    assert (args.timeout, args.max_memory) == (None, None)
    for bad in (["--timeout", "0"], ["--timeout", "-1"], ["--timeout", "nan"], ["--max-memory", "0"]):
        assert main([*bad, "x.mlir"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"gpu-run: error: argument {bad[0]}: ") and err.count("\n") == 1, err
