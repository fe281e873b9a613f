// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: every thread of the grid adds to one counter atomically

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @count(%counter: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %d1, %counter[%c0] : (i32, memref<1xi32>) -> i32
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %counter = gpu.alloc host_shared () : memref<1xi32>
    scf.for %counter_i0 = %c0 to %c1 step %c1 {
      %counter_v = arith.index_cast %counter_i0 : index to i32
      memref.store %counter_v, %counter[%counter_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@count blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%counter : memref<1xi32>)
    gpu.dealloc %counter : memref<1xi32>
    return
  }
}
