// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/ctimeslid/kernel.cu
// launch: block=(64, 1, 1) grid=(16, 1, 1)
// note: WIDTH=256

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() workgroup(%A: memref<16384xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %t = arith.index_cast %tx : index to i32
      %base = arith.muli %tx, %c256 : index
      scf.for %i = %c0 to %c256 step %c1 {
        %a = arith.addi %i, %base : index
        memref.store %t, %A[%a] : memref<16384xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@k blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
