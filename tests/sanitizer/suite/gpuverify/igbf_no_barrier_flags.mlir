// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/no_barrier_flags/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: launch scaled down from local_size=1024 num_groups=1024; barrier(0) became memfence [] (no memory ordered)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%p: memref<65xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %g = arith.index_cast %gid : index to i32
      memref.store %g, %p[%tx] : memref<65xi32, #gpu.address_space<workgroup>>
      gpu.barrier memfence []
      %n = arith.addi %tx, %c1 : index
      memref.store %g, %p[%n] : memref<65xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
