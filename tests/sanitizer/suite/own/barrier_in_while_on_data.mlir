// verdict: barrier-divergence
// source: own
// launch: block=(32, 1, 1) grid=(1, 1, 1)
// note: a barrier in a while loop whose trip count is the thread's own element (0 to 31)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drain(%work: memref<32xi32>) kernel {
      %tx = gpu.thread_id x
      %d0 = arith.constant 0 : i32
      %d1 = arith.constant 1 : i32
      %v = memref.load %work[%tx] : memref<32xi32>
      %left = scf.while (%n = %v) : (i32) -> i32 {
        %more = arith.cmpi sgt, %n, %d0 : i32
        scf.condition(%more) %n : i32
      } do {
      ^bb0(%n: i32):
        gpu.barrier
        %n1 = arith.subi %n, %d1 : i32
        scf.yield %n1 : i32
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %work = gpu.alloc host_shared () : memref<32xi32>
    scf.for %work_i0 = %c0 to %c32 step %c1 {
      %work_v = arith.index_cast %work_i0 : index to i32
      memref.store %work_v, %work[%work_i0] : memref<32xi32>
    }
    gpu.launch_func @kernels::@drain blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%work : memref<32xi32>)
    gpu.dealloc %work : memref<32xi32>
    return
  }
}
