"""Vector values in host code (ndarrays of the vector's shape) and vector.print with upstream's output."""

from __future__ import annotations

import pytest
from helpers import printed_memrefs, run, run_ok

PROGRAM = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<6xf32>
  scf.for %i = %c0 to %c6 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<6xf32>
  }
  %pad = arith.constant -1.0 : f32
  %r = vector.transfer_read %m[%c2], %pad : memref<6xf32>, vector<6xf32>
  vector.print %r : vector<6xf32>
  %l = vector.load %m[%c1] : memref<6xf32>, vector<2xf32>
  vector.print %l : vector<2xf32>
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : vector<6xf32>
  %sum = arith.addf %r, %k : vector<6xf32>
  vector.print %sum : vector<6xf32> punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print str "sum="
  %red = vector.reduction <add>, %sum : vector<6xf32> into f32
  vector.print %red : f32
  %b = vector.broadcast %red : f32 to vector<2x3xf32>
  %z = arith.constant 0.0 : f32
  %ins = vector.insert %z, %b[0, 1] : f32 into vector<2x3xf32>
  vector.print %ins : vector<2x3xf32>
  %row = vector.extract %ins[0] : vector<3xf32> from vector<2x3xf32>
  vector.print %row : vector<3xf32>
  %e = vector.extract %ins[%c1, 2] : f32 from vector<2x3xf32>
  vector.print %e : f32
  %cmp = arith.cmpf ogt, %sum, %k : vector<6xf32>
  vector.print %cmp : vector<6xi1>
  %sel = arith.select %cmp, %sum, %k : vector<6xi1>, vector<6xf32>
  vector.transfer_write %sel, %m[%c1] : vector<6xf32>, memref<6xf32>
  %u = memref.cast %m : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @printNewline() : () -> ()
  %iv = arith.constant dense<[-1, 2, 3]> : vector<3xi32>
  %mx = vector.reduction <maxsi>, %iv : vector<3xi32> into i32
  %acc = arith.constant 10 : i32
  %total = vector.reduction <add>, %iv, %acc : vector<3xi32> into i32
  vector.print %mx : i32
  vector.print %total : i32
  vector.print %iv : vector<3xi32>
  %flat = vector.shape_cast %ins : vector<2x3xf32> to vector<6xf32>
  vector.print %flat : vector<6xf32>
  %c7 = arith.constant 7 : index
  vector.print %c7 : index
  %zero_d = vector.broadcast %z : f32 to vector<f32>
  vector.print %zero_d : vector<f32>
  vector.store %l, %m[%c0] : memref<6xf32>, vector<2xf32>
  %again = vector.load %m[%c0] : memref<6xf32>, vector<3xf32>
  vector.print %again : vector<3xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printNewline()
"""


def test_vector_ops_and_print_formats() -> None:
    result = run_ok(PROGRAM)
    lines = result.stdout.splitlines()
    assert lines[:7] == [
        "( 2, 3, 4, 5, -1, -1 )",  # transfer_read pads past the end
        "( 1, 2 )",
        "( 3, 5, 7, 9, 4, 5 ), sum=33",  # no_punctuation, then a comma, then a string without newline
        "( ( 33, 0, 33 ), ( 33, 33, 33 ) )",
        "( 33, 0, 33 )",
        "33",
        "( 1, 1, 1, 1, 0, 0 )",  # i1 prints as 1/0
    ]
    # transfer_write skips the element past the end.
    assert printed_memrefs(result.stdout)[0].tolist() == [0, 3, 5, 7, 9, 5]
    assert lines[-8:] == ["", "3", "14", "( -1, 2, 3 )", "( 33, 0, 33, 33, 33, 33 )", "7", "( 0 )", "( 1, 2, 5 )"]


@pytest.mark.parametrize(
    ("ty", "values", "printed"),
    [("i8", "[-1, 2]", "( -1, 2 )"), ("i1", "[true, false]", "( 1, 0 )"), ("index", "[3, 4]", "( 3, 4 )"), ("f64", "[0.5, 1.0e20]", "( 0.5, 1e+20 )")],
)
def test_vector_print_of_each_element_type(ty: str, values: str, printed: str) -> None:
    text = f"func.func @main() {{\n  %v = arith.constant dense<{values}> : vector<2x{ty}>\n  vector.print %v : vector<2x{ty}>\n  return\n}}\n"
    assert run_ok(text).stdout == printed + "\n"


def test_vector_load_out_of_bounds_is_an_error() -> None:
    text = PROGRAM.replace("%l = vector.load %m[%c1] : memref<6xf32>, vector<2xf32>", "%l = vector.load %m[%c6] : memref<6xf32>, vector<2xf32>")
    result = run(text)
    assert result.exit_code == 1
    assert "error: 'vector.load' op reads element (0,) of the vector outside the memref (of sizes [6])" in result.stderr


def test_vectors_in_kernels_are_one_located_diagnostic() -> None:
    text = """
func.func @main() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = arith.constant dense<1.0> : vector<4xf32>
    gpu.terminator
  }
  return
}
"""
    result = run(text)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "test.mlir:5:5: error: 'arith.constant' on vector<4xf32> values in a kernel is not supported by the runner (vectors are, in host code)"
    )


MASKS = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<4xi32>
  %init = arith.constant dense<[10, 11, 12, 13]> : vector<4xi32>
  vector.store %init, %m[%c0] : memref<4xi32>, vector<4xi32>
  %cm = vector.constant_mask [2, 1] : vector<3x2xi1>
  vector.print %cm : vector<3x2xi1>
  %mask = vector.create_mask %c2 : vector<4xi1>
  %pass = arith.constant dense<-1> : vector<4xi32>
  %ml = vector.maskedload %m[%c1], %mask, %pass : memref<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  vector.print %ml : vector<4xi32>
  %seven = arith.constant dense<7> : vector<4xi32>
  vector.maskedstore %m[%c0], %mask, %seven : memref<4xi32>, vector<4xi1>, vector<4xi32>
  %pad = arith.constant 0 : i32
  %tr = vector.transfer_read %m[%c1], %pad, %mask : memref<4xi32>, vector<4xi32>
  vector.print %tr : vector<4xi32>
  vector.transfer_write %init, %m[%c2], %mask : vector<4xi32>, memref<4xi32>
  %all = vector.load %m[%c0] : memref<4xi32>, vector<4xi32>
  vector.print %all : vector<4xi32>
  %two = vector.shape_cast %all : vector<4xi32> to vector<2x2xi32>
  %t = vector.transpose %two, [1, 0] : vector<2x2xi32> to vector<2x2xi32>
  vector.print %t : vector<2x2xi32>
  %il = vector.interleave %init, %seven : vector<4xi32> -> vector<8xi32>
  vector.print %il : vector<8xi32>
  %ev, %od = vector.deinterleave %il : vector<8xi32> -> vector<4xi32>
  vector.print %od : vector<4xi32>
  %a, %b, %c, %d = vector.to_elements %ev : vector<4xi32>
  vector.print %d : i32
  %f = vector.bitcast %seven : vector<4xi32> to vector<8xi16>
  vector.print %f : vector<8xi16>
  return
}
"""


def test_masks_masked_transfers_and_lane_shuffles() -> None:
    assert run_ok(MASKS).stdout.splitlines() == [
        "( ( 1, 0 ), ( 1, 0 ), ( 0, 0 ) )",
        "( 11, 12, -1, -1 )",
        "( 7, 12, 0, 0 )",  # masked-off lanes read the padding
        "( 7, 7, 10, 11 )",  # the masked transfer_write wrote its first two lanes
        "( ( 7, 10 ), ( 7, 11 ) )",
        "( 10, 7, 11, 7, 12, 7, 13, 7 )",
        "( 7, 7, 7, 7 )",
        "13",
        "( 7, 0, 7, 0, 7, 0, 7, 0 )",
    ]


def test_masked_lanes_may_point_outside_but_enabled_ones_may_not() -> None:
    text = MASKS.replace("%mask = vector.create_mask %c2 : vector<4xi1>", "%c4 = arith.constant 4 : index\n  %mask = vector.create_mask %c4 : vector<4xi1>")
    result = run(text)
    assert result.exit_code == 1
    assert "error: 'vector.maskedload' op reads element (3,) of the vector outside the memref (of sizes [4])" in result.stderr
