// verdict: out-of-bounds
// source: mc-imperial/gpuverify testsuite/OpenCL/array_bounds_tests/multi_dim_array_fail_upper/kernel.cl
// launch: block=(10, 10, 10) grid=(2, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%L: memref<10x10x10xi32, #gpu.address_space<workgroup>>) kernel {
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %tz = gpu.thread_id z
      %v = arith.index_cast %bx : index to i32
      memref.store %v, %L[%gid, %ty, %tz] : memref<10x10x10xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c10 = arith.constant 10 : index
    gpu.launch_func @kernels::@foo blocks in (%c2, %c1, %c1) threads in (%c10, %c10, %c10)
    return
  }
}
