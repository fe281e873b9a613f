// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/atomics/counter/kernel.cl
// launch: block=(1024, 1, 1) grid=(1, 1, 1)
// note: local int count became a one-element workgroup attribution

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @counter() workgroup(%A: memref<1024xi32, #gpu.address_space<workgroup>>, %count: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d0 = arith.constant 0 : i32
      %d1 = arith.constant 1 : i32
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %d0, %count[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %old = memref.atomic_rmw addi %d1, %count[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      %i = arith.index_cast %old : i32 to index
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %A[%i] : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@counter blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1)
    return
  }
}
