"""memref.subview, reinterpret_cast, collapse_shape and expand_shape as views of the same buffer."""

from __future__ import annotations

from helpers import printed_memrefs, run, run_ok

PROGRAM = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %m[%i, %j] : memref<4x4xf32>
    }
  }
  %s = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %u = memref.cast %s : memref<2x2xf32, strided<[4, 1], offset: 5>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %e = memref.expand_shape %c [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
  %eu = memref.cast %e : memref<2x8xf32> to memref<*xf32>
  call @printMemrefF32(%eu) : (memref<*xf32>) -> ()
  %r = memref.reinterpret_cast %m to offset: [2], sizes: [3], strides: [5] : memref<4x4xf32> to memref<3xf32, strided<[5], offset: 2>>
  %ru = memref.cast %r : memref<3xf32, strided<[5], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
  %v = arith.constant -1.0 : f32
  %c15 = arith.constant 15 : index
  memref.store %v, %c[%c15] : memref<16xf32>
  %last = memref.load %m[%c1, %c1] : memref<4x4xf32>
  %x = memref.load %m[%c4, %c0] : memref<4x4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def test_views_share_their_buffer() -> None:
    result = run(PROGRAM.replace("  %x = memref.load %m[%c4, %c0] : memref<4x4xf32>\n", ""))
    assert result.exit_code == 0, result.stderr
    sub, expanded, strided = printed_memrefs(result.stdout)
    assert sub.tolist() == [[5, 6], [9, 10]]
    assert expanded.tolist() == [list(range(8)), list(range(8, 16))]
    assert strided.tolist() == [2, 7, 12]
    assert "rank = 2 offset = 5 sizes = [2, 2] strides = [4, 1]" in result.stdout
    assert "rank = 1 offset = 2 sizes = [3] strides = [5]" in result.stdout


def test_accesses_through_views_are_bounds_checked_per_dimension() -> None:
    result = run(PROGRAM)
    assert result.exit_code == 1
    assert "test.mlir:30:3: error: 'memref.load' op index 4 is out of bounds for dimension 0 of size 4" in result.stderr


def test_collapsing_non_contiguous_dimensions_is_an_error() -> None:
    text = """
func.func @main() {
  %m = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  %d = memref.cast %s : memref<2x2xf32, strided<[4, 1]>> to memref<2x2xf32, strided<[?, 1]>>
  %c = memref.collapse_shape %d [[0, 1]] : memref<2x2xf32, strided<[?, 1]>> into memref<4xf32, strided<[1]>>
  return
}
"""
    result = run(text)
    assert result.exit_code == 1
    # Upstream verifies it (the strides are dynamic); collapsing is wrong at run time.
    assert "test.mlir:6:3: error: 'memref.collapse_shape' op merges dimensions [0, 1] of a memref whose elements are not contiguous there" in result.stderr


def test_expand_shape_with_a_dynamic_output_size() -> None:
    text = """
func.func @main() {
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<6xi32>
  %e = memref.expand_shape %m [[0, 1]] output_shape [%c3, 2] : memref<6xi32> into memref<?x2xi32>
  %one = arith.constant 1 : index
  %v = arith.constant 7 : i32
  memref.store %v, %e[%c3, %one] : memref<?x2xi32>
  return
}
"""
    result = run(text)
    assert "error: 'memref.store' op index 3 is out of bounds for dimension 0 of size 3" in result.stderr
    assert run_ok(text.replace("%e[%c3, %one]", "%e[%one, %one]")).exit_code == 0
