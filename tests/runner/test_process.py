"""Running gpu-run in a subprocess: streamed output, diagnostics, time limits, cancellation."""

from __future__ import annotations

import threading
import time

import test_cli

from gpu_lsp.runner.process import RunProcess

SPIN = """
func.func @main() {
  %t = arith.constant true
  scf.while : () -> () {
    scf.condition(%t)
  } do {
    scf.yield
  }
  return
}
"""


def test_streams_output_and_returns_the_outcome() -> None:
    lines: list[str] = []
    outcome = RunProcess(test_cli.PROGRAM, backend="numpy", timeout=60, max_memory=64 << 20, on_stdout=lines.append).start().wait()
    assert outcome.exit_code == 0, outcome.stderr
    assert "[1,  1,  1,  1,  1,  1,  1,  1]\n" in lines
    assert outcome.stdout == "".join(lines)


def test_diagnostics_are_parsed() -> None:
    text = (
        "func.func @main() {\n  %c = arith.constant 4 : index\n  %m = memref.alloc () : memref<4xf32>\n"
        "  %x = memref.load %m[%c] : memref<4xf32>\n  return\n}\n"
    )
    outcome = RunProcess(text, backend="numpy").start().wait()
    assert outcome.exit_code == 1
    (d,) = outcome.diagnostics
    assert (d.line, d.column, d.severity) == (4, 3, "error")
    assert d.message.startswith("'memref.load' op index 4 is out of bounds")


def test_time_limit() -> None:
    outcome = RunProcess(SPIN, backend="numpy", timeout=0.5).start().wait()
    assert outcome.exit_code == 1 and outcome.timed_out


def test_cancel() -> None:
    run = RunProcess(SPIN, backend="numpy", timeout=60).start()
    threading.Timer(0.5, run.cancel).start()
    start = time.monotonic()
    outcome = run.wait()
    assert outcome.cancelled and outcome.exit_code != 0
    assert time.monotonic() - start < 30



def test_entry_arguments_are_passed_on() -> None:
    text = (
        "func.func @f(%a: i64, %m: memref<?xf32>) -> i64 {\n  %c = arith.constant 1 : index\n"
        "  %x = memref.load %m[%c] : memref<?xf32>\n  vector.print %x : f32\n  return %a : i64\n}\n"
    )
    outcome = RunProcess(text, entry="f", arguments=["-7", "3:range"], backend="numpy").start().wait()
    assert outcome.exit_code == 0, outcome.stderr
    printed, _, after = outcome.stdout.partition("argument #1 (memref<?xf32>) after the run:\n")
    assert printed == "1\n-7\n"
    assert after.endswith("data = \n[0,  1,  2]\n")  # gpu-run prints the memref arguments after the run
