// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/ctimesgid/kernel.cu
// launch: block=(64, 1, 1) grid=(16, 1, 1)
// note: WIDTH=256; unsigned int* A became memref<262144xi32> (one row of 256 per thread)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<262144xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %g = arith.index_cast %gid : index to i32
      %base = arith.muli %gid, %c256 : index
      scf.for %i = %c0 to %c256 step %c1 {
        %a = arith.addi %i, %base : index
        memref.store %g, %A[%a] : memref<262144xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c262144 = arith.constant 262144 : index
    %A = gpu.alloc host_shared () : memref<262144xi32>
    scf.for %A_i0 = %c0 to %c262144 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<262144xi32>
    }
    gpu.launch_func @kernels::@k blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1) args(%A : memref<262144xi32>)
    gpu.dealloc %A : memref<262144xi32>
    return
  }
}
