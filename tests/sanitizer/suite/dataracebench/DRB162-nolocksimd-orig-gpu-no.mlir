// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB162-nolocksimd-orig-gpu-no.c
// launch: block=(32, 1, 1) grid=(1, 1, 1)
// note: teams num_teams(1), distribute parallel for: iteration i on thread i of one 32-thread block; the reduction(+:var) became atomic adds

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb162(%var: memref<8xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c20 = arith.constant 20 : index
      %d1 = arith.constant 1 : i32
      %in = arith.cmpi ult, %tx, %c20 : index
      scf.if %in {
        scf.for %k = %c0 to %c8 step %c1 {
          %old = memref.atomic_rmw addi %d1, %var[%k] : (i32, memref<8xi32>) -> i32
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %var = gpu.alloc host_shared () : memref<8xi32>
    scf.for %var_i0 = %c0 to %c8 step %c1 {
      %var_v = arith.index_cast %var_i0 : index to i32
      memref.store %var_v, %var[%var_i0] : memref<8xi32>
    }
    gpu.launch_func @kernels::@drb162 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%var : memref<8xi32>)
    gpu.dealloc %var : memref<8xi32>
    return
  }
}
