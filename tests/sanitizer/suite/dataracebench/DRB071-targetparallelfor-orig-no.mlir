// verdict: race-free
// source: LLNL/dataracebench micro-benchmarks/DRB071-targetparallelfor-orig-no.c
// launch: block=(1000, 1, 1) grid=(1, 1, 1)
// note: target parallel for: one team, iteration i on thread i of a 1000-thread block

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb071(%a: memref<1000xi32>) kernel {
      %tx = gpu.thread_id x
      %d1 = arith.constant 1 : i32
      %v = memref.load %a[%tx] : memref<1000xi32>
      %v1 = arith.addi %v, %d1 : i32
      memref.store %v1, %a[%tx] : memref<1000xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %a = gpu.alloc host_shared () : memref<1000xi32>
    scf.for %a_i0 = %c0 to %c1000 step %c1 {
      %a_v = arith.index_cast %a_i0 : index to i32
      memref.store %a_v, %a[%a_i0] : memref<1000xi32>
    }
    gpu.launch_func @kernels::@drb071 blocks in (%c1, %c1, %c1) threads in (%c1000, %c1, %c1) args(%a : memref<1000xi32>)
    gpu.dealloc %a : memref<1000xi32>
    return
  }
}
