// verdict: out-of-bounds
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: the issue's example: 64 threads load buf[tid] from a memref<16xf32>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @load_all(%buf: memref<16xf32>, %out: memref<64xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %buf[%tx] : memref<16xf32>
      memref.store %v, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %buf = gpu.alloc host_shared () : memref<16xf32>
    scf.for %buf_i0 = %c0 to %c16 step %c1 {
      %buf_w = arith.index_cast %buf_i0 : index to i64
      %buf_v = arith.sitofp %buf_w : i64 to f32
      memref.store %buf_v, %buf[%buf_i0] : memref<16xf32>
    }
    %out = gpu.alloc host_shared () : memref<64xf32>
    scf.for %out_i0 = %c0 to %c64 step %c1 {
      %out_w = arith.index_cast %out_i0 : index to i64
      %out_v = arith.sitofp %out_w : i64 to f32
      memref.store %out_v, %out[%out_i0] : memref<64xf32>
    }
    gpu.launch_func @kernels::@load_all blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<16xf32>, %out : memref<64xf32>)
    gpu.dealloc %buf : memref<16xf32>
    gpu.dealloc %out : memref<64xf32>
    return
  }
}
