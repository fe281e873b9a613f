"""affine.apply/min/max on the host and in kernels (thread-id forms stay affine)."""

from __future__ import annotations

from helpers import printed_memrefs, run, run_ok

from gpu_lsp.parser.api import parse
from gpu_lsp.runner.hostloop import plan_of

HOST = """
#map = affine_map<(d0)[s0] -> (d0 * 4 + s0 floordiv 2)>
func.func @main() {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %cm7 = arith.constant -7 : index
  %a = affine.apply #map(%c3)[%c5]
  %b = affine.apply affine_map<(d0, d1) -> (d0 mod 2 - d1)>(%cm7, %c5)
  %m = affine.min affine_map<(d0)[s0] -> (d0, 4, s0 * 2 - (d0 - 1))>(%c5)[%c3]
  %x = affine.max affine_map<(d0) -> (d0 ceildiv 2, -(d0 floordiv 2))>(%cm7)
  %bi = arith.index_cast %b : index to i64
  vector.print %a : index
  vector.print %bi : i64
  vector.print %m : index
  vector.print %x : index
  return
}
"""


def test_affine_maps_on_the_host() -> None:
    # -7 mod 2 is 1 (never negative); -7 ceildiv 2 is -3 and -(-7 floordiv 2) is 4.
    assert run_ok(HOST).stdout.splitlines() == ["14", "-4", "2", "4"]


KERNEL = """
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %out = gpu.alloc host_shared () : memref<8xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>(%tx, %bx)[%c4]
    %r = affine.apply affine_map<(d0) -> (d0 mod 3 + d0 floordiv 3 * 10)>(%i)
    %tail = affine.max affine_map<(d0)[s0] -> (d0 - s0, 0)>(%i)[%c4]
    %first = affine.min affine_map<(d0) -> (d0, 1)>(%tail)
    %sum = arith.addi %r, %first : index
    %v = arith.index_cast %sum : index to i64
    memref.store %v, %out[%i] : memref<8xi64>
    gpu.terminator
  }
  %u = memref.cast %out : memref<8xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}
func.func private @printMemrefI64(memref<*xi64>)
"""


def test_affine_maps_in_a_kernel() -> None:
    got = printed_memrefs(run_ok(KERNEL).stdout)[0].tolist()
    assert got == [i % 3 + i // 3 * 10 + min(max(i - 4, 0), 1) for i in range(8)]


def test_division_by_zero_in_a_map_is_an_error() -> None:
    text = "func.func @main() {\n  %c = arith.constant 3 : index\n  %a = affine.apply affine_map<(d0) -> (d0 floordiv 0)>(%c)\n  return\n}\n"
    result = run(text)
    assert result.exit_code == 1
    assert "test.mlir:3:3: error: 'affine.apply' op divides by zero" in result.stderr


LOOP = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100 : index
  %src = memref.alloc (%n) : memref<?xi64>
  %dst = memref.alloc (%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %src[%i] : memref<?xi64>
  }
  scf.for %i = %c0 to %n step %c1 {
    %j = affine.apply affine_map<(d0) -> ((d0 * 7) mod 100)>(%i)
    %v = memref.load %src[%j] : memref<?xi64>
    memref.store %v, %dst[%i] : memref<?xi64>
  }
  %u = memref.cast %dst : memref<?xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}
func.func private @printMemrefI64(memref<*xi64>)
"""


def test_a_gather_through_an_affine_index_in_a_vectorised_host_loop() -> None:
    [_, gather] = [op for op in parse(LOOP).chunks[0].module.walk() if op.name == "scf.for"]
    assert plan_of(gather) is not None
    assert printed_memrefs(run_ok(LOOP).stdout)[0].tolist() == [(i * 7) % 100 for i in range(100)]
