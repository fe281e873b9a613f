// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/benign_race_tests/fail/writereadarray_equality/kernel.cl
// launch: block=(2, 1, 1) grid=(1, 1, 1)
// note: the call to the undefined foo(A[tid + 1]) keeps only its load; A has block size + 1 elements

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @example() workgroup(%A: memref<3xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %d0 = arith.constant 0 : i32
      memref.store %d0, %A[%tx] : memref<3xi32, #gpu.address_space<workgroup>>
      %n = arith.addi %tx, %c1 : index
      %v = memref.load %A[%n] : memref<3xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@example blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
    return
  }
}
