// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_mod_invariants/global_reduce_strength/kernel.cl
// launch: block=(16, 1, 1) grid=(8, 1, 1)
// note: the while loop (i = gid; i < 1024; i += 256) became scf.for

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%A: memref<1024xi32>, %B: memref<1034xi32>, %C: memref<1044xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c10 = arith.constant 10 : index
      %c20 = arith.constant 20 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %t = arith.index_cast %tx : index to i32
      scf.for %i = %gid to %c1024 step %c256 {
        memref.store %t, %A[%i] : memref<1024xi32>
        %b = arith.addi %i, %c10 : index
        memref.store %t, %B[%b] : memref<1034xi32>
        %index = arith.addi %i, %c20 : index
        memref.store %t, %C[%index] : memref<1044xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %c1034 = arith.constant 1034 : index
    %c1044 = arith.constant 1044 : index
    %A = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %A_i0 = %c0 to %c1024 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<1024xi32>
    }
    %B = gpu.alloc host_shared () : memref<1034xi32>
    scf.for %B_i0 = %c0 to %c1034 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<1034xi32>
    }
    %C = gpu.alloc host_shared () : memref<1044xi32>
    scf.for %C_i0 = %c0 to %c1044 step %c1 {
      %C_v = arith.index_cast %C_i0 : index to i32
      memref.store %C_v, %C[%C_i0] : memref<1044xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c8, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<1024xi32>, %B : memref<1034xi32>, %C : memref<1044xi32>)
    gpu.dealloc %A : memref<1024xi32>
    gpu.dealloc %B : memref<1034xi32>
    gpu.dealloc %C : memref<1044xi32>
    return
  }
}
