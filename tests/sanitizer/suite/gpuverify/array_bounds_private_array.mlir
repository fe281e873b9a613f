// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/array_bounds_tests/private_array/kernel.cl
// launch: block=(4, 1, 1) grid=(4, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %L = memref.alloca() : memref<16xi32>
      %x = arith.index_cast %gid : index to i32
      %sq = arith.muli %x, %x : i32
      memref.store %sq, %L[%gid] : memref<16xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
