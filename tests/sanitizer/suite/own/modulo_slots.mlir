// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: 64 threads store into 16 slots, four threads per slot

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bins(%bins: memref<16xi32>) kernel {
      %tx = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %slot = arith.remui %tx, %c16 : index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %bins[%slot] : memref<16xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %bins = gpu.alloc host_shared () : memref<16xi32>
    scf.for %bins_i0 = %c0 to %c16 step %c1 {
      %bins_v = arith.index_cast %bins_i0 : index to i32
      memref.store %bins_v, %bins[%bins_i0] : memref<16xi32>
    }
    gpu.launch_func @kernels::@bins blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%bins : memref<16xi32>)
    gpu.dealloc %bins : memref<16xi32>
    return
  }
}
