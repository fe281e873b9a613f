// verdict: race
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: thread 0 writes a value every thread reads, with no barrier

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @broadcast(%in: memref<2xi32>, %out: memref<128xi32>) workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %v = memref.load %in[%bx] : memref<2xi32>
        memref.store %v, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      %b = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %b, %out[%gid] : memref<128xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %in = gpu.alloc host_shared () : memref<2xi32>
    scf.for %in_i0 = %c0 to %c2 step %c1 {
      %in_v = arith.index_cast %in_i0 : index to i32
      memref.store %in_v, %in[%in_i0] : memref<2xi32>
    }
    %out = gpu.alloc host_shared () : memref<128xi32>
    scf.for %out_i0 = %c0 to %c128 step %c1 {
      %out_v = arith.index_cast %out_i0 : index to i32
      memref.store %out_v, %out[%out_i0] : memref<128xi32>
    }
    gpu.launch_func @kernels::@broadcast blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<2xi32>, %out : memref<128xi32>)
    gpu.dealloc %in : memref<2xi32>
    gpu.dealloc %out : memref<128xi32>
    return
  }
}
