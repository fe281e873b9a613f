// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/atomics/add_one/kernel.cu
// launch: block=(2, 1, 1) grid=(1, 1, 1)
// note: unsigned int* i became memref<1xi32> (set to 0 by @main), int* A memref<2xi32>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @race_test(%i: memref<1xi32>, %A: memref<2xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %t = arith.index_cast %tx : index to i32
      %old = memref.atomic_rmw addi %d1, %i[%c0] : (i32, memref<1xi32>) -> i32
      %j = arith.index_cast %old : i32 to index
      memref.store %t, %A[%j] : memref<2xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %i = gpu.alloc host_shared () : memref<1xi32>
    scf.for %i_i0 = %c0 to %c1 step %c1 {
      %i_v = arith.index_cast %i_i0 : index to i32
      memref.store %i_v, %i[%i_i0] : memref<1xi32>
    }
    %A = gpu.alloc host_shared () : memref<2xi32>
    scf.for %A_i0 = %c0 to %c2 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<2xi32>
    }
    gpu.launch_func @kernels::@race_test blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%i : memref<1xi32>, %A : memref<2xi32>)
    gpu.dealloc %i : memref<1xi32>
    gpu.dealloc %A : memref<2xi32>
    return
  }
}
