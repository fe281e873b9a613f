// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/miscfail6/kernel.cl
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: local_size 1024 scaled to 64; offset passed as 1; A has block size + 1 elements; the inlined function stays a func.func the kernel calls

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @inlined(%A: memref<65xi32, #gpu.address_space<workgroup>>, %offset: index) {
      %tid = gpu.thread_id x
      %j = arith.addi %tid, %offset : index
      %temp = memref.load %A[%j] : memref<65xi32, #gpu.address_space<workgroup>>
      %a = memref.load %A[%tid] : memref<65xi32, #gpu.address_space<workgroup>>
      %s = arith.addi %a, %temp : i32
      memref.store %s, %A[%tid] : memref<65xi32, #gpu.address_space<workgroup>>
      return
    }
    gpu.func @inline_test(%offset: index) workgroup(%A: memref<65xi32, #gpu.address_space<workgroup>>) kernel {
      func.call @inlined(%A, %offset) : (memref<65xi32, #gpu.address_space<workgroup>>, index) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %offset = arith.constant 1 : index
    gpu.launch_func @kernels::@inline_test blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%offset : index)
    return
  }
}
