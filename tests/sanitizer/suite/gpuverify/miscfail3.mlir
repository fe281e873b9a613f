// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/miscfail3/kernel.cl
// launch: block=(16, 1, 1) grid=(1, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() workgroup(%A: memref<16xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c100 = arith.constant 100 : index
      %t = arith.index_cast %tx : index to i32
      %nz = arith.cmpi ne, %tx, %c0 : index
      scf.if %nz {
        memref.store %t, %A[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      scf.for %i = %c0 to %c100 step %c1 {
        %one = arith.cmpi eq, %i, %c1 : index
        scf.if %one {
          memref.store %t, %A[%c0] : memref<16xi32, #gpu.address_space<workgroup>>
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
