// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/miscfail8/kernel.cl
// launch: block=(16, 1, 1) grid=(2, 1, 1)
// note: p has block size + 1 elements

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @foo(%p: memref<17xi32, #gpu.address_space<workgroup>>) -> i32 {
      %tid = gpu.thread_id x
      %v = memref.load %p[%tid] : memref<17xi32, #gpu.address_space<workgroup>>
      return %v : i32
    }
    gpu.func @baz() workgroup(%p: memref<17xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %r = func.call @foo(%p) : (memref<17xi32, #gpu.address_space<workgroup>>) -> i32
      %t = arith.index_cast %tx : index to i32
      %n = arith.addi %tx, %c1 : index
      memref.store %t, %p[%n] : memref<17xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@baz blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
