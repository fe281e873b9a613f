// verdict: out-of-bounds
// source: own
// launch: block=(1, 1, 1) grid=(1, 1, 1)
// note: the kernel is in bounds; @main stores m[1] into the memref<1xi32> after the launch (the issue's host example)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %d1 = arith.constant 1 : i32
      memref.store %d1, %m[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = gpu.alloc host_shared () : memref<1xi32>
    scf.for %m_i0 = %c0 to %c1 step %c1 {
      %m_v = arith.index_cast %m_i0 : index to i32
      memref.store %m_v, %m[%m_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<1xi32>)
    %one = arith.constant 1 : i32
    memref.store %one, %m[%c1] : memref<1xi32>
    gpu.dealloc %m : memref<1xi32>
    return
  }
}
