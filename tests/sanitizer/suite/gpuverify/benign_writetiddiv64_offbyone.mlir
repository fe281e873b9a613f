// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/benign_race_tests/fail/writetiddiv64_offbyone/kernel.cl
// launch: block=(65, 1, 1) grid=(1, 1, 1)
// note: i passed as 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%i: i32) workgroup(%A: memref<65xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %q = arith.divui %tx, %c64 : index
      %v = arith.index_cast %q : index to i32
      %ii = arith.index_cast %i : i32 to index
      memref.store %v, %A[%ii] : memref<65xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c65 = arith.constant 65 : index
    %i = arith.constant 0 : i32
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c65, %c1, %c1) args(%i : i32)
    return
  }
}
