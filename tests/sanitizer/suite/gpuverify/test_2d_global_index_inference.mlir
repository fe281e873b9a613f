// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_2d_global_index_inference/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @bar() -> index {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      return %gid : index
    }
    func.func @baz(%x: index) -> index {
      return %x : index
    }
    gpu.func @foo(%A: memref<256xi32>, %B: memref<256xi32>) kernel {
      %ty = gpu.thread_id y
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %gdx = gpu.grid_dim x
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c100 = arith.constant 100 : index
      %d1 = arith.constant 1 : i32
      %d2 = arith.constant 2 : i32
      %gidX = func.call @bar() : () -> index
      %gyb = arith.muli %by, %bdy : index
      %gidY = arith.addi %gyb, %ty : index
      %gs0 = arith.muli %bdx, %gdx : index
      %globalSize = func.call @baz(%gs0) : (index) -> index
      %ty0 = arith.muli %gidY, %gs0 : index
      %t = arith.addi %ty0, %gid : index
      scf.for %i = %c0 to %c100 step %c1 {
        %ra = arith.muli %gidY, %globalSize : index
        %a = arith.addi %ra, %gidX : index
        %rb = arith.muli %gidY, %gs0 : index
        %b = arith.addi %rb, %gidX : index
        %bv = memref.load %B[%b] : memref<256xi32>
        %s = arith.addi %bv, %d2 : i32
        memref.store %s, %A[%a] : memref<256xi32>
        %bt = memref.load %B[%t] : memref<256xi32>
        %bt1 = arith.addi %bt, %d1 : i32
        memref.store %bt1, %B[%t] : memref<256xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %A = gpu.alloc host_shared () : memref<256xi32>
    scf.for %A_i0 = %c0 to %c256 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<256xi32>
    }
    %B = gpu.alloc host_shared () : memref<256xi32>
    scf.for %B_i0 = %c0 to %c256 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<256xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%A : memref<256xi32>, %B : memref<256xi32>)
    gpu.dealloc %A : memref<256xi32>
    gpu.dealloc %B : memref<256xi32>
    return
  }
}
