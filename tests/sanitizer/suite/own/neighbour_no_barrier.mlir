// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: thread i stores s[i] and loads s[i + 1] with no barrier between

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @neighbour(%out: memref<128xi32>) workgroup(%s: memref<65xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c1 = arith.constant 1 : index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %s[%tx] : memref<65xi32, #gpu.address_space<workgroup>>
      %n = arith.addi %tx, %c1 : index
      %v = memref.load %s[%n] : memref<65xi32, #gpu.address_space<workgroup>>
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
    gpu.launch_func @kernels::@neighbour blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<128xi32>)
    gpu.dealloc %out : memref<128xi32>
    return
  }
}
