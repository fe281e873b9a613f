// verdict: barrier-divergence
// source: own
// launch: block=(32, 1, 1) grid=(1, 1, 1)
// note: a barrier in a loop whose trip count is the thread id

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @uneven() kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %tx step %c1 {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@uneven blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
    return
  }
}
