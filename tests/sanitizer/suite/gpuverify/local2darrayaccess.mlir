// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/local2darrayaccess/kernel.cu
// launch: block=(10, 1, 1) grid=(64, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<10x10xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %d2 = arith.constant 2 : i32
      memref.store %d2, %A[%ty, %tx] : memref<10x10xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@foo blocks in (%c64, %c1, %c1) threads in (%c10, %c1, %c1)
    return
  }
}
