// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: an in-place stencil: each thread reads its left neighbour's element, which that neighbour rewrites

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @smooth(%x: memref<129xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %inner = arith.cmpi ugt, %gid, %c0 : index
      scf.if %inner {
        %l = arith.subi %gid, %c1 : index
        %a = memref.load %x[%l] : memref<129xf32>
        %b = memref.load %x[%gid] : memref<129xf32>
        %s = arith.addf %a, %b : f32
        memref.store %s, %x[%gid] : memref<129xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c129 = arith.constant 129 : index
    %x = gpu.alloc host_shared () : memref<129xf32>
    scf.for %x_i0 = %c0 to %c129 step %c1 {
      %x_w = arith.index_cast %x_i0 : index to i64
      %x_v = arith.sitofp %x_w : i64 to f32
      memref.store %x_v, %x[%x_i0] : memref<129xf32>
    }
    gpu.launch_func @kernels::@smooth blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<129xf32>)
    gpu.dealloc %x : memref<129xf32>
    return
  }
}
