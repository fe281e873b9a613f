// verdict: race
// source: own
// launch: block=(32, 1, 1) grid=(4, 1, 1)
// note: every block writes its id into the same 32 slots of a global buffer

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tag(%tags: memref<32xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %b = arith.index_cast %bx : index to i32
      memref.store %b, %tags[%tx] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %tags = gpu.alloc host_shared () : memref<32xi32>
    scf.for %tags_i0 = %c0 to %c32 step %c1 {
      %tags_v = arith.index_cast %tags_i0 : index to i32
      memref.store %tags_v, %tags[%tags_i0] : memref<32xi32>
    }
    gpu.launch_func @kernels::@tag blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%tags : memref<32xi32>)
    gpu.dealloc %tags : memref<32xi32>
    return
  }
}
