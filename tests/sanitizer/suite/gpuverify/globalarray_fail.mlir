// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/globalarray/fail/kernel.cu
// launch: block=(8, 1, 1) grid=(1, 1, 1)
// note: __constant__ A became a global memref parameter the host may change (@main fills it with 0..7, so no race at this run)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @globalarray(%A: memref<8xi32>, %p: memref<1xf32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %a = memref.load %A[%tx] : memref<8xi32>
      %t = arith.index_cast %tx : index to i32
      %differs = arith.cmpi ne, %a, %t : i32
      scf.if %differs {
        %f = arith.sitofp %t : i32 to f32
        memref.store %f, %p[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = gpu.alloc host_shared () : memref<8xi32>
    scf.for %A_i0 = %c0 to %c8 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<8xi32>
    }
    %p = gpu.alloc host_shared () : memref<1xf32>
    scf.for %p_i0 = %c0 to %c1 step %c1 {
      %p_w = arith.index_cast %p_i0 : index to i64
      %p_v = arith.sitofp %p_w : i64 to f32
      memref.store %p_v, %p[%p_i0] : memref<1xf32>
    }
    gpu.launch_func @kernels::@globalarray blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<8xi32>, %p : memref<1xf32>)
    gpu.dealloc %A : memref<8xi32>
    gpu.dealloc %p : memref<1xf32>
    return
  }
}
