// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/atomics/refined_atomic_abstraction/bad_local_counters/kernel.cl
// launch: block=(64, 1, 1) grid=(12, 1, 1)
// note: __local unsigned *localCounter became a one-element workgroup attribution (zero-filled in gpu-run)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%globalArray: memref<768xi32>) workgroup(%localCounter: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %d1, %localCounter[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      %i = arith.index_cast %old : i32 to index
      %g = arith.index_cast %gid : index to i32
      memref.store %g, %globalArray[%i] : memref<768xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %c64 = arith.constant 64 : index
    %c768 = arith.constant 768 : index
    %globalArray = gpu.alloc host_shared () : memref<768xi32>
    scf.for %globalArray_i0 = %c0 to %c768 step %c1 {
      %globalArray_v = arith.index_cast %globalArray_i0 : index to i32
      memref.store %globalArray_v, %globalArray[%globalArray_i0] : memref<768xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c12, %c1, %c1) threads in (%c64, %c1, %c1) args(%globalArray : memref<768xi32>)
    gpu.dealloc %globalArray : memref<768xi32>
    return
  }
}
