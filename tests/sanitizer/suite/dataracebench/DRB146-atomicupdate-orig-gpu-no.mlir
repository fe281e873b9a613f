// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB146-atomicupdate-orig-gpu-no.c
// launch: block=(1, 1, 1) grid=(4, 1, 1)
// note: teams distribute: 4 teams of one thread, team t runs iterations 25 t to 25 t + 24

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb146(%var: memref<1xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c25 = arith.constant 25 : index
      %d1 = arith.constant 1 : i32
      %lo = arith.muli %bx, %c25 : index
      %hi = arith.addi %lo, %c25 : index
      scf.for %i = %lo to %hi step %c1 {
        %old = memref.atomic_rmw addi %d1, %var[%c0] : (i32, memref<1xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %var = gpu.alloc host_shared () : memref<1xi32>
    scf.for %var_i0 = %c0 to %c1 step %c1 {
      %var_v = arith.index_cast %var_i0 : index to i32
      memref.store %var_v, %var[%var_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@drb146 blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%var : memref<1xi32>)
    gpu.dealloc %var : memref<1xi32>
    return
  }
}
