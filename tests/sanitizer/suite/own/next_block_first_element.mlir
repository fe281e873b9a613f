// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: the issue's example: the last thread of each block writes the first element of the next block's range; barriers never order threads of different blocks

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spill(%buf: memref<257xi32>) kernel {
      %tx = gpu.thread_id x
      %bdx = gpu.block_dim x
      %bx = gpu.block_id x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %t = arith.index_cast %gid : index to i32
      memref.store %t, %buf[%gid] : memref<257xi32>
      gpu.barrier
      %last = arith.subi %bdx, %c1 : index
      %is_last = arith.cmpi eq, %tx, %last : index
      scf.if %is_last {
        %n = arith.addi %gid, %c1 : index
        memref.store %t, %buf[%n] : memref<257xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c257 = arith.constant 257 : index
    %buf = gpu.alloc host_shared () : memref<257xi32>
    scf.for %buf_i0 = %c0 to %c257 step %c1 {
      %buf_v = arith.index_cast %buf_i0 : index to i32
      memref.store %buf_v, %buf[%buf_i0] : memref<257xi32>
    }
    gpu.launch_func @kernels::@spill blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%buf : memref<257xi32>)
    gpu.dealloc %buf : memref<257xi32>
    return
  }
}
