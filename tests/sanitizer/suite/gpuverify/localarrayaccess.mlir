// verdict: out-of-bounds
// source: mc-imperial/gpuverify testsuite/CUDA/localarrayaccess/kernel.cu
// launch: block=(10, 1, 1) grid=(64, 1, 1)
// note: GPUVerify passes it (races only); thread 9 loads A[10], past the 10-element array

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<10xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %d2 = arith.constant 2 : i32
      memref.store %d2, %A[%tx] : memref<10xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %n = arith.addi %tx, %c1 : index
      %x = memref.load %A[%n] : memref<10xi32, #gpu.address_space<workgroup>>
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
