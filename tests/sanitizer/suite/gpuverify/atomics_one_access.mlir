// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/atomics/refined_atomic_abstraction/one_access/kernel.cl
// launch: block=(64, 1, 1) grid=(12, 1, 1)
// note: globalCounter is set to 0 by @main; the local counter is zero-filled workgroup memory in gpu-run

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%globalCounter: memref<1xi32>, %globalArray: memref<768xf32>) workgroup(%localCounter: memref<1xi32, #gpu.address_space<workgroup>>, %localArray: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %go = memref.atomic_rmw addi %d1, %globalCounter[%c0] : (i32, memref<1xi32>) -> i32
      %lo = memref.atomic_rmw addi %d1, %localCounter[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      %gi = arith.index_cast %go : i32 to index
      %li = arith.index_cast %lo : i32 to index
      %g = arith.index_cast %gid : index to i32
      %gf = arith.uitofp %g : i32 to f32
      memref.store %gf, %globalArray[%gi] : memref<768xf32>
      %t = arith.index_cast %tx : index to i32
      %tf = arith.uitofp %t : i32 to f32
      memref.store %tf, %localArray[%li] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %c64 = arith.constant 64 : index
    %c768 = arith.constant 768 : index
    %globalCounter = gpu.alloc host_shared () : memref<1xi32>
    scf.for %globalCounter_i0 = %c0 to %c1 step %c1 {
      %globalCounter_v = arith.index_cast %globalCounter_i0 : index to i32
      memref.store %globalCounter_v, %globalCounter[%globalCounter_i0] : memref<1xi32>
    }
    %globalArray = gpu.alloc host_shared () : memref<768xf32>
    scf.for %globalArray_i0 = %c0 to %c768 step %c1 {
      %globalArray_w = arith.index_cast %globalArray_i0 : index to i64
      %globalArray_v = arith.sitofp %globalArray_w : i64 to f32
      memref.store %globalArray_v, %globalArray[%globalArray_i0] : memref<768xf32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c12, %c1, %c1) threads in (%c64, %c1, %c1) args(%globalCounter : memref<1xi32>, %globalArray : memref<768xf32>)
    gpu.dealloc %globalCounter : memref<1xi32>
    gpu.dealloc %globalArray : memref<768xf32>
    return
  }
}
