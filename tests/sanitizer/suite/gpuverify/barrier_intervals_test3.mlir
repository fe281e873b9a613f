// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/barrier_intervals/test3/kernel.cl
// launch: block=(16, 1, 1) grid=(16, 1, 1)
// note: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) in the wrapper became a gpu.barrier without memfence

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @barrier_wrapper() {
      gpu.barrier
      return
    }
    gpu.func @simple_kernel() workgroup(%p: memref<16xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c100 = arith.constant 100 : index
      %d22 = arith.constant 22 : i32
      %v = arith.index_cast %tx : index to i32
      scf.for %i = %c0 to %c100 step %c1 {
        func.call @barrier_wrapper() : () -> ()
        memref.store %v, %p[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
        func.call @barrier_wrapper() : () -> ()
      }
      %p0 = memref.load %p[%c0] : memref<16xi32, #gpu.address_space<workgroup>>
      %is22 = arith.cmpi eq, %p0, %d22 : i32
      scf.if %is22 {
        scf.for %i = %c0 to %c100 step %c1 {
          func.call @barrier_wrapper() : () -> ()
          memref.store %v, %p[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
          func.call @barrier_wrapper() : () -> ()
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@simple_kernel blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1)
    return
  }
}
