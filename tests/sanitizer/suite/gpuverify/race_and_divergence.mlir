// verdict: race, barrier-divergence
// source: mc-imperial/gpuverify testsuite/OpenCL/divergence/race_and_divergence/kernel.cl
// launch: block=(1024, 1, 1) grid=(1, 1, 1)
// note: the source checks divergence only (--only-divergence); every thread also stores B[0], a race

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%A: memref<1024xi32>, %B: memref<1xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %d0 = arith.constant 0 : i32
      %tmp = memref.load %A[%gid] : memref<1024xi32>
      %zero = arith.cmpi eq, %tmp, %d0 : i32
      scf.if %zero {
        gpu.barrier memfence [#gpu.address_space<global>]
      }
      memref.store %tmp, %B[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %A = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %A_i0 = %c0 to %c1024 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<1024xi32>
    }
    %B = gpu.alloc host_shared () : memref<1xi32>
    scf.for %B_i0 = %c0 to %c1 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%A : memref<1024xi32>, %B : memref<1xi32>)
    gpu.dealloc %A : memref<1024xi32>
    gpu.dealloc %B : memref<1xi32>
    return
  }
}
