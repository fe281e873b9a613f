"""Faults and unsupported ops give a diagnostic naming the op and its location, never a wrong result."""

from __future__ import annotations

from helpers import run

KERNEL_OOB = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<16xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<16xf32>
      memref.store %v, %x[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c20 = arith.constant 20 : index
    %d = gpu.alloc () : memref<16xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c20, %c1, %c1) args(%d : memref<16xf32>)
    return
  }
}
"""


def test_out_of_bounds_load_names_op_location_thread_and_buffer() -> None:
    r = run(KERNEL_OOB)
    assert r.exit_code == 1
    first = r.stderr.splitlines()[0]
    assert first == (
        "test.mlir:6:7: error: 'memref.load' op index 16 is out of bounds for dimension 0 of size 16 "
        "in thread (16, 0, 0) of block (0, 0, 0) (memref of the buffer allocated by 'gpu.alloc' at test.mlir:14:5)"
    )
    assert r.diagnostics[-1].code == "GPU401"


def test_guarded_access_is_fine_and_inactive_lanes_may_divide_by_zero() -> None:
    text = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<16xi32>) kernel {
      %i = gpu.global_id x
      %c16 = arith.constant 16 : index
      %in = arith.cmpi ult, %i, %c16 : index
      scf.if %in {
        %c8 = arith.constant 8 : index
        %d = arith.subi %i, %c8 : index
        %ok = arith.cmpi ne, %d, %c8 : index
        %di = arith.index_cast %d : index to i32
        %hundred = arith.constant 100 : i32
        %q = scf.if %ok -> (i32) {
          %z = arith.constant 0 : i32
          scf.yield %z : i32
        } else {
          %q1 = arith.divsi %hundred, %di : i32
          scf.yield %q1 : i32
        }
        memref.store %q, %x[%i] : memref<16xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<16xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<16xi32>)
    return
  }
}
"""
    r = run(text)
    assert r.exit_code == 0, r.stderr
    r = run(text.replace("%ok = arith.cmpi ne, %d, %c8", "%ok = arith.cmpi ne, %d, %d"))
    assert r.exit_code == 1
    assert "'arith.divsi' op divides by zero" in r.stderr
    assert r.stderr.startswith("test.mlir:18:11: error:")


def test_kernel_reading_unregistered_host_memory() -> None:
    text = (
        KERNEL_OOB.replace("%d = gpu.alloc () : memref<16xf32>", "%d = memref.alloc () : memref<16xf32>")
        .replace("%c20", "%c16")
        .replace("= arith.constant 20", "= arith.constant 16")
    )
    r = run(text)
    assert r.exit_code == 1
    assert "'memref.load' op reads host memory (the buffer allocated by 'memref.alloc' at test.mlir:14:5) from a kernel" in r.stderr


def test_host_reading_device_memory() -> None:
    text = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %d = gpu.alloc () : memref<4xf32>
  %v = memref.load %d[%c0] : memref<4xf32>
  return
}
"""
    r = run(text)
    assert r.exit_code == 1
    assert "test.mlir:5:3: error: 'memref.load' op reads device memory (the buffer allocated by 'gpu.alloc' at test.mlir:4:3) from the host" in r.stderr


def test_unsupported_op_is_reported_before_anything_runs() -> None:
    text = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc () : memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %x = "mystery.op"(%c0) : (index) -> index
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""
    r = run(text)
    assert r.exit_code == 1
    assert r.stdout == ""
    assert "test.mlir:7:3: error: operation 'mystery.op' is not known to gpu-lsp, so the runner cannot execute it" in r.stderr
    assert r.diagnostics[-1].code == "GPU402"


def test_allocating_an_unranked_memref_is_refused_not_a_crash() -> None:
    # memref.alloc's result is declared AnyMemRef: the verifier rejects it before the runner starts
    r = run("func.func @main() {\n  %m = memref.alloc() : memref<*xf32>\n  return\n}\n")
    assert r.exit_code == 1
    assert "test.mlir:2:8: error: 'memref.alloc' op result #0 must be memref of any type values, but got 'memref<*xf32>'" in r.stderr
    assert "Traceback" not in r.stderr


def test_double_free_and_use_after_free() -> None:
    text = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %m = memref.alloc () : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  memref.store %one, %m[%c0] : memref<4xf32>
  return
}
"""
    r = run(text)
    assert "test.mlir:7:3: error: 'memref.store' op writes the buffer allocated by 'memref.alloc' at test.mlir:5:3, which was already freed" in r.stderr
    r = run(text.replace("memref.store %one, %m[%c0] : memref<4xf32>", "memref.dealloc %m : memref<4xf32>"))
    assert "test.mlir:7:3: error: 'memref.dealloc' op frees memory that was already freed" in r.stderr


def test_launch_configuration_limits() -> None:
    r = run(KERNEL_OOB.replace("%c20 = arith.constant 20", "%c20 = arith.constant 2048"))
    assert "'gpu.launch_func' op launches 2048 threads per block; CUDA allows at most 1024" in r.stderr
    r = run(KERNEL_OOB.replace("%c20 = arith.constant 20", "%c20 = arith.constant 0"))
    assert "has block size 0 in dimension x" in r.stderr


def test_timeout_and_memory_limit() -> None:
    text = """
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
    r = run(text, timeout=0.3)
    assert r.exit_code == 1 and "the program ran past its time limit" in r.stderr
    text = """
func.func @main() {
  %m = memref.alloc () : memref<1024x1024xf32>
  return
}
"""
    r = run(text, max_memory=1 << 20)
    assert r.exit_code == 1
    assert "test.mlir:3:3: error: allocating 4194304 bytes would exceed the memory limit of 1048576 bytes" in r.stderr


def test_invalid_program_is_not_run() -> None:
    r = run("func.func @main() {\n  %x = arith.addi %y, %y : i32\n  return\n}\n")
    assert r.exit_code == 1
    assert "test.mlir:2:" in r.stderr and "not running a program that does not verify" in r.stderr


def test_missing_entry_and_entry_with_arguments() -> None:
    r = run("func.func @other() {\n  return\n}\n")
    assert "entry function @main not found" in r.stderr
    r = run("func.func @main(%a: i32) {\n  return\n}\n")
    assert "entry function @main takes arguments" in r.stderr


def test_undefined_external_function() -> None:
    r = run("func.func @main() {\n  call @nothere() : () -> ()\n  return\n}\nfunc.func private @nothere()\n")
    assert "test.mlir:2:3: error: call to the external function @nothere, which gpu-run does not provide" in r.stderr


def test_shuffle_from_missing_lane() -> None:
    text = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<13xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      %w = arith.constant 32 : i32
      %o = arith.constant 8 : i32
      %r, %ok = gpu.shuffle xor %v, %o, %w : i32
      memref.store %r, %x[%i] : memref<13xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c13 = arith.constant 13 : index
    %d = gpu.alloc () : memref<13xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c13, %c1, %c1) args(%d : memref<13xi32>)
    return
  }
}
"""
    r = run(text)
    assert "test.mlir:9:7: error: 'gpu.shuffle' op reads a lane that does not exist: the block has 13 threads (thread (5, 0, 0) of block (0, 0, 0))" in r.stderr


def test_tensors_are_reported_up_front_and_subviews_run() -> None:
    text = """
func.func @main() {
  %m = memref.alloc () : memref<4x4xf32>
  %u = memref.cast %m : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.subview %m[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  %c = arith.constant dense<1.0> : tensor<4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""
    r = run(text)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("test.mlir:7:3: error: 'arith.constant' on tensor<4xf32> values is not supported by the runner (tensors are not)"), r.stderr
    subview = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 7.0 : f32
  %m = memref.alloc () : memref<4x4xf32>
  %v = memref.subview %m[1, %c1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
  memref.store %f, %v[%c1, %c0] : memref<2x2xf32, strided<[4, 1], offset: ?>>
  %x = memref.load %m[%c1, %c1] : memref<4x4xf32>
  %y = memref.load %m[2, 1] : memref<4x4xf32>
  call @printF32(%y) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}
func.func private @printF32(f32)
func.func private @printNewline()
""".replace("%m[2, 1]", "%m[%c2, %c1]").replace("%c1 = arith.constant 1 : index", "%c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index")
    r = run(subview)
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "7\n"