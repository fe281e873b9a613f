// verdict: race
// source: own
// launch: block=(8, 1, 1) grid=(4, 1, 1)
// note: block b's 8-element view starts at 7 b, so neighbouring blocks share one element

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows(%m: memref<32xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c7 = arith.constant 7 : index
      %off = arith.muli %bx, %c7 : index
      %row = memref.subview %m[%off] [8] [1] : memref<32xi32> to memref<8xi32, strided<[1], offset: ?>>
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %row[%tx] : memref<8xi32, strided<[1], offset: ?>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc host_shared () : memref<32xi32>
    scf.for %m_i0 = %c0 to %c32 step %c1 {
      %m_v = arith.index_cast %m_i0 : index to i32
      memref.store %m_v, %m[%m_i0] : memref<32xi32>
    }
    gpu.launch_func @kernels::@rows blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<32xi32>)
    gpu.dealloc %m : memref<32xi32>
    return
  }
}
