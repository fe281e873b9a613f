"""Running a host function for the editor: streamed output, memory cap, timeout, cancellation."""

from __future__ import annotations

import asyncio
import time

import pytest

from gpu_lsp.lsp.commands import run_in_child

PRINTS = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 1.5 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    func.call @printF32(%f) : (f32) -> ()
    func.call @printNewline() : () -> ()
  }
  return
}
func.func private @printF32(f32)
func.func private @printNewline()
"""

BIG = """
func.func @main() {
  %m = memref.alloc() : memref<16777216xf32>
  memref.dealloc %m : memref<16777216xf32>
  return
}
"""

SPINS = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000 : index
  // A recurrence (not a reduction), so the host loop cannot run as array operations.
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %sq = arith.muli %acc, %acc : index
    %next = arith.addi %sq, %i : index
    scf.yield %next : index
  }
  return
}
"""


async def test_output_is_streamed_as_it_is_printed() -> None:
    seen: list[tuple[str, str]] = []
    result = await run_in_child(PRINTS, "main", "numpy", 60, on_output=lambda stream, text: seen.append((stream, text)))
    assert result["ok"] and result["stdout"] == "1.5\n1.5\n1.5\n"
    assert "".join(text for stream, text in seen if stream == "stdout") == result["stdout"]


async def test_memory_cap_stops_a_program_that_allocates_too_much() -> None:
    result = await run_in_child(BIG, "main", "numpy", 60, max_memory=1 << 20)
    assert not result["ok"]
    assert "memory" in (result.get("error") or result.get("stderr") or result["message"]).lower()
    result = await run_in_child(BIG, "main", "numpy", 60, max_memory=1 << 27)
    assert result["ok"], result


async def test_timeout_and_cancellation_stop_the_child() -> None:
    result = await run_in_child(SPINS, "main", "numpy", 1)
    assert not result["ok"] and result["error"] == "the program ran past its time limit"
    task = asyncio.ensure_future(run_in_child(SPINS, "main", "numpy", 60))
    await asyncio.sleep(1.0)
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 5
