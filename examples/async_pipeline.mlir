// A two-kernel pipeline on one stream of asynchronous work:
//   out = relu(scale * in + bias)
// Every GPU op waits on exactly one token and every token is consumed once, so
// the chain lowers to GPU runtime calls as is: gpu-kernel-outlining, then
// convert-scf-to-cf, convert-gpu-to-nvvm on the kernels, and gpu-to-llvm.

func.func @scale_bias_relu(%h_in: memref<?xf32>, %h_out: memref<?xf32>,
                           %scale: f32, %bias: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %h_in, %c0 : memref<?xf32>
  // One thread per element for the first kernel.
  %blocks = arith.ceildivui %n, %c256 : index

  %t0 = gpu.wait async
  %d_in, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %d_out, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf32>
  %t3 = gpu.memcpy async [%t2] %d_in, %h_in : memref<?xf32>, memref<?xf32>

  // Kernel 1: out[i] = scale * in[i] + bias, guarded against the ragged tail.
  %t4 = gpu.launch async [%t3]
      blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %in_bounds = arith.cmpi ult, %i, %n : index
    scf.if %in_bounds {
      %x = memref.load %d_in[%i] : memref<?xf32>
      %scaled = arith.mulf %x, %scale : f32
      %y = arith.addf %scaled, %bias : f32
      memref.store %y, %d_out[%i] : memref<?xf32>
    }
    gpu.terminator
  }

  // Kernel 2: in-place ReLU with a grid-stride loop over a fixed 32-block grid.
  %t5 = gpu.launch async [%t4]
      blocks(%bx2, %by2, %bz2) in (%gx2 = %c32, %gy2 = %c1, %gz2 = %c1)
      threads(%tx2, %ty2, %tz2) in (%sx2 = %c256, %sy2 = %c1, %sz2 = %c1) {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %gdim = gpu.grid_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %start = arith.addi %base, %tid : index
    %stride = arith.muli %gdim, %bdim : index
    scf.for %i = %start to %n step %stride {
      %v = memref.load %d_out[%i] : memref<?xf32>
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %d_out[%i] : memref<?xf32>
    }
    gpu.terminator
  }

  %t6 = gpu.memcpy async [%t5] %h_out, %d_out : memref<?xf32>, memref<?xf32>
  %t7 = gpu.dealloc async [%t6] %d_in : memref<?xf32>
  %t8 = gpu.dealloc async [%t7] %d_out : memref<?xf32>
  // Block the host until the whole chain has finished.
  gpu.wait [%t8]
  return
}

// `gpu-run examples/async_pipeline.mlir` runs the pipeline on 16 elements,
// in[i] = i - 8, with scale 0.5 and bias 1: out = relu(0.5 * in + 1).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = arith.constant 16 : index
  %scale = arith.constant 0.5 : f32
  %bias = arith.constant 1.0 : f32
  %in = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %shifted = arith.subi %i, %c8 : index
    %as_int = arith.index_cast %shifted : index to i32
    %x = arith.sitofp %as_int : i32 to f32
    memref.store %x, %in[%i] : memref<?xf32>
  }
  call @scale_bias_relu(%in, %out, %scale, %bias)
      : (memref<?xf32>, memref<?xf32>, f32, f32) -> ()
  %printable = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%printable) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
