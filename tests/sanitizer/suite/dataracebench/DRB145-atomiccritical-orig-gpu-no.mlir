// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB145-atomiccritical-orig-gpu-no.c
// launch: block=(32, 1, 1) grid=(4, 1, 1)
// note: teams distribute parallel for: one iteration per thread of a 4-block grid of 32 threads, guarded by the trip count; the reduction(+:var) became an atomic add

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb145(%var: memref<1xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c100 = arith.constant 100 : index
      %d1 = arith.constant 1 : i32
      %in = arith.cmpi ult, %gid, %c100 : index
      scf.if %in {
        %old = memref.atomic_rmw addi %d1, %var[%c0] : (i32, memref<1xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %var = gpu.alloc host_shared () : memref<1xi32>
    scf.for %var_i0 = %c0 to %c1 step %c1 {
      %var_v = arith.index_cast %var_i0 : index to i32
      memref.store %var_v, %var[%var_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@drb145 blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%var : memref<1xi32>)
    gpu.dealloc %var : memref<1xi32>
    return
  }
}
