"""The host interpreter and MLIR's runner utilities, with upstream's exact output format."""

from __future__ import annotations

import numpy as np
from helpers import printed_memrefs, run, run_ok

PRINTERS = """
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefF16(memref<*xf16>)
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printNewline()
func.func private @printOpen()
func.func private @printClose()
func.func private @printComma()
"""


def fill_program(shape: str, elem: str, printer: str, value: str) -> str:
    """A host program filling memref<shape x elem> with `value(i)` over its linear index and printing it."""
    dims = [int(d) for d in shape.split("x")] if shape else []
    count = int(np.prod(dims)) if dims else 1
    return f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {count} : index
  %m = memref.alloc () : memref<{shape + 'x' if shape else ''}{elem}>
  %flat = memref.alloc () : memref<{count}x{elem}>
  scf.for %i = %c0 to %cn step %c1 {{
    %ii = arith.index_cast %i : index to i64
{value}
    memref.store %v, %flat[%i] : memref<{count}x{elem}>
  }}
  %u = memref.cast %flat : memref<{count}x{elem}> to memref<*x{elem}>
  call @{printer}(%u) : (memref<*x{elem}>) -> ()
  return
}}
{PRINTERS}
"""


def test_print_memref_1d_exact_format() -> None:
    out = run_ok(fill_program("", "i32", "printMemrefI32", "    %v = arith.trunci %ii : i64 to i32")).stdout
    lines = out.splitlines()
    assert lines[0].startswith("Unranked Memref base@ = 0x") and lines[0].endswith(" rank = 1 offset = 0 sizes = [1] strides = [1] data = ")
    assert lines[1] == "[0]"


def test_print_memref_2d_3d_and_rank_0_formats() -> None:
    text = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc () : memref<2x3xi32>
  %n = memref.alloc () : memref<2x2x2xf32>
  %z = memref.alloc () : memref<f64>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %k = arith.muli %i, %c3 : index
      %l = arith.addi %k, %j : index
      %v = arith.index_cast %l : index to i32
      memref.store %v, %m[%i, %j] : memref<2x3xi32>
      %lt2 = arith.cmpi ult, %j, %c2 : index
      scf.if %lt2 {
        %f = arith.sitofp %v : i32 to f32
        %h = arith.constant 0.5 : f32
        %g = arith.mulf %f, %h : f32
        memref.store %g, %n[%i, %j, %c1] : memref<2x2x2xf32>
        memref.store %h, %n[%i, %j, %c0] : memref<2x2x2xf32>
      }
    }
  }
  %pi = arith.constant 3.14159265358979 : f64
  memref.store %pi, %z[] : memref<f64>
  %u = memref.cast %m : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %w = memref.cast %n : memref<2x2x2xf32> to memref<*xf32>
  call @printMemrefF32(%w) : (memref<*xf32>) -> ()
  %y = memref.cast %z : memref<f64> to memref<*xf64>
  call @printMemrefF64(%y) : (memref<*xf64>) -> ()
  return
}
""" + PRINTERS
    out = run_ok(text).stdout
    blocks = out.split("data = \n")[1:]
    assert blocks[0].split("Unranked")[0] == "[[0,   1,   2], \n [3,   4,   5]]\n"
    assert blocks[1].split("Unranked")[0] == (
        "[[[0.5,    0], \n  [0.5,    0.5]], \n [[0.5,    1.5], \n  [0.5,    2]]]\n"
    )
    assert blocks[2] == "[3.14159]\n"
    assert " rank = 0 offset = 0 sizes = [] strides = [] data = " in out


def test_scalar_printers() -> None:
    text = """
func.func @main() {
  %f = arith.constant 1.0e+10 : f32
  %d = arith.constant -0.000125 : f64
  %i = arith.constant -42 : i64
  %n = arith.constant 0x7FC00000 : f32
  call @printOpen() : () -> ()
  call @printF32(%f) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%d) : (f64) -> ()
  call @printComma() : () -> ()
  call @printI64(%i) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%i) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%n) : (f32) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  return
}
""" + PRINTERS
    assert run_ok(text).stdout == "( 1e+10, -0.000125, -42, 18446744073709551574, nan )\n"


def test_host_control_flow_calls_and_recursion() -> None:
    text = """
func.func @fact(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %le = arith.cmpi sle, %n, %c1 : i64
  %r = scf.if %le -> (i64) {
    scf.yield %c1 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}
func.func @gcd(%a: i64, %b: i64) -> i64 {
  cf.br ^loop(%a, %b : i64, i64)
^loop(%x: i64, %y: i64):
  %z = arith.constant 0 : i64
  %done = arith.cmpi eq, %y, %z : i64
  cf.cond_br %done, ^exit(%x : i64), ^step
^step:
  %r = arith.remsi %x, %y : i64
  cf.br ^loop(%y, %r : i64, i64)
^exit(%g: i64):
  return %g : i64
}
func.func @main() {
  %c10 = arith.constant 10 : i64
  %f = call @fact(%c10) : (i64) -> i64
  call @printI64(%f) : (i64) -> ()
  call @printNewline() : () -> ()
  %a = arith.constant 1071 : i64
  %b = arith.constant 462 : i64
  %g = call @gcd(%a, %b) : (i64, i64) -> i64
  call @printI64(%g) : (i64) -> ()
  call @printNewline() : () -> ()
  %s = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %sum = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %s) -> (i64) {
    %ii = arith.index_cast %i : index to i64
    %sq = arith.muli %ii, %ii : i64
    %n = arith.addi %acc, %sq : i64
    scf.yield %n : i64
  }
  call @printI64(%sum) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
""" + PRINTERS
    assert run_ok(text).stdout == "3628800\n21\n30\n"


def test_entry_results_are_printed() -> None:
    text = "func.func @compute() -> (i32, f32) {\n  %a = arith.constant 7 : i32\n  %b = arith.constant 2.5 : f32\n  return %a, %b : i32, f32\n}\n"
    assert run_ok(text, entry="compute").stdout == "7\n2.5\n"


def test_memref_alloca_copy_global_and_index_printer() -> None:
    text = """
memref.global "private" constant @table : memref<4xindex> = dense<[3, 1, 4, 1]>
func.func @main() {
  %g = memref.get_global @table : memref<4xindex>
  %a = memref.alloca () : memref<4xindex>
  memref.copy %g, %a : memref<4xindex> to memref<4xindex>
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  memref.store %c9, %a[%c0] : memref<4xindex>
  %d = memref.dim %a, %c0 : memref<4xindex>
  %u = memref.cast %a : memref<4xindex> to memref<*xindex>
  call @printMemrefInd(%u) : (memref<*xindex>) -> ()
  %dd = arith.index_cast %d : index to i64
  call @printI64(%dd) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
""" + PRINTERS
    out = run_ok(text).stdout
    assert printed_memrefs(out)[0].tolist() == [9, 1, 4, 1]
    assert out.endswith("4\n")


def test_f16_and_i64_memrefs() -> None:
    body = "    %x = arith.sitofp %ii : i64 to f16\n    %h = arith.constant 0.1 : f16\n    %v = arith.addf %x, %h : f16"
    text = fill_program("", "f16", "printMemrefF16", body)
    text = text.replace("%cn = arith.constant 1 ", "%cn = arith.constant 3 ").replace("memref<1xf16>", "memref<3xf16>")
    out = run_ok(text).stdout
    want = (np.arange(3).astype(np.float16) + np.float16(0.1)).astype(np.float32)
    assert out.splitlines()[1] == "[" + ",  ".join(f"{v:g}" for v in want) + "]"


def test_warning_for_host_access_of_pending_device_work_is_not_an_error() -> None:
    r = run("func.func @main() {\n  %t = gpu.wait async\n  return\n}\n")
    assert r.exit_code == 0
    assert r.stderr.startswith("test.mlir:2:3: warning: the async token of 'gpu.wait' is never waited on")


DEVICE_POINTER = """
func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
func.func @main() {
  %m = memref.alloc() : memref<3xf32>
  %d = memref.cast %m : memref<3xf32> to memref<?xf32>
  %u = memref.cast %m : memref<3xf32> to memref<*xf32>
  REGISTER
  %dev = call @mgpuMemGetDeviceMemRef1dFloat(%d) : (memref<?xf32>) -> memref<?xf32>
  %c1 = arith.constant 1 : index
  %v = arith.constant 4.5 : f32
  memref.store %v, %dev[%c1] : memref<?xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def test_rocm_device_pointer_of_registered_memory_aliases_it() -> None:
    result = run_ok(DEVICE_POINTER.replace("REGISTER", "gpu.host_register %u : memref<*xf32>"))
    assert printed_memrefs(result.stdout)[0].tolist() == [0, 4.5, 0]


def test_rocm_device_pointer_of_unregistered_memory_is_an_error() -> None:
    result = run(DEVICE_POINTER.replace("REGISTER", ""))
    assert result.exit_code == 1
    assert "test.mlir:8:3: error: 'func.call' op asks for the device pointer of memory not registered" in result.stderr
