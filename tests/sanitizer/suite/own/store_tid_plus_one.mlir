// verdict: out-of-bounds
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: the issue's example: every thread stores s[tid + 1] into a workgroup buffer sized to the block

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shift_store() workgroup(%s: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %t = arith.index_cast %tx : index to i32
      %n = arith.addi %tx, %c1 : index
      memref.store %t, %s[%n] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@shift_store blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
