// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/benign_race_tests/fail/writewritearray_adversarial/kernel.cl
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: i and j passed as 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%i: i32, %j: i32) workgroup(%A: memref<64xi32, #gpu.address_space<workgroup>>, %B: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %ii = arith.index_cast %i : i32 to index
      %jj = arith.index_cast %j : i32 to index
      %b = memref.load %B[%jj] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %b, %A[%ii] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i = arith.constant 0 : i32
    %j = arith.constant 0 : i32
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%i : i32, %j : i32)
    return
  }
}
