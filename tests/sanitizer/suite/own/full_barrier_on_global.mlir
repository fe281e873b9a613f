// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: neighbours within the block only, ordered by a barrier fencing every address space

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shift(%buf: memref<128xi32>, %out: memref<128xi32>) kernel {
      %tx = gpu.thread_id x
      %bdx = gpu.block_dim x
      %bx = gpu.block_id x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %buf[%gid] : memref<128xi32>
      gpu.barrier
      %last = arith.subi %bdx, %c1 : index
      %inner = arith.cmpi ult, %tx, %last : index
      scf.if %inner {
        %n = arith.addi %gid, %c1 : index
        %v = memref.load %buf[%n] : memref<128xi32>
        memref.store %v, %out[%gid] : memref<128xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %buf = gpu.alloc host_shared () : memref<128xi32>
    scf.for %buf_i0 = %c0 to %c128 step %c1 {
      %buf_v = arith.index_cast %buf_i0 : index to i32
      memref.store %buf_v, %buf[%buf_i0] : memref<128xi32>
    }
    %out = gpu.alloc host_shared () : memref<128xi32>
    scf.for %out_i0 = %c0 to %c128 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<128xi32>
    }
    gpu.launch_func @kernels::@shift blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<128xi32>, %out : memref<128xi32>)
    gpu.dealloc %buf : memref<128xi32>
    gpu.dealloc %out : memref<128xi32>
    return
  }
}
