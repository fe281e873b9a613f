// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: a plain load of the counter other threads are still adding to atomically

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @count(%counter: memref<1xi32>, %out: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %d1, %counter[%c0] : (i32, memref<1xi32>) -> i32
      %v = memref.load %counter[%c0] : memref<1xi32>
      memref.store %v, %out[%tx] : memref<64xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %counter = gpu.alloc host_shared () : memref<1xi32>
    scf.for %counter_i0 = %c0 to %c1 step %c1 {
      %counter_v = arith.index_cast %counter_i0 : index to i32
      memref.store %counter_v, %counter[%counter_i0] : memref<1xi32>
    }
    %out = gpu.alloc host_shared () : memref<64xi32>
    scf.for %out_i0 = %c0 to %c64 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<64xi32>
    }
    gpu.launch_func @kernels::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%counter : memref<1xi32>, %out : memref<64xi32>)
    gpu.dealloc %counter : memref<1xi32>
    gpu.dealloc %out : memref<64xi32>
    return
  }
}
