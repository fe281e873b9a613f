// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: the issue's first example: every thread of a block stores element 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @store_zero(%out: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %out[%c0] : memref<64xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc host_shared () : memref<64xi32>
    scf.for %out_i0 = %c0 to %c64 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<64xi32>
    }
    gpu.launch_func @kernels::@store_zero blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    gpu.dealloc %out : memref<64xi32>
    return
  }
}
