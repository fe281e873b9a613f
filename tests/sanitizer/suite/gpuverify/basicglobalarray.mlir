// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/basicglobalarray/kernel.cu
// launch: block=(64, 1, 1) grid=(1, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%p: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %d2 = arith.constant 2 : i32
      memref.store %d2, %p[%tx] : memref<64xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %p = gpu.alloc host_shared () : memref<64xi32>
    scf.for %p_i0 = %c0 to %c64 step %c1 {
      %p_v = arith.index_cast %p_i0 : index to i32
      memref.store %p_v, %p[%p_i0] : memref<64xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%p : memref<64xi32>)
    gpu.dealloc %p : memref<64xi32>
    return
  }
}
