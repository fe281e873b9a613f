// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/benign_race_tests/fail/writeafterread_otherval/kernel.cl
// launch: block=(64, 1, 1) grid=(1, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<64xi32, #gpu.address_space<workgroup>>, %B: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d5 = arith.constant 5 : i32
      %a = memref.load %A[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %a, %B[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %d5, %A[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
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
