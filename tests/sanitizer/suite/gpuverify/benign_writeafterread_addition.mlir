// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/benign_race_tests/fail/writeafterread_addition/kernel.cl
// launch: block=(64, 1, 1) grid=(1, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %v = memref.load %A[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
      %v1 = arith.addi %v, %d1 : i32
      memref.store %v1, %A[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
