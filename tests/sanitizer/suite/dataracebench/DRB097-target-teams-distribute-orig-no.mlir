// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB097-target-teams-distribute-orig-no.c
// launch: block=(256, 1, 1) grid=(10, 1, 1)
// note: teams num_teams(10) thread_limit(256): team t's chunk i2 = 256 t runs on block t, iteration i on thread i - i2; the reduction(+:sum) became an atomic add

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb097(%a: memref<2560xf64>, %b: memref<2560xf64>, %sum: memref<1xf64>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %gidb = arith.muli %bx, %bdx : index
      %i = arith.addi %gidb, %tx : index
      %len = arith.constant 2560 : index
      %in = arith.cmpi ult, %i, %len : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<2560xf64>
        %y = memref.load %b[%i] : memref<2560xf64>
        %p = arith.mulf %x, %y : f64
        %old = memref.atomic_rmw addf %p, %sum[%c0] : (f64, memref<1xf64>) -> f64
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c256 = arith.constant 256 : index
    %c2560 = arith.constant 2560 : index
    %a = gpu.alloc host_shared () : memref<2560xf64>
    scf.for %a_i0 = %c0 to %c2560 step %c1 {
      %a_w = arith.index_cast %a_i0 : index to i64
      %a_v = arith.sitofp %a_w : i64 to f64
      memref.store %a_v, %a[%a_i0] : memref<2560xf64>
    }
    %b = gpu.alloc host_shared () : memref<2560xf64>
    scf.for %b_i0 = %c0 to %c2560 step %c1 {
      %b_w = arith.index_cast %b_i0 : index to i64
      %b_v = arith.sitofp %b_w : i64 to f64
      memref.store %b_v, %b[%b_i0] : memref<2560xf64>
    }
    %sum = gpu.alloc host_shared () : memref<1xf64>
    scf.for %sum_i0 = %c0 to %c1 step %c1 {
      %sum_w = arith.index_cast %sum_i0 : index to i64
      %sum_v = arith.sitofp %sum_w : i64 to f64
      memref.store %sum_v, %sum[%sum_i0] : memref<1xf64>
    }
    gpu.launch_func @kernels::@drb097 blocks in (%c10, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<2560xf64>, %b : memref<2560xf64>, %sum : memref<1xf64>)
    gpu.dealloc %a : memref<2560xf64>
    gpu.dealloc %b : memref<2560xf64>
    gpu.dealloc %sum : memref<1xf64>
    return
  }
}
