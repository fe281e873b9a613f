// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/vector_element_race/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: global float4 *G became memref<4x4xf32> (element, lane): G[3].y is G[3, 1]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @example(%G: memref<4x4xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %g = arith.index_cast %gid : index to i32
      %f = arith.uitofp %g : i32 to f32
      memref.store %f, %G[%c3, %c1] : memref<4x4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %G = gpu.alloc host_shared () : memref<4x4xf32>
    scf.for %G_i0 = %c0 to %c4 step %c1 {
      scf.for %G_i1 = %c0 to %c4 step %c1 {
        %G_r = arith.muli %G_i0, %c4 : index
        %G_l = arith.addi %G_r, %G_i1 : index
        %G_w = arith.index_cast %G_l : index to i64
        %G_v = arith.sitofp %G_w : i64 to f32
        memref.store %G_v, %G[%G_i0, %G_i1] : memref<4x4xf32>
      }
    }
    gpu.launch_func @kernels::@example blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%G : memref<4x4xf32>)
    gpu.dealloc %G : memref<4x4xf32>
    return
  }
}
