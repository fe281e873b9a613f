"""What bounds the ids of a kernel besides its launch sites: `upper_bound` on the id ops, `known_block_size`."""

from __future__ import annotations

from gpu_lsp.diagnostics.context import RuleContext
from gpu_lsp.diagnostics.rules.sanitize_kernel import is_checked_kernel
from gpu_lsp.diagnostics.sanitizer.kernel_checks import cached_verdicts
from gpu_lsp.diagnostics.sanitizer.verdicts import Verdicts
from gpu_lsp.diagnostics.sanitizer.witness import FOUND, PROVEN, UNDECIDED
from gpu_lsp.parser.api import parse

ONE_BLOCK = " attributes {known_grid_size = array<i32: 1, 1, 1>}"


def verdicts(body: str, *, attrs: str = ONE_BLOCK, host: str = "") -> tuple[Verdicts, dict[str, str], dict[str, str]]:
    """The verdicts on kernel @k over %buf: memref<32xf32>, and the race and bounds states by op name."""
    text = f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%buf: memref<32xf32>) kernel{attrs} {{
      %c16 = arith.constant 16 : index
      %f = arith.constant 1.0 : f32
{body}
      gpu.return
    }}
  }}
{host}}}
"""
    chunk = parse(text, split=True).chunks[0]
    ctx = RuleContext(chunk, text)
    kernel = next(op for op in ctx.index.named("gpu.func") if is_checked_kernel(op))
    out = cached_verdicts(kernel, ctx)
    races = {a.op.name: out.race_state[id(a.op)] for a in out.model.accesses}
    bounds = {a.op.name: out.bounds_state[id(a.op)] for a in out.model.accesses}
    return out, races, bounds


STORE_AND_LOAD = """      %ty = gpu.thread_id y upper_bound 1
      %tz = gpu.thread_id z upper_bound 1
      {tid}
      memref.store %f, %buf[%tid] : memref<32xf32>
      %up = arith.addi %tid, %c16 : index
      %v = memref.load %buf[%up] : memref<32xf32>"""


def test_an_upper_bound_on_the_thread_id_proves_the_accesses_in_bounds_and_race_free() -> None:
    """No launch site, one block of unknown size: only `upper_bound 16` keeps tid + 16 inside 32 elements and off every thread's tid."""
    _, races, bounds = verdicts(STORE_AND_LOAD.format(tid="%tid = gpu.thread_id x upper_bound 16"))
    assert bounds == {"memref.store": PROVEN, "memref.load": PROVEN}
    assert races == {"memref.store": PROVEN, "memref.load": PROVEN}
    _, races, bounds = verdicts(STORE_AND_LOAD.format(tid="%tid = gpu.thread_id x"))
    assert bounds == {"memref.store": UNDECIDED, "memref.load": UNDECIDED}
    assert races == {"memref.store": UNDECIDED, "memref.load": UNDECIDED}
    _, races, bounds = verdicts(STORE_AND_LOAD.format(tid="%tid = gpu.thread_id x upper_bound 17"))
    assert bounds["memref.load"] == UNDECIDED and races["memref.load"] == UNDECIDED


def test_an_upper_bound_on_the_block_size_bounds_the_thread_ids() -> None:
    tid = "%bdim = gpu.block_dim x upper_bound 16\n      %tid = gpu.thread_id x"
    _, races, bounds = verdicts(STORE_AND_LOAD.format(tid=tid))
    assert bounds == {"memref.store": PROVEN, "memref.load": PROVEN} and races["memref.load"] == PROVEN


def test_known_block_size_fixes_the_sizes_a_launch_site_passes_as_a_value() -> None:
    """Launched with a block size the caller computes: `known_block_size` makes the race a witness."""
    host = """  func.func @main(%n: index) {
    %c1 = arith.constant 1 : index
    %buf = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%buf : memref<32xf32>)
    return
  }
"""
    body = "      %c0 = arith.constant 0 : index\n      memref.store %f, %buf[%c0] : memref<32xf32>"
    known = " attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}"
    out, races, _ = verdicts(body, attrs=known, host=host)
    assert races == {"memref.store": FOUND} and out.launch.block == (8, 1, 1)
    assert out.races[0].witness.threads[0] != out.races[0].witness.threads[1]
    out, races, _ = verdicts(body, attrs="", host=host)
    assert races == {"memref.store": UNDECIDED} and out.races == []
