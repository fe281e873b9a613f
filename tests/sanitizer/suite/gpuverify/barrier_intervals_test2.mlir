// verdict: barrier-divergence
// source: mc-imperial/gpuverify testsuite/OpenCL/barrier_intervals/test2/kernel.cl
// launch: block=(16, 1, 1) grid=(16, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @simple_kernel() workgroup(%p: memref<16xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %p[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        gpu.barrier memfence [#gpu.address_space<workgroup>]
      }
      memref.store %v, %p[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      memref.store %v, %p[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@simple_kernel blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
