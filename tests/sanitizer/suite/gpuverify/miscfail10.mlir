// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/fail/miscfail10/kernel.cl
// launch: block=(64, 1, 1) grid=(64, 1, 1)
// note: num_groups scaled down from 64 to 4; the pointer choice i > 0 ? h1 : h2 became arith.select on the memrefs; i passed as 1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%h1: memref<256xi32>, %h2: memref<256xi32>, %i: i32) workgroup(%l: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %d0 = arith.constant 0 : i32
      %pos = arith.cmpi sgt, %i, %d0 : i32
      %h = arith.select %pos, %h1, %h2 : memref<256xi32>
      scf.for %j = %c0 to %c256 step %c1 {
        %hv = memref.load %h[%j] : memref<256xi32>
        %lv = memref.load %l[%j] : memref<256xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %hv, %lv : i32
        memref.store %s, %h[%j] : memref<256xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %h1 = gpu.alloc host_shared () : memref<256xi32>
    scf.for %h1_i0 = %c0 to %c256 step %c1 {
      %h1_v = arith.index_cast %h1_i0 : index to i32
      memref.store %h1_v, %h1[%h1_i0] : memref<256xi32>
    }
    %h2 = gpu.alloc host_shared () : memref<256xi32>
    scf.for %h2_i0 = %c0 to %c256 step %c1 {
      %h2_v = arith.index_cast %h2_i0 : index to i32
      memref.store %h2_v, %h2[%h2_i0] : memref<256xi32>
    }
    %i = arith.constant 1 : i32
    gpu.launch_func @kernels::@foo blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%h1 : memref<256xi32>, %h2 : memref<256xi32>, %i : i32)
    gpu.dealloc %h1 : memref<256xi32>
    gpu.dealloc %h2 : memref<256xi32>
    return
  }
}
