"""`gpu-run --racecheck`: conflicting accesses with their threads and ops, barriers and fences, atomics, the suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from sanitizer.suite_loader import SUITE, load_suite

from gpu_lsp.cli.gpu_run import main
from gpu_lsp.runner import access_log
from gpu_lsp.runner.racecheck import Access, Conflict, Focus, run_racecheck

# Labelled races no run of the suite's launch shows (the suite README says why).
NOT_OBSERVED = {"gpuverify/globalarray_fail.mlir"}


def program(body: str, *, block: int = 4, grid: int = 1, workgroup: str = "") -> str:
    """A kernel @k over a global memref<16xi32> %buf (zero-filled) and an optional workgroup attribution %s."""
    attribution = f" workgroup(%s: {workgroup})" if workgroup else ""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%buf: memref<16xi32>){attribution} kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %nb = arith.constant {grid} : index
    %nt = arith.constant {block} : index
    %buf = gpu.alloc host_shared () : memref<16xi32>
    gpu.launch_func @kernels::@k blocks in (%nb, %c1, %c1) threads in (%nt, %c1, %c1) args(%buf : memref<16xi32>)
    gpu.dealloc %buf : memref<16xi32>
    return
  }}
}}
"""


WG = "memref<8xi32, #gpu.address_space<workgroup>>"
NEIGHBOUR = f"""      %t = arith.index_cast %tid : index to i32
      memref.store %t, %s[%tid] : {WG}
{{barrier}}      %n = arith.addi %tid, %c1 : index
      %v = memref.load %s[%n] : {WG}
"""


def conflicts(text: str) -> list[Conflict]:
    run = run_racecheck(text, filename="k.mlir")
    assert run.result.error is None, run.result.stderr
    return run.conflicts


def test_a_read_write_race_names_both_threads_ops_element_and_space() -> None:
    found = conflicts(program(NEIGHBOUR.format(barrier=""), workgroup=WG))
    # Thread t + 1 stores s[t + 1] while thread t loads it: one pair per neighbour, three in a block of four.
    assert len(found) == 3
    first = found[0]
    assert first == Conflict(
        buffer="%s",
        space="workgroup",
        element=(1,),
        first=Access("memref.store", (10, 7), "write", (0, 0, 0), (1, 0, 0)),
        second=Access("memref.load", (12, 7), "read", (0, 0, 0), (0, 0, 0)),
    )
    assert {(c.first.thread[0], c.second.thread[0], c.element) for c in found} == {(1, 0, (1,)), (2, 1, (2,)), (3, 2, (3,))}


def test_a_barrier_orders_the_accesses_of_a_block() -> None:
    assert conflicts(program(NEIGHBOUR.format(barrier="      gpu.barrier\n"), workgroup=WG)) == []
    fenced = "      gpu.barrier memfence [#gpu.address_space<workgroup>]\n"
    assert conflicts(program(NEIGHBOUR.format(barrier=fenced), workgroup=WG)) == []


@pytest.mark.parametrize("fence", ["[#gpu.address_space<workgroup>]", "[]"])
def test_a_barrier_that_does_not_fence_global_memory_does_not_order_it(fence: str) -> None:
    body = f"""      %t = arith.index_cast %tid : index to i32
      memref.store %t, %buf[%tid] : memref<16xi32>
      gpu.barrier memfence {fence}
      %n = arith.addi %tid, %c1 : index
      %v = memref.load %buf[%n] : memref<16xi32>
"""
    found = conflicts(program(body))
    assert {(c.space, c.element, c.first.kind, c.second.kind) for c in found} == {("global", (i,), "write", "read") for i in (1, 2, 3)}
    assert conflicts(program(body.replace(f"memfence {fence}", "memfence [#gpu.address_space<global>]"))) == []


def test_a_barrier_only_some_threads_of_a_block_reach_orders_nothing() -> None:
    """Thread 0 alone passes the barrier: its store and thread 1's load stay unordered."""
    body = f"""      %t = arith.index_cast %tid : index to i32
      memref.store %t, %s[%tid] : {WG}
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        gpu.barrier
      }}
      %n = arith.addi %tid, %c1 : index
      %v = memref.load %s[%n] : {WG}
"""
    assert {(c.first.thread[0], c.second.thread[0]) for c in conflicts(program(body, workgroup=WG))} == {(1, 0), (2, 1), (3, 2)}
    uniform = body.replace("arith.cmpi eq, %tid, %c0", "arith.cmpi eq, %bid, %c0")
    assert conflicts(program(uniform, workgroup=WG)) == []


def test_focus_records_only_the_named_accesses_each_once() -> None:
    """Every thread stores %buf[0] 50 times; focused on two threads, the one pair between them, past the cap."""
    body = """      %c50 = arith.constant 50 : index
      scf.for %i = %c0 to %c50 step %c1 {
        memref.store %one, %buf[%c0] : memref<16xi32>
      }
"""
    text = program(body, block=64)
    assert len(run_racecheck(text, limit=10).conflicts) == 10
    store = Focus(11, (0, 0, 0), (5, 0, 0)), Focus(11, (0, 0, 0), (42, 0, 0))
    found = run_racecheck(text, limit=10, focus=frozenset(store)).conflicts
    assert [(c.first.thread, c.second.thread, c.element) for c in found] == [((5, 0, 0), (42, 0, 0), (0,))]


def test_workgroup_memory_is_per_block_and_private_memory_per_thread() -> None:
    body = f"""      %t = arith.index_cast %tid : index to i32
      memref.store %t, %s[%c0] : {WG}
"""
    found = conflicts(program(body, block=2, grid=3, workgroup=WG))
    assert {(c.first.block, c.second.block) for c in found} == {((b, 0, 0), (b, 0, 0)) for b in range(3)}
    private = """      %p = memref.alloca() : memref<1xi32>
      memref.store %one, %p[%c0] : memref<1xi32>
      %v = memref.load %p[%c0] : memref<1xi32>
"""
    assert conflicts(program(private)) == []


def test_atomics_never_race_with_each_other_but_do_with_plain_accesses() -> None:
    atomic = "      %old = memref.atomic_rmw addi %one, %buf[%c0] : (i32, memref<16xi32>) -> i32\n"
    assert conflicts(program(atomic, grid=2)) == []
    found = conflicts(program(atomic + "      %v = memref.load %buf[%c0] : memref<16xi32>\n"))
    assert found and all({c.first.kind, c.second.kind} == {"atomic", "read"} for c in found)


def test_threads_of_different_blocks_race_on_global_memory_whatever_the_barriers() -> None:
    body = """      %b = arith.index_cast %bid : index to i32
      gpu.barrier
      memref.store %b, %buf[%tid] : memref<16xi32>
      gpu.barrier
"""
    found = conflicts(program(body, block=2, grid=2))
    assert {(c.element, c.first.block, c.second.block, c.first.thread, c.second.thread) for c in found} == {
        ((t,), (0, 0, 0), (1, 0, 0), (t, 0, 0), (t, 0, 0)) for t in range(2)
    }


def test_launches_are_checked_one_at_a_time_gpu_launch_bodies_included() -> None:
    """Two launches are ordered by the stream; a `gpu.launch` body races like a gpu.func."""
    text = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = gpu.alloc host_shared () : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %buf[%tx] : memref<4xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%c0] : memref<4xi32>
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %buf[%c1] : memref<4xi32>
    gpu.terminator
  }
  gpu.dealloc %buf : memref<4xi32>
  return
}
"""
    found = conflicts(text)
    assert {(c.buffer, c.element, c.first.kind, c.second.kind) for c in found} == {("%buf", (1,), "write", "write")}
    assert len(found) == 6  # every pair of the four threads storing buf[1] in the second launch


def test_a_launch_with_too_many_accesses_stops_with_one_error(monkeypatch) -> None:
    monkeypatch.setattr(access_log, "MAX_ACCESSES", 10)
    store = "      memref.store %one, %buf[%tid] : memref<16xi32>\n"
    run = run_racecheck(program(store * 3), filename="k.mlir")
    assert run.result.error is not None and run.result.error.message.startswith("--racecheck records at most 10 accesses per launch")
    assert run_racecheck(program(store * 2), filename="k.mlir").result.error is None


def test_the_cli_reports_the_first_race_on_stderr_and_exits_with_1(tmp_path: Path, capsys) -> None:
    racy = tmp_path / "racy.mlir"
    racy.write_text(program(NEIGHBOUR.format(barrier=""), workgroup=WG))
    assert main(["--racecheck", str(racy)]) == 1
    err = capsys.readouterr().err
    assert f"{racy}:12:7: error: Race reported between Write access at {racy}:10:7 ('memref.store') by thread (1, 0, 0) " in err
    assert "and Read access at" in err and "on element [1] of %s (workgroup memory) (3 conflicting pairs found)" in err
    clean = tmp_path / "clean.mlir"
    clean.write_text(program(NEIGHBOUR.format(barrier="      gpu.barrier\n"), workgroup=WG))
    assert main(["--racecheck", str(clean)]) == 0
    assert main([str(racy)]) == 0  # off by default
    assert main(["--racecheck", "--backend", "cupy", str(racy)]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == "gpu-run: --racecheck records accesses on the NumPy backend only"


def test_the_suite_races_show_at_run_time_and_race_free_kernels_stay_quiet() -> None:
    """Runs that stop with an error (out-of-bounds kernels) are not judged; the numbers go to the suite README."""
    raced, quiet, stopped, missed, false_alarms = [], [], [], [], []
    for kernel in load_suite():
        name = kernel.path.relative_to(SUITE).as_posix()
        run = run_racecheck(kernel.path.read_text(), filename=name)
        if run.result.error is not None:
            stopped.append(name)
        elif "race" in kernel.verdicts:
            (raced if run.conflicts else missed).append(name)
        elif run.conflicts:
            false_alarms.append(name)
        else:
            quiet.append(name)
    assert false_alarms == []
    assert set(missed) == NOT_OBSERVED
    assert len(raced) >= 40 and len(quiet) >= 50, (len(raced), len(quiet), stopped)
