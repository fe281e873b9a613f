// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_mod_invariants/local_reduce_strength/kernel.cl
// launch: block=(16, 1, 1) grid=(64, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<1024xi32, #gpu.address_space<workgroup>>, %B: memref<1034xi32, #gpu.address_space<workgroup>>, %C: memref<1044xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bdx = gpu.block_dim x
      %c10 = arith.constant 10 : index
      %c20 = arith.constant 20 : index
      %c1024 = arith.constant 1024 : index
      %t = arith.index_cast %tx : index to i32
      scf.for %i = %tx to %c1024 step %bdx {
        memref.store %t, %A[%i] : memref<1024xi32, #gpu.address_space<workgroup>>
        %b = arith.addi %i, %c10 : index
        memref.store %t, %B[%b] : memref<1034xi32, #gpu.address_space<workgroup>>
        %index = arith.addi %i, %c20 : index
        memref.store %t, %C[%index] : memref<1044xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@foo blocks in (%c64, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
