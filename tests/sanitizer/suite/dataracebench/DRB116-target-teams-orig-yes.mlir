// verdict: race
// source: LLNL/dataracebench micro-benchmarks/DRB116-target-teams-orig-yes.c
// launch: block=(1, 1, 1) grid=(2, 1, 1)
// note: teams num_teams(2): each team's initial thread is the single thread of one of 2 blocks

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb116(%a: memref<100xf64>) kernel {
      %c50 = arith.constant 50 : index
      %two = arith.constant 2.0 : f64
      %v = memref.load %a[%c50] : memref<100xf64>
      %v2 = arith.mulf %v, %two : f64
      memref.store %v2, %a[%c50] : memref<100xf64>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c100 = arith.constant 100 : index
    %a = gpu.alloc host_shared () : memref<100xf64>
    scf.for %a_i0 = %c0 to %c100 step %c1 {
      %a_w = arith.index_cast %a_i0 : index to i64
      %a_v = arith.sitofp %a_w : i64 to f64
      memref.store %a_v, %a[%a_i0] : memref<100xf64>
    }
    gpu.launch_func @kernels::@drb116 blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<100xf64>)
    gpu.dealloc %a : memref<100xf64>
    return
  }
}
