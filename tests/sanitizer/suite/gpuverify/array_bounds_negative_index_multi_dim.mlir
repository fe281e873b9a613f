// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/array_bounds_tests/negative_index_multi_dim/kernel.cl
// launch: block=(1, 10, 1) grid=(1, 10, 1)
// note: int L[10][10] became a flat memref<100xi32> indexed row * 10 + column: C's array bounds are those of the whole array

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%L: memref<100xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %gdx = gpu.grid_dim x
      %c0 = arith.constant 0 : index
      %c10 = arith.constant 10 : index
      %gyb = arith.muli %by, %bdy : index
      %gy = arith.addi %gyb, %ty : index
      %gs = arith.muli %bdx, %gdx : index
      %v = arith.index_cast %gs : index to i32
      %row = arith.muli %tx, %c10 : index
      %r = arith.subi %c0, %row : index
      %i = arith.addi %r, %gy : index
      memref.store %v, %L[%i] : memref<100xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    gpu.launch_func @kernels::@foo blocks in (%c1, %c10, %c1) threads in (%c1, %c10, %c1)
    return
  }
}
