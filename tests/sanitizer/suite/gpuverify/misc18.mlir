// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc18/kernel.cl
// launch: block=(2, 1, 1) grid=(2, 1, 1)
// note: the __barrier_invariant annotation is dropped

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduction(%input: memref<2xi32>, %output: memref<4xi32>) workgroup(%groupResults: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %d0 = arith.constant 0 : i32
      %in = memref.load %input[%tx] : memref<2xi32>
      %f = arith.uitofp %in : i32 to f32
      memref.store %f, %groupResults[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %d0, %output[%gid] : memref<4xi32>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %input = gpu.alloc host_shared () : memref<2xi32>
    scf.for %input_i0 = %c0 to %c2 step %c1 {
      %input_v = arith.index_cast %input_i0 : index to i32
      memref.store %input_v, %input[%input_i0] : memref<2xi32>
    }
    %output = gpu.alloc host_shared () : memref<4xi32>
    scf.for %output_i0 = %c0 to %c4 step %c1 {
      %output_v = arith.index_cast %output_i0 : index to i32
      memref.store %output_v, %output[%output_i0] : memref<4xi32>
    }
    gpu.launch_func @kernels::@reduction blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1) args(%input : memref<2xi32>, %output : memref<4xi32>)
    gpu.dealloc %input : memref<2xi32>
    gpu.dealloc %output : memref<4xi32>
    return
  }
}
