// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc13/kernel.cl
// launch: block=(16, 1, 1) grid=(16, 1, 1)
// note: the private array int A[] = {1} became a memref.alloca

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%B: memref<256xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %A = memref.alloca() : memref<1xi32>
      memref.store %d1, %A[%c0] : memref<1xi32>
      %a = memref.load %A[%c0] : memref<1xi32>
      memref.store %a, %B[%gid] : memref<256xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %B = gpu.alloc host_shared () : memref<256xi32>
    scf.for %B_i0 = %c0 to %c256 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<256xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1) args(%B : memref<256xi32>)
    gpu.dealloc %B : memref<256xi32>
    return
  }
}
