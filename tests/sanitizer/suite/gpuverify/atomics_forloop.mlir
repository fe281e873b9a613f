// verdict: race
// source: mc-imperial/gpuverify testsuite/OpenCL/atomics/forloop/kernel.cl
// launch: block=(1024, 1, 1) grid=(1, 1, 1)
// note: x passed as 4; the uninitialised v starts at 0; A and C are unused

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @blarp(%A: memref<1024xi32>, %B: memref<1024xi32>, %C: memref<1024xi32>, %x: index) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v0 = arith.constant 0 : i32
      %v = scf.for %i = %c0 to %x step %c1 iter_args(%acc = %v0) -> (i32) {
        %old = memref.atomic_rmw addi %acc, %B[%i] : (i32, memref<1024xi32>) -> i32
        scf.yield %old : i32
      }
      memref.store %v, %B[%gid] : memref<1024xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %A = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %A_i0 = %c0 to %c1024 step %c1 {
      %A_v = arith.index_cast %A_i0 : index to i32
      memref.store %A_v, %A[%A_i0] : memref<1024xi32>
    }
    %B = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %B_i0 = %c0 to %c1024 step %c1 {
      %B_v = arith.index_cast %B_i0 : index to i32
      memref.store %B_v, %B[%B_i0] : memref<1024xi32>
    }
    %C = gpu.alloc host_shared () : memref<1024xi32>
    scf.for %C_i0 = %c0 to %c1024 step %c1 {
      %C_v = arith.index_cast %C_i0 : index to i32
      memref.store %C_v, %C[%C_i0] : memref<1024xi32>
    }
    %x = arith.constant 4 : index
    gpu.launch_func @kernels::@blarp blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%A : memref<1024xi32>, %B : memref<1024xi32>, %C : memref<1024xi32>, %x : index)
    gpu.dealloc %A : memref<1024xi32>
    gpu.dealloc %B : memref<1024xi32>
    gpu.dealloc %C : memref<1024xi32>
    return
  }
}
