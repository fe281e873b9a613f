// verdict: race-free
// source: own
// launch: block=(8, 1, 1) grid=(4, 1, 1)
// note: each block writes its own row through a memref.subview

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows(%m: memref<4x8xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %row = memref.subview %m[%bx, 0] [1, 8] [1, 1] : memref<4x8xi32> to memref<8xi32, strided<[1], offset: ?>>
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
    %m = gpu.alloc host_shared () : memref<4x8xi32>
    scf.for %m_i0 = %c0 to %c4 step %c1 {
      scf.for %m_i1 = %c0 to %c8 step %c1 {
        %m_r = arith.muli %m_i0, %c8 : index
        %m_l = arith.addi %m_r, %m_i1 : index
        %m_v = arith.index_cast %m_l : index to i32
        memref.store %m_v, %m[%m_i0, %m_i1] : memref<4x8xi32>
      }
    }
    gpu.launch_func @kernels::@rows blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%m : memref<4x8xi32>)
    gpu.dealloc %m : memref<4x8xi32>
    return
  }
}
