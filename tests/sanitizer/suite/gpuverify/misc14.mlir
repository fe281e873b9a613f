// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc14/kernel.cl
// launch: block=(10, 1, 1) grid=(1, 1, 1)
// note: the private array x[10] became a memref.alloca filled by a loop; the __requires precondition holds for this launch

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @bar(%x: memref<10xi32>) -> i32 {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      %v = memref.load %x[%gid] : memref<10xi32>
      return %v : i32
    }
    gpu.func @foo(%A: memref<10xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %x = memref.alloca() : memref<10xi32>
      scf.for %k = %c0 to %c10 step %c1 {
        %v = arith.index_cast %k : index to i32
        memref.store %v, %x[%k] : memref<10xi32>
      }
      %r = func.call @bar(%x) : (memref<10xi32>) -> i32
      memref.store %r, %A[%gid] : memref<10xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %A = gpu.alloc host_shared () : memref<10xi32>
    scf.for %A_i0 = %c0 to %c10 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<10xi32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c1, %c1, %c1) threads in (%c10, %c1, %c1) args(%A : memref<10xi32>)
    gpu.dealloc %A : memref<10xi32>
    return
  }
}
