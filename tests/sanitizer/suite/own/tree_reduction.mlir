// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(2, 1, 1)
// note: a tree reduction in workgroup memory with a barrier after every step

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%x: memref<128xf32>, %partial: memref<2xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %v = memref.load %x[%gid] : memref<128xf32>
      memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %done = scf.while (%s = %c32) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tx, %s : index
        scf.if %active {
          %j = arith.addi %tx, %s : index
          %a = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
          %b = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier memfence [#gpu.address_space<workgroup>]
        %half = arith.divui %s, %c2 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %r = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %r, %partial[%bx] : memref<2xf32>
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
    %x = gpu.alloc host_shared () : memref<128xf32>
    scf.for %x_i0 = %c0 to %c128 step %c1 {
      %x_w = arith.index_cast %x_i0 : index to i64
      %x_v = arith.sitofp %x_w : i64 to f32
      memref.store %x_v, %x[%x_i0] : memref<128xf32>
    }
    %partial = gpu.alloc host_shared () : memref<2xf32>
    scf.for %partial_i0 = %c0 to %c2 step %c1 {
      %partial_w = arith.index_cast %partial_i0 : index to i64
      %partial_v = arith.sitofp %partial_w : i64 to f32
      memref.store %partial_v, %partial[%partial_i0] : memref<2xf32>
    }
    gpu.launch_func @kernels::@block_sum blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<128xf32>, %partial : memref<2xf32>)
    gpu.dealloc %x : memref<128xf32>
    gpu.dealloc %partial : memref<2xf32>
    return
  }
}
