// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/atomics/atomic_read_race/kernel.cl
// launch: block=(1024, 1, 1) grid=(1, 1, 1)
// note: atomic_inc(A) became memref.atomic_rmw addi 1 on A[0]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @atomic() workgroup(%A: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      %x = memref.load %A[%tx] : memref<1024xi32, #gpu.address_space<workgroup>>
      %old = memref.atomic_rmw addi %d1, %A[%c0] : (i32, memref<1024xi32, #gpu.address_space<workgroup>>) -> i32
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@atomic blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1)
    return
  }
}
