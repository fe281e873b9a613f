// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB163-simdmissinglock1-orig-gpu-no.c
// launch: block=(32, 1, 1) grid=(4, 1, 1)
// note: teams distribute parallel for: one iteration per thread of a 4-block grid of 32 threads, guarded by the trip count; the reduction(+:var) became atomic adds

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb163(%var: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c100 = arith.constant 100 : index
      %d1 = arith.constant 1 : i32
      %in = arith.cmpi ult, %gid, %c100 : index
      scf.if %in {
        scf.for %k = %c0 to %c64 step %c1 {
          %old = memref.atomic_rmw addi %d1, %var[%k] : (i32, memref<64xi32>) -> i32
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %var = gpu.alloc host_shared () : memref<64xi32>
    scf.for %var_i0 = %c0 to %c64 step %c1 {
      %var_v = arith.index_cast %var_i0 : index to i32
      memref.store %var_v, %var[%var_i0] : memref<64xi32>
    }
    gpu.launch_func @kernels::@drb163 blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%var : memref<64xi32>)
    gpu.dealloc %var : memref<64xi32>
    return
  }
}
