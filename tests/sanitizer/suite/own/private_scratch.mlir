// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: private memory is per thread: the same indices in every thread never conflict

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scratch(%out: memref<128xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %p = memref.alloca() : memref<4xi32>
      %t = arith.index_cast %gid : index to i32
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %t, %p[%i] : memref<4xi32>
      }
      %v = memref.load %p[%c3] : memref<4xi32>
      memref.store %v, %out[%gid] : memref<128xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %out = gpu.alloc host_shared () : memref<128xi32>
    scf.for %out_i0 = %c0 to %c128 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<128xi32>
    }
    gpu.launch_func @kernels::@scratch blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<128xi32>)
    gpu.dealloc %out : memref<128xi32>
    return
  }
}
