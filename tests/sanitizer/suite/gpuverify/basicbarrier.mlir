// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/basicbarrier/kernel.cu
// launch: block=(64, 1, 1) grid=(64, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() kernel {
      %a = arith.constant 2 : i32
      %b = arith.constant 3 : i32
      %c = arith.addi %a, %b : i32
      gpu.barrier
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
