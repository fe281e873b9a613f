// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: the stencil written to a second buffer

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @smooth(%x: memref<129xf32>, %y: memref<128xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %n = arith.addi %gid, %c1 : index
      %a = memref.load %x[%gid] : memref<129xf32>
      %b = memref.load %x[%n] : memref<129xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %y[%gid] : memref<128xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c129 = arith.constant 129 : index
    %x = gpu.alloc host_shared () : memref<129xf32>
    scf.for %x_i0 = %c0 to %c129 step %c1 {
      %x_w = arith.index_cast %x_i0 : index to i64
      %x_v = arith.sitofp %x_w : i64 to f32
      memref.store %x_v, %x[%x_i0] : memref<129xf32>
    }
    %y = gpu.alloc host_shared () : memref<128xf32>
    scf.for %y_i0 = %c0 to %c128 step %c1 {
      %y_w = arith.index_cast %y_i0 : index to i64
      %y_v = arith.sitofp %y_w : i64 to f32
      memref.store %y_v, %y[%y_i0] : memref<128xf32>
    }
    gpu.launch_func @kernels::@smooth blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<129xf32>, %y : memref<128xf32>)
    gpu.dealloc %x : memref<129xf32>
    gpu.dealloc %y : memref<128xf32>
    return
  }
}
