// verdict: race, out-of-bounds
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/2d_array_race/kernel.cl
// launch: block=(8, 8, 1) grid=(2, 2, 1)
// note: scaled from local_size=[64,64] global_size=[256,256] to 8x8 blocks on a 16x16 range, L to 8x8; threads of the last row also index L one row past its end

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @example(%G: memref<256xi32>) workgroup(%L: memref<8x8xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %c1 = arith.constant 1 : index
      %d1 = arith.constant 1 : i32
      %gxb = arith.muli %bx, %bdx : index
      %gx = arith.addi %gxb, %tx : index
      %gyb = arith.muli %by, %bdy : index
      %gy = arith.addi %gyb, %ty : index
      %gsize = arith.constant 16 : index
      %row = arith.muli %gy, %gsize : index
      %gi = arith.addi %row, %gx : index
      %g = memref.load %G[%gi] : memref<256xi32>
      memref.store %g, %L[%ty, %tx] : memref<8x8xi32, #gpu.address_space<workgroup>>
      %ty1 = arith.addi %ty, %c1 : index
      %l = memref.load %L[%ty1, %tx] : memref<8x8xi32, #gpu.address_space<workgroup>>
      %l1 = arith.addi %l, %d1 : i32
      memref.store %l1, %L[%ty1, %tx] : memref<8x8xi32, #gpu.address_space<workgroup>>
      %back = memref.load %L[%ty, %tx] : memref<8x8xi32, #gpu.address_space<workgroup>>
      memref.store %back, %G[%gi] : memref<256xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %G = gpu.alloc host_shared () : memref<256xi32>
    scf.for %G_i0 = %c0 to %c256 step %c1 {
      %G_v = arith.index_cast %G_i0 : index to i32
      memref.store %G_v, %G[%G_i0] : memref<256xi32>
    }
    gpu.launch_func @kernels::@example blocks in (%c2, %c2, %c1) threads in (%c8, %c8, %c1) args(%G : memref<256xi32>)
    gpu.dealloc %G : memref<256xi32>
    return
  }
}
