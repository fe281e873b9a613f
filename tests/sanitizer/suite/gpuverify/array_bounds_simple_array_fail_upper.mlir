// verdict: out-of-bounds
// source: mc-imperial/gpuverify testsuite/OpenCL/array_bounds_tests/simple_array_fail_upper/kernel.cl
// launch: block=(8, 1, 1) grid=(8, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%L: memref<25xi32, #gpu.address_space<workgroup>>) kernel {
      %bdx = gpu.block_dim x
      %gdx = gpu.grid_dim x
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %gs = arith.muli %bdx, %gdx : index
      %v = arith.index_cast %gs : index to i32
      memref.store %v, %L[%gid] : memref<25xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@foo blocks in (%c8, %c1, %c1) threads in (%c8, %c1, %c1)
    return
  }
}
