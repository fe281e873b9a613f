// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/misc/pass/misc2/kernel.cu
// launch: block=(512, 1, 1) grid=(1, 1, 1)
// note: the __assert(__no_read(p)) annotation is dropped

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helloCUDA(%p: memref<512xi32>) kernel {
      %tx = gpu.thread_id x
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %p[%tx] : memref<512xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %p = gpu.alloc host_shared () : memref<512xi32>
    scf.for %p_i0 = %c0 to %c512 step %c1 {
      %p_v = arith.index_cast %p_i0 : index to i32
      memref.store %p_v, %p[%p_i0] : memref<512xi32>
    }
    gpu.launch_func @kernels::@helloCUDA blocks in (%c1, %c1, %c1) threads in (%c512, %c1, %c1) args(%p : memref<512xi32>)
    gpu.dealloc %p : memref<512xi32>
    return
  }
}
