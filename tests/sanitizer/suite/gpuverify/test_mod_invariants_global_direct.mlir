// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_mod_invariants/global_direct/kernel.cl
// launch: block=(16, 1, 1) grid=(2, 1, 1)
// note: num_groups scaled down from 8 to 2; A and B hold 1024 rows of 256; C is unused

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%A: memref<262144xi32>, %B: memref<262144xi32>, %C: memref<1xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %t = arith.index_cast %tx : index to i32
      scf.for %i = %gid to %c1024 step %c1 {
        %ia = arith.muli %i, %c256 : index
        %a = arith.addi %ia, %gid : index
        memref.store %t, %A[%a] : memref<262144xi32>
        memref.store %t, %B[%a] : memref<262144xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c262144 = arith.constant 262144 : index
    %A = gpu.alloc host_shared () : memref<262144xi32>
    scf.for %A_i0 = %c0 to %c262144 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<262144xi32>
    }
    %B = gpu.alloc host_shared () : memref<262144xi32>
    scf.for %B_i0 = %c0 to %c262144 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<262144xi32>
    }
    %C = gpu.alloc host_shared () : memref<1xi32>
    scf.for %C_i0 = %c0 to %c1 step %c1 {
      %C_v = arith.index_cast %C_i0 : index to i32
      memref.store %C_v, %C[%C_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<262144xi32>, %B : memref<262144xi32>, %C : memref<1xi32>)
    gpu.dealloc %A : memref<262144xi32>
    gpu.dealloc %B : memref<262144xi32>
    gpu.dealloc %C : memref<1xi32>
    return
  }
}
