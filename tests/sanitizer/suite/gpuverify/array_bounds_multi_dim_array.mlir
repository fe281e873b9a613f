// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/array_bounds_tests/multi_dim_array/kernel.cl
// launch: block=(8, 8, 1) grid=(8, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%L: memref<8x8xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %v = arith.index_cast %bx : index to i32
      memref.store %v, %L[%tx, %ty] : memref<8x8xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@foo blocks in (%c8, %c1, %c1) threads in (%c8, %c8, %c1)
    return
  }
}
