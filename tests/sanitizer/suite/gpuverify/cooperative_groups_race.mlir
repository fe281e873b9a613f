// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/cooperative_groups/fail/race/kernel.cu
// launch: block=(32, 1, 1) grid=(2, 1, 1)
// note: A has one element past the grid

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @race(%A: memref<65xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %n = arith.addi %gid, %c1 : index
      %temp = memref.load %A[%n] : memref<65xi32>
      memref.store %temp, %A[%gid] : memref<65xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c65 = arith.constant 65 : index
    %A = gpu.alloc host_shared () : memref<65xi32>
    scf.for %A_i0 = %c0 to %c65 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<65xi32>
    }
    gpu.launch_func @kernels::@race blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<65xi32>)
    gpu.dealloc %A : memref<65xi32>
    return
  }
}
