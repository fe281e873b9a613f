// verdict: race
// source: mc-imperial/gpuverify testsuite/CUDA/warpsync/bad_inter_group/kernel.cu
// launch: block=(128, 1, 1) grid=(128, 1, 1)
// note: A has one block more than the grid; the source's --warp-sync does not matter for this inter-block race

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%A: memref<16512xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %nb = arith.addi %bx, %c1 : index
      %nbase = arith.muli %nb, %bdx : index
      %n = arith.addi %nbase, %tx : index
      %other = memref.load %A[%n] : memref<16512xi32>
      %mine = memref.load %A[%gid] : memref<16512xi32>
      %s = arith.addi %mine, %other : i32
      memref.store %s, %A[%gid] : memref<16512xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c16512 = arith.constant 16512 : index
    %A = gpu.alloc host_shared () : memref<16512xi32>
    scf.for %A_i0 = %c0 to %c16512 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<16512xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c128, %c1, %c1) threads in (%c128, %c1, %c1) args(%A : memref<16512xi32>)
    gpu.dealloc %A : memref<16512xi32>
    return
  }
}
