// verdict: race
// source: LLNL/dataracebench micro-benchmarks/DRB160-nobarrier-orig-gpu-yes.c
// launch: block=(1, 1, 1) grid=(4, 1, 1)
// note: teams: 4 teams of one thread; each distribute splits its 16 iterations into 4 chunks, team t taking the t-th (the second loop counts down, i = 15 - j); the scalar a became a one-element memref

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @drb160(%b: memref<16xi32>, %c: memref<16xi32>, %temp: memref<16xi32>, %av: memref<1xi32>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c100 = arith.constant 100 : index
      %last = arith.constant 15 : index
      %lo = arith.muli %bx, %c4 : index
      %hi = arith.addi %lo, %c4 : index
      %a = memref.load %av[%c0] : memref<1xi32>
      scf.for %n = %c0 to %c100 step %c1 {
        scf.for %i = %lo to %hi step %c1 {
          %bi = memref.load %b[%i] : memref<16xi32>
          %ci = memref.load %c[%i] : memref<16xi32>
          %s = arith.addi %bi, %ci : i32
          memref.store %s, %temp[%i] : memref<16xi32>
        }
        scf.for %j = %lo to %hi step %c1 {
          %i = arith.subi %last, %j : index
          %t = memref.load %temp[%i] : memref<16xi32>
          %p = arith.muli %t, %a : i32
          memref.store %p, %b[%i] : memref<16xi32>
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %b = gpu.alloc host_shared () : memref<16xi32>
    scf.for %b_i0 = %c0 to %c16 step %c1 {
      %b_v = arith.index_cast %b_i0 : index to i32
      memref.store %b_v, %b[%b_i0] : memref<16xi32>
    }
    %c = gpu.alloc host_shared () : memref<16xi32>
    scf.for %c_i0 = %c0 to %c16 step %c1 {
      %c_v = arith.index_cast %c_i0 : index to i32
      memref.store %c_v, %c[%c_i0] : memref<16xi32>
    }
    %temp = gpu.alloc host_shared () : memref<16xi32>
    scf.for %temp_i0 = %c0 to %c16 step %c1 {
      %temp_v = arith.index_cast %temp_i0 : index to i32
      memref.store %temp_v, %temp[%temp_i0] : memref<16xi32>
    }
    %av = gpu.alloc host_shared () : memref<1xi32>
    scf.for %av_i0 = %c0 to %c1 step %c1 {
      %av_v = arith.index_cast %av_i0 : index to i32
      memref.store %av_v, %av[%av_i0] : memref<1xi32>
    }
    gpu.launch_func @kernels::@drb160 blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<16xi32>, %c : memref<16xi32>, %temp : memref<16xi32>, %av : memref<1xi32>)
    gpu.dealloc %b : memref<16xi32>
    gpu.dealloc %c : memref<16xi32>
    gpu.dealloc %temp : memref<16xi32>
    gpu.dealloc %av : memref<1xi32>
    return
  }
}
