// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/misc/fail/miscfail3/kernel.cu
// launch: block=(1024, 1, 1) grid=(1, 1, 1)
// note: offset passed as 1; A has block size + 1 elements

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @inlined(%A: memref<1025xi32>, %offset: index) {
      %tid = gpu.thread_id x
      %j = arith.addi %tid, %offset : index
      %temp = memref.load %A[%j] : memref<1025xi32>
      %a = memref.load %A[%tid] : memref<1025xi32>
      %s = arith.addi %a, %temp : i32
      memref.store %s, %A[%tid] : memref<1025xi32>
      return
    }
    gpu.func @inline_test(%A: memref<1025xi32>, %offset: index) kernel {
      func.call @inlined(%A, %offset) : (memref<1025xi32>, index) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %c1025 = arith.constant 1025 : index
    %A = gpu.alloc host_shared () : memref<1025xi32>
    scf.for %A_i0 = %c0 to %c1025 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<1025xi32>
    }
    %offset = arith.constant 1 : index
    gpu.launch_func @kernels::@inline_test blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%A : memref<1025xi32>, %offset : index)
    gpu.dealloc %A : memref<1025xi32>
    return
  }
}
