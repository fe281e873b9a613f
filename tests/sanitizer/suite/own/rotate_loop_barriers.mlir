// verdict: race-free
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: each iteration reads a neighbour's slot, then a barrier, then it rewrites its own, then a barrier

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate() workgroup(%s: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %d1 = arith.constant 1 : i32
      %t = arith.index_cast %tx : index to i32
      memref.store %t, %s[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %i = %c1 to %c4 step %c1 {
        %k = arith.addi %tx, %i : index
        %j = arith.remui %k, %c64 : index
        %v = memref.load %s[%j] : memref<64xi32, #gpu.address_space<workgroup>>
        %v1 = arith.addi %v, %d1 : i32
        gpu.barrier
        memref.store %v1, %s[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
