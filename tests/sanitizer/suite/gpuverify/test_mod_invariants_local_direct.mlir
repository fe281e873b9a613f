// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/test_mod_invariants/local_direct/kernel.cl
// launch: block=(16, 1, 1) grid=(2, 1, 1)
// note: num_groups scaled down from 8 to 2; A and B sized to the largest index, 1023 * 256 + 15; C is unused

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%C: memref<1xi32>) workgroup(%A: memref<261904xi32, #gpu.address_space<workgroup>>, %B: memref<261904xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %t = arith.index_cast %tx : index to i32
      scf.for %i = %c0 to %c1024 step %c1 {
        %ia = arith.muli %i, %c256 : index
        %a = arith.addi %ia, %tx : index
        memref.store %t, %A[%a] : memref<261904xi32, #gpu.address_space<workgroup>>
        %v = memref.load %A[%a] : memref<261904xi32, #gpu.address_space<workgroup>>
        memref.store %v, %B[%a] : memref<261904xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %C = gpu.alloc host_shared () : memref<1xi32>
    scf.for %C_i0 = %c0 to %c1 step %c1 {
      %C_v = arith.index_cast %C_i0 : index to i32
      memref.store %C_v, %C[%C_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%C : memref<1xi32>)
    gpu.dealloc %C : memref<1xi32>
    return
  }
}
