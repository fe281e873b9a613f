// verdict: race-free
// source: own
// launch: block=(16, 16, 1) grid=(1, 1, 1)
// note: a tile transposed through workgroup memory with a barrier between the store and the load

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<16x16xf32>, %out: memref<16x16xf32>) workgroup(%tile: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %in[%ty, %tx] : memref<16x16xf32>
      memref.store %v, %tile[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%tx, %ty] : memref<16x16xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%ty, %tx] : memref<16x16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %in = gpu.alloc host_shared () : memref<16x16xf32>
    scf.for %in_i0 = %c0 to %c16 step %c1 {
      scf.for %in_i1 = %c0 to %c16 step %c1 {
        %in_r = arith.muli %in_i0, %c16 : index
        %in_l = arith.addi %in_r, %in_i1 : index
        %in_w = arith.index_cast %in_l : index to i64
        %in_v = arith.sitofp %in_w : i64 to f32
        memref.store %in_v, %in[%in_i0, %in_i1] : memref<16x16xf32>
      }
    }
    %out = gpu.alloc host_shared () : memref<16x16xf32>
    scf.for %out_i0 = %c0 to %c16 step %c1 {
      scf.for %out_i1 = %c0 to %c16 step %c1 {
        %out_r = arith.muli %out_i0, %c16 : index
        %out_l = arith.addi %out_r, %out_i1 : index
        %out_w = arith.index_cast %out_l : index to i64
        %out_v = arith.sitofp %out_w : i64 to f32
        memref.store %out_v, %out[%out_i0, %out_i1] : memref<16x16xf32>
      }
    }
    gpu.launch_func @kernels::@transpose blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1) args(%in : memref<16x16xf32>, %out : memref<16x16xf32>)
    gpu.dealloc %in : memref<16x16xf32>
    gpu.dealloc %out : memref<16x16xf32>
    return
  }
}
