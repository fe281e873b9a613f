// verdict: barrier-divergence
// source: own
// launch: block=(64, 1, 1) grid=(1, 1, 1)
// note: the issue's example: a gpu.barrier inside a device function called under scf.if on gpu.thread_id

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @sync() {
      gpu.barrier
      return
    }
    gpu.func @sync_some() kernel {
      %tx = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %half = arith.cmpi ult, %tx, %c32 : index
      scf.if %half {
        func.call @sync() : () -> ()
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@sync_some blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
    return
  }
}
