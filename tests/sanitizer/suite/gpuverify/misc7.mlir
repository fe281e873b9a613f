// verdict: race-free
// source: mc-imperial/gpuverify testsuite/OpenCL/misc/pass/misc7/kernel.cl
// launch: block=(64, 1, 1) grid=(4, 1, 1)
// note: launch scaled down from local_size=1024 num_groups=1024; the if/else chains became arith.select

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @float_const(%in1: memref<256xf64>, %out1: memref<256xi32>, %in2: memref<256xf32>, %out2: memref<256xi32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %gid_b = arith.muli %bx, %bdx : index
      %gid = arith.addi %gid_b, %tx : index
      %d0 = arith.constant 0 : i32
      %d1 = arith.constant 1 : i32
      %nan64 = arith.constant 0x7FF8000000000000 : f64
      %inf64 = arith.constant 0x7FF0000000000000 : f64
      %nan32 = arith.constant 0x7FC00000 : f32
      %inf32 = arith.constant 0x7F800000 : f32
      %m1 = arith.constant -1 : i32
      %x1 = memref.load %in1[%gid] : memref<256xf64>
      %n1 = arith.cmpf oeq, %x1, %nan64 : f64
      %i1 = arith.cmpf oeq, %x1, %inf64 : f64
      %r1a = arith.select %i1, %d1, %d0 : i32
      %r1 = arith.select %n1, %m1, %r1a : i32
      memref.store %r1, %out1[%gid] : memref<256xi32>
      %x2 = memref.load %in2[%gid] : memref<256xf32>
      %n2 = arith.cmpf oeq, %x2, %nan32 : f32
      %i2 = arith.cmpf oeq, %x2, %inf32 : f32
      %r2a = arith.select %i2, %d1, %d0 : i32
      %r2 = arith.select %n2, %m1, %r2a : i32
      memref.store %r2, %out2[%gid] : memref<256xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %in1 = gpu.alloc host_shared () : memref<256xf64>
    scf.for %in1_i0 = %c0 to %c256 step %c1 {
      %in1_w = arith.index_cast %in1_i0 : index to i64
      %in1_v = arith.sitofp %in1_w : i64 to f64
      memref.store %in1_v, %in1[%in1_i0] : memref<256xf64>
    }
    %out1 = gpu.alloc host_shared () : memref<256xi32>
    scf.for %out1_i0 = %c0 to %c256 step %c1 {
      %out1_v = arith.index_cast %out1_i0 : index to i32
      memref.store %out1_v, %out1[%out1_i0] : memref<256xi32>
    }
    %in2 = gpu.alloc host_shared () : memref<256xf32>
    scf.for %in2_i0 = %c0 to %c256 step %c1 {
      %in2_w = arith.index_cast %in2_i0 : index to i64
      %in2_v = arith.sitofp %in2_w : i64 to f32
      memref.store %in2_v, %in2[%in2_i0] : memref<256xf32>
    }
    %out2 = gpu.alloc host_shared () : memref<256xi32>
    scf.for %out2_i0 = %c0 to %c256 step %c1 {
      %out2_v = arith.index_cast %out2_i0 : index to i32
      memref.store %out2_v, %out2[%out2_i0] : memref<256xi32>
    }
    gpu.launch_func @kernels::@float_const blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%in1 : memref<256xf64>, %out1 : memref<256xi32>, %in2 : memref<256xf32>, %out2 : memref<256xi32>)
    gpu.dealloc %in1 : memref<256xf64>
    gpu.dealloc %out1 : memref<256xi32>
    gpu.dealloc %in2 : memref<256xf32>
    gpu.dealloc %out2 : memref<256xi32>
    return
  }
}
