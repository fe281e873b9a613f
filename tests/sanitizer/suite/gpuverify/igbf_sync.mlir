// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/sync/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: launch scaled down from local_size=1024 num_groups=1024; p has one element past the grid for the last thread's store

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%p: memref<257xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %g = arith.index_cast %gid : index to i32
      memref.store %g, %p[%gid] : memref<257xi32>
      gpu.barrier memfence [#gpu.address_space<global>]
      %n = arith.addi %gid, %c1 : index
      memref.store %g, %p[%n] : memref<257xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c257 = arith.constant 257 : index
    %p = gpu.alloc host_shared () : memref<257xi32>
    scf.for %p_i0 = %c0 to %c257 step %c1 {
      %p_v = arith.index_cast %p_i0 : index to i32
      memref.store %p_v, %p[%p_i0] : memref<257xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%p : memref<257xi32>)
    gpu.dealloc %p : memref<257xi32>
    return
  }
}
