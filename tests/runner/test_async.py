"""Async tokens on the NumPy backend: pipelines with forks, joins and multi-dependency ops; warnings."""

from __future__ import annotations

import numpy as np
from helpers import mlir_array, printed_memrefs, run_ok

N = 256
A = (np.arange(N) % 17 - 8).astype(np.float32)
B = (np.arange(N) % 5 + 0.5).astype(np.float32)

KERNELS = f"""
  memref.global "private" constant @A : memref<{N}xf32> = {mlir_array(A, "f32")}
  memref.global "private" constant @B : memref<{N}xf32> = {mlir_array(B, "f32")}
  gpu.module @k {{
    gpu.func @add(%x: memref<{N}xf32>, %y: memref<{N}xf32>) kernel {{
      %i = gpu.global_id x
      %a = memref.load %x[%i] : memref<{N}xf32>
      %b = memref.load %y[%i] : memref<{N}xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %x[%i] : memref<{N}xf32>
      gpu.return
    }}
    gpu.func @scale(%x: memref<{N}xf32>, %f: f32) kernel {{
      %i = gpu.global_id x
      %a = memref.load %x[%i] : memref<{N}xf32>
      %s = arith.mulf %a, %f : f32
      memref.store %s, %x[%i] : memref<{N}xf32>
      gpu.return
    }}
    gpu.func @square(%x: memref<{N}xf32>) kernel {{
      %i = gpu.global_id x
      %a = memref.load %x[%i] : memref<{N}xf32>
      %s = arith.mulf %a, %a : f32
      memref.store %s, %x[%i] : memref<{N}xf32>
      gpu.return
    }}
  }}
  func.func private @printMemrefF32(memref<*xf32>)
"""

PROLOGUE = f"""
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant 2.0 : f32
    %hA = memref.get_global @A : memref<{N}xf32>
    %hB = memref.get_global @B : memref<{N}xf32>
    %oA = memref.alloc () : memref<{N}xf32>
    %oB = memref.alloc () : memref<{N}xf32>
"""

EPILOGUE = f"""
    %uA = memref.cast %oA : memref<{N}xf32> to memref<*xf32>
    %uB = memref.cast %oB : memref<{N}xf32> to memref<*xf32>
    call @printMemrefF32(%uA) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uB) : (memref<*xf32>) -> ()
"""

LAUNCH = "blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)"


def program(body: str) -> str:
    return f"""
module attributes {{gpu.container_module}} {{
{KERNELS}
  func.func @main() {{
{PROLOGUE}
{body}
{EPILOGUE}
    return
  }}
}}
"""


PIPELINE = f"""
    %t0 = gpu.wait async
    %a, %ta = gpu.alloc async [%t0] () : memref<{N}xf32>
    %b, %tb = gpu.alloc async [%t0] () : memref<{N}xf32>
    %t1 = gpu.memcpy async [%ta] %a, %hA : memref<{N}xf32>, memref<{N}xf32>
    %t2 = gpu.memcpy async [%tb] %b, %hB : memref<{N}xf32>, memref<{N}xf32>
    %t3 = gpu.launch_func async [%t1, %t2] @k::@add {LAUNCH} args(%a : memref<{N}xf32>, %b : memref<{N}xf32>)
    %t4 = gpu.launch_func async [%t3] @k::@scale {LAUNCH} args(%a : memref<{N}xf32>, %two : f32)
    %t5 = gpu.launch_func async [%t3] @k::@square {LAUNCH} args(%b : memref<{N}xf32>)
    %t6 = gpu.wait async [%t4, %t5]
    %t7 = gpu.memcpy async [%t6] %oA, %a : memref<{N}xf32>, memref<{N}xf32>
    %t8 = gpu.memcpy async [%t6] %oB, %b : memref<{N}xf32>, memref<{N}xf32>
    gpu.wait [%t7, %t8]
    %t9 = gpu.dealloc async [%t7] %a : memref<{N}xf32>
    %t10 = gpu.dealloc async [%t8] %b : memref<{N}xf32>
    gpu.wait [%t9, %t10]
"""


def test_pipeline_with_fork_join_and_multi_dependency_ops() -> None:
    result = run_ok(program(PIPELINE))
    assert result.stderr == ""
    a, b = printed_memrefs(result.stdout)
    np.testing.assert_allclose(a, (A + B) * 2, rtol=1e-6)
    np.testing.assert_allclose(b, B * B, rtol=1e-6)


def test_memset_host_shared_and_synchronous_ops() -> None:
    body = f"""
    %s = gpu.alloc host_shared () : memref<{N}xf32>
    %three = arith.constant 3.0 : f32
    gpu.memset %s, %three : memref<{N}xf32>, f32
    gpu.launch_func @k::@square {LAUNCH} args(%s : memref<{N}xf32>)
    %c5 = arith.constant 5 : index
    %v = memref.load %s[%c5] : memref<{N}xf32>
    memref.store %v, %oA[%c5] : memref<{N}xf32>
    memref.copy %s, %oB : memref<{N}xf32> to memref<{N}xf32>
    gpu.dealloc %s : memref<{N}xf32>
"""
    result = run_ok(program(body))
    a, b = printed_memrefs(result.stdout)
    assert a[5] == 9.0 and (b == 9.0).all()


def test_async_execute_and_await() -> None:
    body = f"""
    %tok, %val = async.execute -> !async.value<f32> {{
      %d = gpu.alloc () : memref<{N}xf32>
      gpu.memcpy %d, %hA : memref<{N}xf32>, memref<{N}xf32>
      gpu.launch_func @k::@scale {LAUNCH} args(%d : memref<{N}xf32>, %two : f32)
      gpu.memcpy %oA, %d : memref<{N}xf32>, memref<{N}xf32>
      %c3 = arith.constant 3 : index
      %xv = memref.load %oA[%c3] : memref<{N}xf32>
      async.yield %xv : f32
    }}
    %tok2 = async.execute [%tok] {{
      gpu.memcpy %oB, %hB : memref<{N}xf32>, memref<{N}xf32>
      async.yield
    }}
    async.await %tok2 : !async.token
    %x = async.await %val : !async.value<f32>
    %c0 = arith.constant 0 : index
    memref.store %x, %oB[%c0] : memref<{N}xf32>
"""
    result = run_ok(program(body))
    assert result.stderr == ""
    a, b = printed_memrefs(result.stdout)
    np.testing.assert_allclose(a, A * 2)
    assert b[0] == A[3] * 2 and (b[1:] == B[1:]).all()


def test_tokens_never_waited_on_and_races_are_reported() -> None:
    body = f"""
    %d = gpu.alloc () : memref<{N}xf32>
    gpu.memcpy %d, %hA : memref<{N}xf32>, memref<{N}xf32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@scale {LAUNCH} args(%d : memref<{N}xf32>, %two : f32)
    %t2 = gpu.launch_func async [%t0] @k::@square {LAUNCH} args(%d : memref<{N}xf32>)
    %t3 = gpu.memcpy async [%t1] %oA, %d : memref<{N}xf32>, memref<{N}xf32>
    gpu.wait [%t2]
    %c0 = arith.constant 0 : index
    %x = memref.load %oA[%c0] : memref<{N}xf32>
    memref.store %x, %oB[%c0] : memref<{N}xf32>
"""
    result = run_ok(program(body))
    err = result.stderr
    # the two launches both write %d and no token orders them
    assert "'gpu.launch_func' and 'gpu.launch_func' at test.mlir:" in err and "a data race on a GPU" in err
    # the host reads %oA while the memcpy into it may still run
    assert "the host reads the buffer of 'memref.alloc' at" in err and "may still be using it" in err
    # %t3 is never waited on
    assert "the async token of 'gpu.memcpy' is never waited on" in err
    # ... and the memcpy after %t1 reads %d while the unordered @square may write it
    assert "'gpu.memcpy' and 'gpu.launch_func' at" in err
    assert len(result.warnings) == 4
    assert {d.code for d in result.diagnostics} == {"GPU403"}


def test_gpu_wait_async_without_dependencies_and_single_dependency() -> None:
    body = f"""
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    %d, %t2 = gpu.alloc async [%t1] () : memref<{N}xf32>
    %t3 = gpu.memcpy async [%t2] %d, %hB : memref<{N}xf32>, memref<{N}xf32>
    %t4 = gpu.memcpy async [%t3] %oB, %d : memref<{N}xf32>, memref<{N}xf32>
    gpu.wait [%t4]
    gpu.memcpy %oA, %hA : memref<{N}xf32>, memref<{N}xf32>
"""
    result = run_ok(program(body))
    assert result.stderr == ""
    a, b = printed_memrefs(result.stdout)
    assert (a == A).all() and (b == B).all()
