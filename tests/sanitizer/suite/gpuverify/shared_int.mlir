// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/fail_tests/shared_int/kernel.cu
// launch: block=(64, 1, 1) grid=(64, 1, 1)
// note: __shared__ int a became a one-element workgroup attribution

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%a: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %a[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@foo blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
