// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc8/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: launch scaled down from local_size=1024 num_groups=1024; half_powr became math.powf

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @baz(%p: f32) -> f32 {
      %two = arith.constant 2.0 : f32
      %r = math.powf %two, %p : f32
      return %r : f32
    }
    gpu.func @foo(%A: memref<256xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %zero = arith.constant 0.0 : f32
      %two = arith.constant 2.0 : f32
      %a = memref.load %A[%gid] : memref<256xf32>
      %nz = arith.cmpf une, %a, %zero : f32
      scf.if %nz {
        %r = func.call @baz(%two) : (f32) -> f32
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %A = gpu.alloc host_shared () : memref<256xf32>
    scf.for %A_i0 = %c0 to %c256 step %c1 {
      %A_w = arith.index_cast %A_i0 : index to i64
      %A_v = arith.sitofp %A_w : i64 to f32
      memref.store %A_v, %A[%A_i0] : memref<256xf32>
    }
    gpu.launch_func @kernels::@foo blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%A : memref<256xf32>)
    gpu.dealloc %A : memref<256xf32>
    return
  }
}
