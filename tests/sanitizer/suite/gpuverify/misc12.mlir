// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc12/kernel.cl
// launch: block=(16, 1, 1) grid=(16, 1, 1)
// note: the trip count is the block id: the same in every thread of a block

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo() kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %bx step %c1 {
        gpu.barrier memfence [#gpu.address_space<workgroup>]
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@foo blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
