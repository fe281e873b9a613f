// verdict: race-free
// source: mc-imperial/gpuverify testsuite/CUDA/misc/pass/misc1/kernel.cu
// launch: block=(512, 1, 1) grid=(1, 1, 1)
// note: x = 143 as the __requires says; the loop invariant annotation is dropped

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helloCUDA(%x: index) workgroup(%S: memref<8192xf32, #gpu.address_space<workgroup>>, %F: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bdx = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %warp = arith.divui %tx, %c32 : index
      %lane = arith.remui %tx, %c32 : index
      %step = arith.divui %bdx, %c32 : index
      scf.for %i = %c0 to %x step %step {
        %r = arith.addi %i, %warp : index
        %in = arith.cmpi ult, %r, %x : index
        scf.if %in {
          %row = arith.muli %r, %c32 : index
          %idx = arith.addi %row, %lane : index
          %f = memref.load %F[%r] : memref<256xf32, #gpu.address_space<workgroup>>
          memref.store %f, %S[%idx] : memref<8192xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %x = arith.constant 143 : index
    gpu.launch_func @kernels::@helloCUDA blocks in (%c1, %c1, %c1) threads in (%c512, %c1, %c1) args(%x : index)
    return
  }
}
