// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/loop_unwind/kernel.cu
// launch: block=(512, 1, 1) grid=(4, 1, 1)
// note: gridDim scaled down from 64 to 4

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helloCUDA(%A: memref<10xf32>) workgroup(%B: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      scf.for %i = %c0 to %c10 step %c1 {
        %a = memref.load %A[%i] : memref<10xf32>
        memref.store %a, %B[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %c512 = arith.constant 512 : index
    %A = gpu.alloc host_shared () : memref<10xf32>
    scf.for %A_i0 = %c0 to %c10 step %c1 {
      %A_w = arith.index_cast %A_i0 : index to i64
      %A_v = arith.sitofp %A_w : i64 to f32
      memref.store %A_v, %A[%A_i0] : memref<10xf32>
    }
    gpu.launch_func @kernels::@helloCUDA blocks in (%c4, %c1, %c1) threads in (%c512, %c1, %c1) args(%A : memref<10xf32>)
    gpu.dealloc %A : memref<10xf32>
    return
  }
}
