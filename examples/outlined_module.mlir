// Outlined kernels in a GPU module, launched from the host with gpu.launch_func:
//   y = a * x + y, then one partial sum of y per 256-thread block.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = a * x[i] + y[i] for i < n.
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_bounds = arith.cmpi ult, %i, %n : index
      scf.if %in_bounds {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }

    // partial[block] = sum of the block's 256 elements of x (0 past the end),
    // by a tree reduction in workgroup memory.
    gpu.func @block_sum(%x: memref<?xf32>, %partial: memref<?xf32>, %n: index)
        workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_bounds = arith.cmpi ult, %i, %n : index
      %v = scf.if %in_bounds -> (f32) {
        %xv = memref.load %x[%i] : memref<?xf32>
        scf.yield %xv : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      // Halve the number of active threads each step; every thread reaches
      // every barrier.
      %done = scf.while (%s = %c128) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %lhs = memref.load %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %rhs = memref.load %tile[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %lhs, %rhs : f32
          memref.store %sum, %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.shrui %s, %c1 : index
        scf.yield %next : index
      }
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        %total = memref.load %tile[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %total, %partial[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }

  // %h_partial must hold ceildiv(n, 256) elements.
  func.func @saxpy_then_block_sums(%a: f32, %h_x: memref<?xf32>, %h_y: memref<?xf32>,
                                   %h_partial: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %h_x, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c256 : index

    %t0 = gpu.wait async
    %d_x, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %d_y, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf32>
    %d_partial, %t3 = gpu.alloc async [%t2] (%blocks) : memref<?xf32>
    %t4 = gpu.memcpy async [%t3] %d_x, %h_x : memref<?xf32>, memref<?xf32>
    %t5 = gpu.memcpy async [%t4] %d_y, %h_y : memref<?xf32>, memref<?xf32>

    %t6 = gpu.launch_func async [%t5] @kernels::@saxpy
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : f32, %d_x : memref<?xf32>, %d_y : memref<?xf32>, %n : index)
    %t7 = gpu.launch_func async [%t6] @kernels::@block_sum
        blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%d_y : memref<?xf32>, %d_partial : memref<?xf32>, %n : index)

    %t8 = gpu.memcpy async [%t7] %h_y, %d_y : memref<?xf32>, memref<?xf32>
    %t9 = gpu.memcpy async [%t8] %h_partial, %d_partial : memref<?xf32>, memref<?xf32>
    %t10 = gpu.dealloc async [%t9] %d_x : memref<?xf32>
    %t11 = gpu.dealloc async [%t10] %d_y : memref<?xf32>
    %t12 = gpu.dealloc async [%t11] %d_partial : memref<?xf32>
    gpu.wait [%t12]
    return
  }

  // `gpu-run examples/outlined_module.mlir` runs both kernels on 1000 elements,
  // x[i] = i and y[i] = 1 with a = 2, and prints the four block sums of y.
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %blocks = arith.constant 4 : index
    %a = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %x = memref.alloc(%n) : memref<?xf32>
    %y = memref.alloc(%n) : memref<?xf32>
    %partial = memref.alloc(%blocks) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %as_int = arith.index_cast %i : index to i32
      %xi = arith.sitofp %as_int : i32 to f32
      memref.store %xi, %x[%i] : memref<?xf32>
      memref.store %one, %y[%i] : memref<?xf32>
    }
    call @saxpy_then_block_sums(%a, %x, %y, %partial)
        : (f32, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
    %printable = memref.cast %partial : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%printable) : (memref<*xf32>) -> ()
    memref.dealloc %x : memref<?xf32>
    memref.dealloc %y : memref<?xf32>
    memref.dealloc %partial : memref<?xf32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
