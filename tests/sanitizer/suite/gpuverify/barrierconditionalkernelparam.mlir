// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/barrierconditionalkernelparam/kernel.cu
// launch: block=(64, 1, 1) grid=(64, 1, 1)
// note: x is a kernel parameter, the same in every thread (0 at this launch)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%x: i32) kernel {
      %d0 = arith.constant 0 : i32
      %zero = arith.cmpi eq, %x, %d0 : i32
      scf.if %zero {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %x = arith.constant 0 : i32
    gpu.launch_func @kernels::@foo blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : i32)
    return
  }
}
