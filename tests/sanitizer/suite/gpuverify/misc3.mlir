// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc3/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: launch scaled down from local_size=1024 num_groups=1024

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @f2(%a: memref<64xi32>) {
      return
    }
    func.func @f1(%a: memref<64xi32>) {
      func.call @f2(%a) : (memref<64xi32>) -> ()
      return
    }
    gpu.func @k(%a: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %nz = arith.cmpi ne, %tx, %c0 : index
      scf.if %nz {
        func.call @f1(%a) : (memref<64xi32>) -> ()
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %a = gpu.alloc host_shared () : memref<64xi32>
    scf.for %a_i0 = %c0 to %c64 step %c1 {
      %a_v = arith.index_cast %a_i0 : index to i32
      memref.store %a_v, %a[%a_i0] : memref<64xi32>
    }
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xi32>)
    gpu.dealloc %a : memref<64xi32>
    return
  }
}
