// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/miscfail1/kernel.cl
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: local_size 1024 scaled to 64; C has block size + 2 elements; the index A[C[tid + 2]] is whatever C holds (zero-filled workgroup memory in gpu-run)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<64xi32, #gpu.address_space<workgroup>>, %B: memref<64xi32, #gpu.address_space<workgroup>>, %C: memref<66xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %t1 = arith.addi %tx, %c1 : index
      %c = memref.load %C[%t1] : memref<66xi32, #gpu.address_space<workgroup>>
      memref.store %c, %C[%tx] : memref<66xi32, #gpu.address_space<workgroup>>
      %t2 = arith.addi %tx, %c2 : index
      %ci = memref.load %C[%t2] : memref<66xi32, #gpu.address_space<workgroup>>
      %ai = arith.index_cast %ci : i32 to index
      %a = memref.load %A[%ai] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %a, %B[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
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
