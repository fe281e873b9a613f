// verdict: race
// source: LLNL/dataracebench micro-benchmarks/DRB156-missingordered-orig-gpu-yes.c
// launch: block=(32, 1, 1) grid=(4, 1, 1)
// note: teams distribute parallel for: one iteration per thread of a 4-block grid of 32 threads, guarded by the trip count (i = 1 + global id)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb156(%var: memref<100xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %c100 = arith.constant 100 : index
      %d1 = arith.constant 1 : i32
      %i = arith.addi %gid, %c1 : index
      %in = arith.cmpi ult, %i, %c100 : index
      scf.if %in {
        %p = arith.subi %i, %c1 : index
        %v = memref.load %var[%p] : memref<100xi32>
        %v1 = arith.addi %v, %d1 : i32
        memref.store %v1, %var[%i] : memref<100xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c100 = arith.constant 100 : index
    %var = gpu.alloc host_shared () : memref<100xi32>
    scf.for %var_i0 = %c0 to %c100 step %c1 {
      %var_v = arith.index_cast %var_i0 : index to i32
      memref.store %var_v, %var[%var_i0] : memref<100xi32>
    }
    gpu.launch_func @kernels::@drb156 blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%var : memref<100xi32>)
    gpu.dealloc %var : memref<100xi32>
    return
  }
}
