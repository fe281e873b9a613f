// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: thread g writes elements 2 g and 2 g + 1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @interleave(%out: memref<256xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i = arith.muli %gid, %c2 : index
      %j = arith.addi %i, %c1 : index
      %t = arith.index_cast %gid : index to i32
      memref.store %t, %out[%i] : memref<256xi32>
      memref.store %t, %out[%j] : memref<256xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %out = gpu.alloc host_shared () : memref<256xi32>
    scf.for %out_i0 = %c0 to %c256 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<256xi32>
    }
    gpu.launch_func @kernels::@interleave blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<256xi32>)
    gpu.dealloc %out : memref<256xi32>
    return
  }
}
