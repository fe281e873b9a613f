// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/4d_array_race/kernel.cl
// launch: block=(8, 8, 1) grid=(2, 2, 1)
// note: scaled from local_size=[64,64] global_size=[256,256] to 8x8 blocks on a 16x16 range

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @example(%G: memref<16xi32>) workgroup(%L: memref<2x3x4x5xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %gxb = arith.muli %bx, %bdx : index
      %gx = arith.addi %gxb, %tx : index
      %g = memref.load %G[%gx] : memref<16xi32>
      memref.store %g, %L[%c1, %c2, %c3, %c3] : memref<2x3x4x5xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %G = gpu.alloc host_shared () : memref<16xi32>
    scf.for %G_i0 = %c0 to %c16 step %c1 {
      %G_v = arith.index_cast %G_i0 : index to i32
      memref.store %G_v, %G[%G_i0] : memref<16xi32>
    }
    gpu.launch_func @kernels::@example blocks in (%c2, %c2, %c1) threads in (%c8, %c8, %c1) args(%G : memref<16xi32>)
    gpu.dealloc %G : memref<16xi32>
    return
  }
}
