// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc15/kernel.cl
// launch: block=(2, 1, 1) grid=(1, 1, 1)
// note: x = 3 as the source's --kernel-args gives it

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @foo(%x: i32) workgroup(%A: memref<2xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %d3 = arith.constant 3 : i32
      %is3 = arith.cmpi eq, %x, %d3 : i32
      scf.if %is3 {
        memref.store %d3, %A[%tx] : memref<2xi32, #gpu.address_space<workgroup>>
      } else {
        %t = arith.index_cast %tx : index to i32
        memref.store %t, %A[%c0] : memref<2xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %x = arith.constant 3 : i32
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%x : i32)
    return
  }
}
